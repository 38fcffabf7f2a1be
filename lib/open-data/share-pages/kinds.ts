// The four kinds of record that have a share page (docs/open-data.md#share-pages): where each one's
// pages live, which function reads it (migration 000128, app_private.share_*) and which data domain
// announces its changes (the data_changed notifications the response cache listens to). The paths
// are none of the web application's screens (web/src/routes.ts), which take them over in a browser.
import type { Domain } from "../../graphql/cache-rules.ts";

export type ShareKind = "incident" | "traffic" | "nlAlert" | "warning";

export interface ShareKindSpec {
  kind: ShareKind;
  /** The pages' path prefix: `/incidents/<id>`, its image `/incidents/<id>/map.png`. */
  prefix: string;
  /** The SQL that reads a record's page data as JSON, null when there is none: $1 the uuid (and $2 the language). */
  sql: string;
  /** Its words depend on the language (the P2000 plain words): $2 is given, and each language is kept apart. */
  byLanguage: boolean;
  /** The data domains whose change may change the page (notified as data_changed). */
  domains: readonly Domain[];
}

export const SHARE_KINDS: readonly ShareKindSpec[] = [
  {
    kind: "incident",
    prefix: "/incidents",
    sql: "select app_private.share_p2000_dossier($1, $2) as data",
    byLanguage: true,
    domains: ["p2000"],
  },
  {
    kind: "traffic",
    prefix: "/traffic",
    sql: "select app_private.share_traffic_incident($1) as data",
    byLanguage: false,
    // The safety region of its point comes from the boundaries (domain places).
    domains: ["traffic", "places"],
  },
  {
    kind: "nlAlert",
    prefix: "/nl-alerts",
    sql: "select app_private.share_nl_alert($1) as data",
    byLanguage: false,
    domains: ["alerts"],
  },
  {
    kind: "warning",
    prefix: "/warnings",
    sql: "select app_private.share_weather_warning($1) as data",
    byLanguage: false,
    domains: ["meteo"],
  },
];
