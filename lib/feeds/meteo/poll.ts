// One round of the weather poller (task meteo__poll, every 5 minutes): the warnings and the
// observations document where a source is configured, each a round of lib/feeds/poll-feed.ts.
import type pg from "pg";
import { fetchDocument, type FetchedDocument } from "../fetch-document.ts";
import type { FeedValidators } from "../feed-status.ts";
import { pollFeed, type PollLog } from "../poll-feed.ts";
import { describeIngest, ingestMeteoDocument } from "./ingest.ts";

export interface MeteoPollConfig {
  enabled: boolean;
  warningsUrl: string | undefined;
  observationsUrl: string | undefined;
  apiKey: string | undefined;
}

/** The sources to poll now: a feed without a URL, or KNMI's without a key, is not polled. */
export function meteoSources(
  config: MeteoPollConfig,
): Array<{ feed: string; url: string; apiKey: string | undefined }> {
  if (!config.enabled) return [];
  const sources = [];
  if (config.warningsUrl && (config.apiKey || !config.warningsUrl.startsWith("https://api.dataplatform.knmi.nl/"))) {
    sources.push({ feed: "meteo-warnings", url: config.warningsUrl, apiKey: config.apiKey });
  }
  // The observations come from a converter of the operator's, not from KNMI: no key for it.
  if (config.observationsUrl)
    sources.push({ feed: "meteo-observations", url: config.observationsUrl, apiKey: undefined });
  return sources;
}

/**
 * The document behind a URL. A KNMI Open Data file listing ({"files": [{"filename"}]}) is
 * followed to the file's temporary download URL; anything else is the document itself.
 */
async function download(url: string, apiKey: string | undefined, validators: FeedValidators): Promise<FetchedDocument> {
  const headers: Record<string, string> = apiKey ? { authorization: apiKey } : {};
  const first = await fetchDocument(url, { headers, validators });
  // A JSON object is a file listing; the documents themselves are XML or a JSON array.
  if (!first.changed || first.body.toString("utf8", 0, 64).trimStart()[0] !== "{") return first;
  const listing = JSON.parse(first.body.toString("utf8")) as { files?: Array<{ filename?: string }> };
  const filename = listing.files?.[0]?.filename;
  if (!filename) throw new Error("The file listing names no file.");
  const fileUrl = new URL(url);
  fileUrl.pathname = `${fileUrl.pathname.replace(/\/+$/, "")}/${encodeURIComponent(filename)}/url`;
  fileUrl.search = "";
  const link = await fetchDocument(fileUrl.toString(), { headers });
  const temporaryUrl = link.changed
    ? (JSON.parse(link.body.toString("utf8")) as { temporaryDownloadUrl?: string }).temporaryDownloadUrl
    : undefined;
  if (!temporaryUrl) throw new Error(`No temporaryDownloadUrl for ${filename}.`);
  const file = await fetchDocument(temporaryUrl);
  return file.changed ? { ...file, validators: first.validators } : file;
}

export async function pollMeteo(db: pg.Pool | pg.ClientBase, config: MeteoPollConfig, log: PollLog): Promise<void> {
  for (const { feed, url, apiKey } of meteoSources(config)) {
    await pollFeed(
      db,
      {
        feed,
        download: (validators) => download(url, apiKey, validators),
        store: (body) => ingestMeteoDocument(db, body.toString("utf8"), url),
        describe: describeIngest,
        // New warning events are news every time.
        notable: (result) => !result.duplicate && result.kind === "warnings" && Number(result.stored.events) > 0,
      },
      log,
    );
  }
}
