// Demo alerts for a new installation (DEMO_DATA): one AMBER alert that ran three days ago and
// ended (so only what and when remain), and two NL-Alerts, one running in Rotterdam-Rijnmond and
// one over in Groningen, stored through the real ingestion path with source "demo". Every text
// says "DEMO" so nobody mistakes it for a real alert.
import type pg from "pg";
import { parseAmberAlerts } from "./amber-parser.ts";
import { storeAmberAlerts, storeNlAlerts } from "./ingest.ts";
import { parseNlAlerts } from "./nl-alert-parser.ts";
import { amberAlertsJson, nlAlertsJson, squareAround } from "./sample-documents.ts";

const HOUR = 3_600_000;

export async function loadAlertsDemo(db: pg.Pool | pg.ClientBase, now = new Date()): Promise<void> {
  const amber = {
    alertId: "DEMO-AMBER-1",
    level: 10 as const,
    sent: new Date(now.getTime() - 72 * HOUR),
    title: "DEMO: vermist kind",
    descriptionHtml: "<p>DEMO: synthetic alert, not real.</p>",
  };
  for (const json of [
    amberAlertsJson([{ ...amber, type: "Alert" }]),
    amberAlertsJson([{ ...amber, type: "Cancel" }]),
  ]) {
    // Not the feed's whole list: real alerts the poller stored stay as they are.
    await storeAmberAlerts(db, parseAmberAlerts(JSON.parse(json)), "demo", { complete: false });
  }
  const nl = parseNlAlerts(
    JSON.parse(
      nlAlertsJson([
        {
          id: "demo0000001",
          startAt: new Date(now.getTime() - 1 * HOUR),
          messageNl:
            "NL-Alert DEMO. Brand in Rotterdam-Europoort. Sluit ramen en deuren. Dit is een synthetisch voorbeeld.",
          messageEn:
            "NL-Alert DEMO. Fire in Rotterdam-Europoort. Close windows and doors. This is a synthetic example.",
          areas: [squareAround(51.95, 4.1, 0.03)],
        },
        {
          id: "demo0000002",
          startAt: new Date(now.getTime() - 30 * HOUR),
          stopAt: new Date(now.getTime() - 26 * HOUR),
          messageNl:
            "NL-Alert DEMO. Storing drinkwater in Groningen. Kook water voor gebruik. Dit is een synthetisch voorbeeld.",
          areas: [squareAround(53.22, 6.57, 0.05)],
        },
      ]),
    ),
  );
  await storeNlAlerts(db, nl, "demo");
}
