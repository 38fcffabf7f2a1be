// The languages the open data writes its own words in (share pages, calendars): Dutch by default,
// English with ?lang=en. The sources' own texts stay as the source wrote them.
import type express from "express";

export const OPEN_DATA_LANGUAGES = ["nl", "en"] as const;
export type OpenDataLanguage = (typeof OPEN_DATA_LANGUAGES)[number];

/** The language a request asks for with ?lang (Dutch without one), or undefined for one we do not write. */
export function requestedLanguage(req: express.Request): OpenDataLanguage | undefined {
  const lang = req.query.lang ?? "nl";
  return OPEN_DATA_LANGUAGES.find((language) => language === lang);
}

/** The refusal of a ?lang we do not write. */
export const LANGUAGE_REFUSAL = `lang must be one of: ${OPEN_DATA_LANGUAGES.join(", ")}.`;
