// One round of the railway-disruption poller (task rail__poll, every minute) where a source is
// configured (the railways' travel-information API needs a subscription key, so there is no
// default): the whole list, stored by one SQL function in one transaction; a round of
// lib/feeds/poll-feed.ts.
import type pg from "pg";
import { fetchDocument } from "../fetch-document.ts";
import { feedUrl, pollFeed, type PollLog } from "../poll-feed.ts";
import { parseRailDisruptions, type RailDisruptionsDocument } from "./disruptions-parser.ts";

export interface RailPollConfig {
  enabled: boolean;
  url: string | undefined;
  /** Sent as Ocp-Apim-Subscription-Key, the API portal's key header. */
  apiKey: string | undefined;
}

interface RailStored {
  items: number;
  inserted: number;
  updated: number;
  ended: number;
}

export async function storeRailDisruptions(
  db: pg.Pool | pg.ClientBase,
  document: RailDisruptionsDocument,
  source: string,
): Promise<RailStored> {
  const rows = document.disruptions.map((d) => ({
    kind: d.kind,
    source_id: d.id,
    title: d.title,
    description: d.description,
    active: d.active,
    start_at: d.startAt,
    end_at: d.endAt,
    station_codes: d.stationCodes,
  }));
  const {
    rows: [{ result }],
  } = await db.query<{ result: RailStored }>("select app_private.ingest_rail_disruptions($1::jsonb, $2) as result", [
    JSON.stringify(rows),
    source,
  ]);
  return result;
}

export async function pollRailDisruptions(
  db: pg.Pool | pg.ClientBase,
  config: RailPollConfig,
  log: PollLog,
): Promise<void> {
  const url = feedUrl(config);
  if (!url) return;
  const headers: Record<string, string> = config.apiKey ? { "ocp-apim-subscription-key": config.apiKey } : {};
  await pollFeed(
    db,
    {
      feed: "rail-disruptions",
      download: (validators) => fetchDocument(url, { headers, validators }),
      async store(body) {
        const document = parseRailDisruptions(body.toString("utf8"));
        return { document, stored: await storeRailDisruptions(db, document, url) };
      },
      describe: ({ document, stored }) =>
        `${stored.items} item(s) read${document.skipped ? `, ${document.skipped} bad item(s) skipped` : ""}; ` +
        `${stored.inserted} new, ${stored.updated} updated, ${stored.ended} no longer listed.`,
      notable: ({ stored }) => stored.inserted + stored.ended > 0,
    },
    log,
  );
}
