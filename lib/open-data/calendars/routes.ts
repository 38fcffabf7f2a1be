// The public calendars (issue 50, docs/open-data.md#calendars), for calendar apps that subscribe to
// a URL (Home Assistant's remote calendar, Google Calendar, Apple Calendar, webcal://):
//   GET /calendars/netherlands.ics           the whole country
//   GET /calendars/provinces/<code>.ics      a province by its code (noord-holland, friesland, …)
// with ?lang=en for our own words in English. No sign-in, as those apps send none. Answers carry a
// strong ETag (304 while nothing changed) and may be kept by shared caches for a few minutes; an
// unknown province is 404, a language we do not write 400, both in plain words.
import express from "express";
import { sendCacheable, sendPlain, sendReadFailure } from "../../http/cacheable-document.ts";
import type { OpenDataDeps } from "../routes.ts";
import { CALENDAR_CONTENT_TYPE, CALENDAR_LANGUAGES, type CalendarLanguage } from "./document.ts";
import { provinceCalendar } from "./province-calendar.ts";

const CALENDARS_PATH = "/calendars";

// Warnings change by the hour and calendar apps fetch far less often: a shared cache may answer
// for ten minutes, and revalidates with the ETag after.
const CACHE_CONTROL = "public, max-age=600";

/** The shape of a province code (nl_provinces.code), checked before the database is asked. */
const PROVINCE_FILE = /^([a-z]+(?:-[a-z]+)*)\.ics$/;

function languageOf(req: express.Request): CalendarLanguage | undefined {
  const lang = req.query.lang ?? "nl";
  return CALENDAR_LANGUAGES.find((language) => language === lang);
}

export function calendarRoutes({ authPool, config }: OpenDataDeps): express.Router {
  const router = express.Router();

  async function answer(req: express.Request, res: express.Response, province: string | null, file: string) {
    const language = languageOf(req);
    if (!language) return sendPlain(res, 400, `lang must be one of: ${CALENDAR_LANGUAGES.join(", ")}.`);
    const url = `${config.delivery.publicUrl}${req.path}${language === "nl" ? "" : `?lang=${language}`}`;
    try {
      const body = await provinceCalendar(authPool, province, language, url, new Date());
      if (body === undefined) return sendPlain(res, 404, `No calendar for the province "${province}".`);
      sendCacheable(req, res, {
        body,
        contentType: CALENDAR_CONTENT_TYPE,
        cacheControl: CACHE_CONTROL,
        headers: { "content-disposition": `inline; filename="${file}"` },
      });
    } catch (error) {
      sendReadFailure(req, res, error);
    }
  }

  router.get(`${CALENDARS_PATH}/netherlands.ics`, (req, res) => answer(req, res, null, "netherlands.ics"));
  router.get(`${CALENDARS_PATH}/provinces/:file`, (req, res) => {
    const code = PROVINCE_FILE.exec(req.params.file)?.[1];
    if (!code || code.length > 60) return sendPlain(res, 404, "No such calendar: see /calendars/provinces/<code>.ics.");
    return answer(req, res, code, req.params.file);
  });
  return router;
}
