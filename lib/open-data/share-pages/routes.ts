// The share pages (issue 50, docs/open-data.md#share-pages): one page per P2000 incident
// (/incidents/<id>), traffic incident (/traffic/<id>), NL-Alert (/nl-alerts/<id>) and weather
// warning (/warnings/<id>), with its map image at <page>/map.png. Rendered here, so a link
// preview or a search engine reads the record's words, place, time and image without running
// JavaScript; a browser runs the web application, which the page loads, and it shows the record
// on the live map (web/src/routes.ts). The id is the record's uuid in 22 characters (share-ids.ts);
// the uuid's long form and other spellings answer 301 to it, an id that is no id 400, an unknown
// one 404 in plain words. `?lang=en` gives the English page. Pages and images answer with an
// ETag (304 to If-None-Match) and Cache-Control for crawlers and the caches on the way; the
// record's data is kept in memory until the database says it changed (page-data.ts).
import express from "express";
import { sendCacheable, sendPlain, sendReadFailure } from "../../http/cacheable-document.ts";
import { webContentSecurityPolicy } from "../../web/web-routes.ts";
import type { OpenDataDeps } from "../deps.ts";
import { LANGUAGE_REFUSAL, requestedLanguage } from "../language.ts";
import { SHARE_KINDS, type ShareKindSpec } from "./kinds.ts";
import { mapPng } from "./map-image.ts";
import { SharePageData } from "./page-data.ts";
import { sharePage, type Language } from "./page-content.ts";
import { notFoundHtml, sharePageHtml } from "./page-html.ts";
import { parseShareId, shortId } from "./share-ids.ts";

/** A minute for pages (a live incident gets new pages), more for an image (its place rarely moves). */
const PAGE_CACHE_CONTROL = "public, max-age=60";
const IMAGE_CACHE_CONTROL = "public, max-age=600";

const HTML = "text/html; charset=utf-8";

const withLanguage = (path: string, language: Language) => (language === "en" ? `${path}?lang=en` : path);

/** Where the web application shows the record: a P2000 incident opens on the map, the others show the map. */
function mapPath(spec: ShareKindSpec, uuid: string, language: Language): string {
  const query = new URLSearchParams();
  if (spec.kind === "incident") query.set("incident", uuid);
  if (language === "en") query.set("lang", "en");
  const search = query.toString();
  return search ? `/?${search}` : "/";
}

export function sharePageRoutes({ authPool, config, responseCache }: OpenDataDeps): express.Router {
  const router = express.Router();
  const publicUrl = config.delivery.publicUrl;
  const policy = webContentSecurityPolicy(config.web);
  const data = new SharePageData(authPool, responseCache);

  /**
   * The record a request names, or undefined having answered it (400, 301). `suffix` is what
   * follows the id in the path ("" or "/map.png").
   */
  function recordOf(req: express.Request, res: express.Response, spec: ShareKindSpec, suffix: string) {
    const language = requestedLanguage(req);
    if (!language) return void sendPlain(res, 400, LANGUAGE_REFUSAL);
    const id = parseShareId(String(req.params.id));
    if (id.kind === "malformed") {
      return void sendPlain(res, 400, `${req.params.id} is no id: an id is 22 letters, digits, - and _ (or a uuid).`);
    }
    if (id.kind === "other") {
      res.set("cache-control", "public, max-age=86400");
      return void res.redirect(301, withLanguage(`${spec.prefix}/${id.id}${suffix}`, language));
    }
    return { uuid: id.uuid, language };
  }

  for (const spec of SHARE_KINDS) {
    router.get(`${spec.prefix}/:id`, async (req, res) => {
      const record = recordOf(req, res, spec, "");
      if (!record) return;
      const { uuid, language } = record;
      res.set({ "content-security-policy": policy, "referrer-policy": "no-referrer" });
      try {
        const found = await data.read(spec, uuid, language);
        if (!found) {
          res.status(404).set("cache-control", "no-store").type(HTML).send(notFoundHtml(language));
          return;
        }
        const path = `${spec.prefix}/${shortId(uuid)}`;
        const body = sharePageHtml(sharePage(spec.kind, found, language), language, {
          canonical: publicUrl + withLanguage(path, language),
          languages: { nl: publicUrl + path, en: publicUrl + withLanguage(path, "en") },
          image: `${publicUrl}${path}/map.png`,
          imagePath: `${path}/map.png`,
          map: mapPath(spec, uuid, language),
        });
        sendCacheable(req, res, { body, contentType: HTML, cacheControl: PAGE_CACHE_CONTROL });
      } catch (error) {
        sendReadFailure(req, res, error);
      }
    });

    router.get(`${spec.prefix}/:id/map.png`, async (req, res) => {
      const record = recordOf(req, res, spec, "/map.png");
      if (!record) return;
      try {
        // The image is the same in both languages: the page data of either will do.
        const found = await data.read(spec, record.uuid, "nl");
        if (!found) return void sendPlain(res, 404, "No such record: it has no map.");
        const body = await mapPng(sharePage(spec.kind, found, "nl").map);
        sendCacheable(req, res, { body, contentType: "image/png", cacheControl: IMAGE_CACHE_CONTROL });
      } catch (error) {
        sendReadFailure(req, res, error);
      }
    });
  }
  return router;
}
