// The public calendars (issue 50, docs/open-data.md#calendars), for calendar apps that subscribe to
// a URL (Home Assistant's remote calendar, Google Calendar, Apple Calendar, webcal://):
//   GET /calendars/netherlands.ics           the whole country
//   GET /calendars/provinces/<code>.ics      a province by its code (noord-holland, friesland, …)
// with ?lang=en for our own words in English. No sign-in, as those apps send none. Answers carry a
// strong ETag (304 while nothing changed) and may be kept by shared caches for a few minutes (and
// by the service until their data changes, ProvinceCalendars); an unknown province is 404, a
// language we do not write 400, both in plain words.
import express from "express";
import { sendCacheable, sendPlain, sendReadFailure } from "../../http/cacheable-document.ts";
import type { OpenDataDeps } from "../deps.ts";
import { LANGUAGE_REFUSAL, requestedLanguage } from "../language.ts";
import { CALENDAR_CONTENT_TYPE } from "./document.ts";
import { ProvinceCalendars } from "./province-calendar.ts";

const CALENDARS_PATH = "/calendars";

// Warnings change by the hour and calendar apps fetch far less often: a shared cache may answer
// for ten minutes, and revalidates with the ETag after.
const CACHE_CONTROL = "public, max-age=600";

/** The shape of a province code (nl_provinces.code), checked before the database is asked. */
const PROVINCE_FILE = /^([a-z]+(?:-[a-z]+)*)\.ics$/;

export function calendarRoutes({ authPool, config, responseCache }: OpenDataDeps): express.Router {
  const router = express.Router();
  const calendars = new ProvinceCalendars(authPool, responseCache);

  async function answer(req: express.Request, res: express.Response, province: string | null, file: string) {
    const language = requestedLanguage(req);
    if (!language) return sendPlain(res, 400, LANGUAGE_REFUSAL);
    const url = `${config.delivery.publicUrl}${req.path}${language === "nl" ? "" : `?lang=${language}`}`;
    try {
      const body = await calendars.read(province, language, url);
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
