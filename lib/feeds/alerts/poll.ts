// The alert pollers (tasks alerts__poll_amber and alerts__poll_nl, every minute), each a round of
// lib/feeds/poll-feed.ts. The AMBER list is complete in one document; the NL-Alert list is paged
// newest first, so older pages are read only while a page holds nothing but new alerts.
import type pg from "pg";
import { fetchDocument } from "../fetch-document.ts";
import { feedUrl, pollFeed, type PollLog } from "../poll-feed.ts";
import { parseAmberAlerts } from "./amber-parser.ts";
import { describeAmber, describeNlAlerts, parseJsonDocument, storeAmberAlerts, storeNlAlerts } from "./ingest.ts";
import { parseNlAlerts, type NlAlertsDocument } from "./nl-alert-parser.ts";

export interface AlertFeedConfig {
  enabled: boolean;
  url: string | undefined;
}

/** A first run reads this many pages of NL-Alerts at most (the source's history is long). */
export const NL_ALERT_MAX_PAGES = 10;

export async function pollAmberAlerts(
  db: pg.Pool | pg.ClientBase,
  config: AlertFeedConfig,
  log: PollLog,
): Promise<void> {
  const url = feedUrl(config);
  if (!url) return;
  await pollFeed(
    db,
    {
      feed: "amber-alerts",
      download: (validators) => fetchDocument(url, { validators }),
      async store(body) {
        const document = parseAmberAlerts(parseJsonDocument(body));
        return {
          document,
          stored: await storeAmberAlerts(db, document, url, { complete: true }, (line) => log.error(line)),
        };
      },
      describe: ({ document, stored }) => describeAmber(document, stored),
      // An alert that starts or ends is news every time.
      notable: ({ stored }) => stored.started + stored.ended > 0,
    },
    log,
  );
}

async function storeNlAlertPages(db: pg.Pool | pg.ClientBase, url: string, firstPage: Buffer) {
  const total = { alerts: 0, inserted: 0, updated: 0 };
  const seen: NlAlertsDocument = { alerts: [], skipped: 0, problems: [] };
  let page = parseNlAlerts(parseJsonDocument(firstPage));
  for (let pages = 1; ; pages++) {
    const stored = await storeNlAlerts(db, page, url);
    total.alerts += stored.alerts;
    total.inserted += stored.inserted;
    total.updated += stored.updated;
    seen.skipped += page.skipped;
    seen.problems.push(...page.problems);
    const last = page.alerts.at(-1);
    if (!last || stored.inserted < page.alerts.length || pages >= NL_ALERT_MAX_PAGES) break;
    const next = new URL(url);
    next.searchParams.set("after", last.alertId);
    const fetched = await fetchDocument(next.toString());
    if (!fetched.changed) break;
    page = parseNlAlerts(parseJsonDocument(fetched.body));
  }
  return { document: seen, stored: total };
}

export async function pollNlAlerts(db: pg.Pool | pg.ClientBase, config: AlertFeedConfig, log: PollLog): Promise<void> {
  const url = feedUrl(config);
  if (!url) return;
  await pollFeed(
    db,
    {
      feed: "nl-alerts",
      download: (validators) => fetchDocument(url, { validators }),
      store: (body) => storeNlAlertPages(db, url, body),
      describe: ({ document, stored }) => describeNlAlerts(document, stored),
      // A new alert, or one withdrawn or changed, is news every time.
      notable: ({ stored }) => stored.inserted + stored.updated > 0,
    },
    log,
  );
}
