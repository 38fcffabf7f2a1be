// GET /archive/…: the open archive's files as the worker wrote them into ARCHIVE_DIR (the API and
// the worker must see the same directory: one disk, or one volume shared by their processes).
// /archive/index.json lists every published day and file with its size, rows and SHA-256; /archive/
// shows the same as a page. A file is served only when the index lists it, so a path the index
// does not hold (a traversal among them) is a plain 404 and never reaches the disk. Published files
// never change: a year's max-age, immutable, the SHA-256 as strong ETag (304 on If-None-Match),
// Content-Length and byte ranges from express's sendFile. The index changes once a run: five minutes.
// /archive/columns.md is the data dictionary (docs/archive-columns.md), which the index names by
// its absolute URL; it changes with a deployment: an hour.
import fs from "node:fs";
import path from "node:path";
import express from "express";
import { ifNoneMatchFails } from "../../http/conditional-requests.ts";
import { sendCacheable, sendPlain, sendReadFailure } from "../../http/cacheable-document.ts";
import type { OpenDataDeps } from "../deps.ts";
import {
  ARCHIVE_URL_PREFIX,
  archiveIndex,
  COLUMNS_ADDRESS,
  fileName,
  indexFile,
  type ArchiveFileEntry,
  type ArchiveIndex,
} from "./archive-index.ts";
import type { ArchiveConfig } from "./publish.ts";
import { archiveListing } from "./listing.ts";

const INDEX_CACHE_CONTROL = "public, max-age=300";
const FILE_CACHE_CONTROL = "public, max-age=31536000, immutable";
const COLUMNS_CACHE_CONTROL = "public, max-age=3600";
const COLUMNS_FILE = path.join(import.meta.dirname, "../../../docs/archive-columns.md");
const CONTENT_TYPES = {
  csv: "text/csv; charset=utf-8; header=present",
  parquet: "application/vnd.apache.parquet",
};

interface ServedIndex {
  json: string;
  html: string;
  files: Map<string, ArchiveFileEntry>;
}

/** The index as served: its data dictionary named by an absolute URL (whatever an older run wrote there). */
function served(written: ArchiveIndex, publicUrl: string): ServedIndex {
  const index = { ...written, columns: `${publicUrl}${COLUMNS_ADDRESS}` };
  const files = new Map(index.days.flatMap((day) => day.files.map((file) => [file.path, file] as const)));
  return { json: JSON.stringify(index, null, 2) + "\n", html: archiveListing(index), files };
}

/** index.json as the worker last wrote it, read again only when the file changed; an empty one before the first run. */
function indexReader(config: ArchiveConfig, publicUrl: string): () => Promise<ServedIndex> {
  const file = indexFile(config.dir);
  let kept: { stamp: string; index: ServedIndex } | undefined;
  return async () => {
    const stat = await fs.promises.stat(file).catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return null;
      throw error;
    });
    const stamp = stat ? `${stat.mtimeMs}:${stat.size}` : "none";
    if (kept?.stamp !== stamp) {
      const json = stat ? await fs.promises.readFile(file, "utf8") : null;
      const index = json ? (JSON.parse(json) as ArchiveIndex) : archiveIndex([], config);
      kept = { stamp, index: served(index, publicUrl) };
    }
    return kept.index;
  };
}

function sendFile(req: express.Request, res: express.Response, dir: string, file: ArchiveFileEntry): void {
  const etag = `"${Buffer.from(file.sha256, "hex").toString("base64url")}"`;
  res.set({ etag, "cache-control": FILE_CACHE_CONTROL, "x-content-type-options": "nosniff" });
  if (ifNoneMatchFails(req.get("if-none-match"), etag)) return void res.status(304).end();
  res.set("content-type", CONTENT_TYPES[file.format]);
  // The path comes from the index, never from the request: /archive/<yyyy>/<date>/<file>.
  const [, , year, date] = file.path.split("/");
  const onDisk = path.join(dir, year, date, fileName(file.feed, file.format));
  res.sendFile(onDisk, { etag: false, cacheControl: false, dotfiles: "deny" }, (error) => {
    if (!error || res.headersSent) return;
    // Deleted since the index was read (past keeping).
    sendPlain(
      res,
      404,
      `${file.path} is no longer kept. The files kept are listed at ${ARCHIVE_URL_PREFIX}/index.json.`,
    );
  });
}

/** Takes the settings only: the archive reads files, not the database. */
export function archiveRoutes({ config }: Pick<OpenDataDeps, "config">): express.Router {
  const router = express.Router();
  const { archive } = config;
  const readIndex = indexReader(archive, config.delivery.publicUrl);
  // Read once, on the first request: it changes with a deployment only.
  let columns: Promise<string> | undefined;
  router.get(/^\/archive(\/.*)?$/, async (req, res) => {
    if (!archive.enabled) return sendPlain(res, 404, "The open archive is switched off on this service.");
    try {
      const wanted = req.path;
      if (wanted === COLUMNS_ADDRESS) {
        columns ??= fs.promises.readFile(COLUMNS_FILE, "utf8").catch((error: unknown) => {
          columns = undefined;
          throw error;
        });
        return sendCacheable(req, res, {
          body: await columns,
          contentType: "text/markdown; charset=utf-8",
          cacheControl: COLUMNS_CACHE_CONTROL,
        });
      }
      const index = await readIndex();
      if (wanted === `${ARCHIVE_URL_PREFIX}/index.json`) {
        return sendCacheable(req, res, {
          body: index.json,
          contentType: "application/json; charset=utf-8",
          cacheControl: INDEX_CACHE_CONTROL,
        });
      }
      if ([ARCHIVE_URL_PREFIX, `${ARCHIVE_URL_PREFIX}/`, `${ARCHIVE_URL_PREFIX}/index.html`].includes(wanted)) {
        return sendCacheable(req, res, {
          body: index.html,
          contentType: "text/html; charset=utf-8",
          cacheControl: INDEX_CACHE_CONTROL,
        });
      }
      const file = index.files.get(wanted);
      if (!file) {
        return sendPlain(
          res,
          404,
          `No such archive file. The published files are listed at ${ARCHIVE_URL_PREFIX}/index.json.`,
        );
      }
      sendFile(req, res, archive.dir, file);
    } catch (error) {
      sendReadFailure(req, res, error);
    }
  });
  return router;
}
