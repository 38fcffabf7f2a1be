// The feeds the open archive publishes (docs/open-data.md, docs/archive-columns.md): each a view in
// app_private (migration 000126) whose columns are the files' columns, and whose first column is
// the moment that places a row in a Dutch calendar day. A feed's name is its files' name.

export interface ArchiveFeed {
  /** The files' name: <name>.csv and <name>.parquet. */
  name: string;
  /** What the files hold, for the index. */
  title: string;
  /** The view the rows come from (app_private.archive_*). */
  view: string;
  /** The view's column that places a row in a day; rows come in its order, then by id. */
  dayColumn: string;
}

export const ARCHIVE_FEEDS: readonly ArchiveFeed[] = [
  {
    name: "p2000-messages",
    title: "P2000 pages with their enrichment and plain words",
    view: "app_private.archive_p2000_messages",
    dayColumn: "sent",
  },
  {
    name: "p2000-dossiers",
    title: "P2000 incidents (the pages about one incident, grouped), by their first page",
    view: "app_private.archive_p2000_dossiers",
    dayColumn: "first_sent",
  },
  {
    name: "traffic-incidents",
    title: "Traffic incidents (NDW): accidents and broken-down or abandoned vehicles",
    view: "app_private.archive_traffic_incidents",
    dayColumn: "began_at",
  },
  {
    name: "weather-warnings",
    title: "KNMI weather warnings: each change of a province's level",
    view: "app_private.archive_weather_warnings",
    dayColumn: "issued_at",
  },
  {
    name: "nl-alerts",
    title: "NL-Alerts",
    view: "app_private.archive_nl_alerts",
    dayColumn: "start_at",
  },
  {
    name: "amber-alerts",
    title: "AMBER and missing-child alerts (when, level, provinces; nothing personal)",
    view: "app_private.archive_amber_alerts",
    dayColumn: "started_at",
  },
  {
    name: "helicopter-flights",
    title: "Trauma and police helicopter flights",
    view: "app_private.archive_helicopter_flights",
    dayColumn: "first_seen_at",
  },
];
