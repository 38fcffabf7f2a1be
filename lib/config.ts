// Every setting of the service, read once from the environment. The README's configuration table
// lists the same variables; keep the two in step.
import path from "node:path";
import type { RequestBudgets } from "./http/request-budgets.ts";

/** KNMI Data Platform: the newest file of the 48-hour province warnings (needs METEO_API_KEY). */
export const KNMI_WARNINGS_LISTING_URL =
  "https://api.dataplatform.knmi.nl/open-data/v1/datasets/waarschuwingen_nederland_48h/versions/1.0/files?maxKeys=1&orderBy=created&sorting=desc";

/** Limits on one GraphQL document (plugins/query-limits.ts). */
export interface QueryLimits {
  maxDepth: number;
  maxAliases: number;
  maxDirectives: number;
  maxTokens: number;
  maxCost: number;
  /** Remove "Did you mean …?" from validation errors (on in production). */
  blockFieldSuggestions: boolean;
}

export interface Config {
  /** Owner connection (migrations, worker, CLIs); unset = the embedded PostgreSQL under dataDir. */
  databaseUrl: string | undefined;
  /** Login of the GraphQL server (the authenticator role); unset = databaseUrl. */
  authDatabaseUrl: string | undefined;
  /** Superuser connection used to create the roles and the database when they are missing. */
  rootDatabaseUrl: string | undefined;
  /** Shadow database for `npm run db -- commit` (graphile-migrate). */
  shadowDatabaseUrl: string | undefined;
  dataDir: string;
  embeddedPgPort: number;
  databaseName: string;
  host: string;
  port: number;
  graphiql: boolean;
  statementTimeout: string;
  /** Depth, aliases, directives, tokens and cost of one GraphQL document (README: Limits). */
  queryLimits: QueryLimits;
  /** Requests a minute per API token and per client address (README: Limits). */
  requestBudgets: RequestBudgets;
  /** Open subscriptions one API token may hold on one API instance (docs/live.md). */
  subscriptionsPerToken: number;
  /** What this process runs: the API and the worker (all), or one of them (api, worker). */
  processRole: "all" | "api" | "worker";
  workerConcurrency: number;
  /** HS256 key of access tokens; the embedded default generates one into DATA_DIR. */
  jwtSecret: string | undefined;
  /** Base URL of links in e-mails (verification, magic link, password reset). */
  publicUrl: string;
  /** SMTP server for outgoing mail; unset = mails stay in the outbox table and the log. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Origins a magic link may send tokens to (https), besides http://localhost and http://127.0.0.1. */
  magicLinkAllowedOrigins: string[];
  /** Let webhook channels target private, loopback and link-local addresses (local development only). */
  webhookAllowPrivateTargets: boolean;
  /** HTTP API of the SMS provider: POST JSON { from, to, text, reference } (see docs/monitors.md). */
  smsProviderUrl: string | undefined;
  smsProviderToken: string | undefined;
  smsFrom: string;
  /** Bot that writes to Telegram channels, and the Bot API base URL. */
  telegramBotToken: string | undefined;
  telegramApiUrl: string;
  /** Weather feed: polled every 5 minutes unless switched off (docs/meteo.md). */
  meteoFeedEnabled: boolean;
  /** Warnings XML, or a KNMI Open Data file listing; the default is KNMI's, which needs meteoApiKey. */
  meteoWarningsUrl: string | undefined;
  /** Observations as normalised JSON rows; no public source serves that, so unset by default. */
  meteoObservationsUrl: string | undefined;
  /** Sent as the Authorization header to the weather sources (KNMI Data Platform key). */
  meteoApiKey: string | undefined;
  /** Traffic incidents feed: polled every minute unless switched off (docs/traffic.md). */
  trafficFeedEnabled: boolean;
  /** DATEX II situation publication of incidents (gzipped or plain). */
  trafficIncidentsUrl: string | undefined;
  /** DATEX II publication whose AbnormalTraffic records are the jams of matrix monitors. */
  trafficJamsUrl: string | undefined;
  /** AMBER / missing-child alerts: polled every minute unless switched off (docs/alerts.md). */
  amberFeedEnabled: boolean;
  amberAlertsUrl: string | undefined;
  /** NL-Alerts: polled every minute unless switched off (docs/alerts.md). */
  nlAlertFeedEnabled: boolean;
  nlAlertsUrl: string | undefined;
  /** Railway disruptions for rail_disruptions monitors: polled every minute where a source is set (docs/traffic.md). */
  railFeedEnabled: boolean;
  railDisruptionsUrl: string | undefined;
  railApiKey: string | undefined;
  /** The operator's ADS-B receiver's aircraft.json (docs/aircraft.md); unset = not polled. */
  aircraftJsonUrl: string | undefined;
  aircraftPollSeconds: number;
  /** Seconds between two fetches of a feed rss monitors follow (docs/rss.md). */
  rssPollInterval: number;
  /** A JSON file replacing data/ai-defaults.json (aiDefaults); checked at start. */
  aiDefaultsFile: string | undefined;
  /** Fill a new embedded database with a few days of synthetic P2000 traffic. */
  demoData: boolean;
  /** Least severe log level printed by the worker: error, warning, info or debug. */
  logLevel: LogLevel;
  /** Answer GET /metrics to callers on other hosts too (by default loopback only; docs/operations.md). */
  metricsPublic: boolean;
  /** Origins whose pages may call the API from a browser (CORS, lib/http/cors.ts); "*" = any. */
  corsOrigins: "*" | string[];
}

export const LOG_LEVELS = ["error", "warning", "info", "debug"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

function logLevel(): LogLevel {
  const raw = text("LOG_LEVEL") ?? "info";
  if (!(LOG_LEVELS as readonly string[]).includes(raw)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got "${raw}").`);
  }
  return raw as LogLevel;
}

function processRole(): Config["processRole"] {
  const raw = text("PROCESS_ROLE") ?? "all";
  if (raw !== "all" && raw !== "api" && raw !== "worker") throw new Error(`PROCESS_ROLE must be all, api or worker (got "${raw}").`);
  return raw;
}

/**
 * CORS_ORIGINS: "*" (the default: every call carries a bearer token and no cookie is set, so any
 * page may call) or a comma-separated list of origins, kept in the form browsers send them.
 */
function corsOrigins(): Config["corsOrigins"] {
  const raw = text("CORS_ORIGINS") ?? "*";
  if (raw.trim() === "*") return "*";
  return raw.split(",").map((entry) => entry.trim()).filter(Boolean).map((entry) => {
    let url: URL | undefined;
    try {
      url = new URL(entry);
    } catch {
      // reported below
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.pathname !== "/" || url.search || url.hash || url.username) {
      const example = "https://app.example.org";
      throw new Error(`CORS_ORIGINS must be * or comma-separated origins such as ${example} (got "${entry}").`);
    }
    return url.origin;
  });
}

function integer(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new Error(`${name} must be a whole number from ${min} to ${max} (got "${raw}").`);
  }
  return value;
}

function flag(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  if (/^(1|true|yes|on)$/i.test(raw)) return true;
  if (/^(0|false|no|off)$/i.test(raw)) return false;
  throw new Error(`${name} must be true or false (got "${raw}").`);
}

function text(name: string): string | undefined {
  const raw = process.env[name];
  return raw === undefined || raw === "" ? undefined : raw;
}

export function loadConfig(): Config {
  const port = integer("PORT", 5678, 0, 65535);
  const jwtSecret = text("JWT_SECRET");
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new Error("JWT_SECRET must have at least 32 characters.");
  }
  return {
    databaseUrl: text("DATABASE_URL"),
    authDatabaseUrl: text("AUTH_DATABASE_URL"),
    rootDatabaseUrl: text("ROOT_DATABASE_URL"),
    shadowDatabaseUrl: text("SHADOW_DATABASE_URL"),
    dataDir: path.resolve(text("DATA_DIR") ?? ".data"),
    embeddedPgPort: integer("EMBEDDED_PG_PORT", 54329, 1, 65535),
    databaseName: text("DATABASE_NAME") ?? "incidents",
    host: text("HOST") ?? "127.0.0.1",
    port,
    graphiql: flag("GRAPHIQL", true),
    statementTimeout: text("STATEMENT_TIMEOUT") ?? "15s",
    queryLimits: {
      maxDepth: integer("GRAPHQL_MAX_DEPTH", 7, 2, 100),
      maxAliases: integer("GRAPHQL_MAX_ALIASES", 15, 0, 1000),
      maxDirectives: integer("GRAPHQL_MAX_DIRECTIVES", 50, 0, 1000),
      maxTokens: integer("GRAPHQL_MAX_TOKENS", 2000, 100, 100_000),
      maxCost: integer("GRAPHQL_MAX_COST", 5000, 100, 1_000_000),
      blockFieldSuggestions: flag("GRAPHQL_BLOCK_FIELD_SUGGESTIONS", process.env.GRAPHILE_ENV === "production"),
    },
    requestBudgets: {
      perToken: integer("RATE_LIMIT_PER_TOKEN", 600, 1, 1_000_000_000),
      perAddress: integer("RATE_LIMIT_PER_ADDRESS", 1200, 1, 1_000_000_000),
      trustProxy: flag("TRUST_PROXY", false),
    },
    subscriptionsPerToken: integer("SUBSCRIPTIONS_PER_TOKEN", 20, 1, 100_000),
    workerConcurrency: integer("WORKER_CONCURRENCY", 8, 1, 64),
    processRole: processRole(),
    logLevel: logLevel(),
    metricsPublic: flag("METRICS_PUBLIC", false),
    corsOrigins: corsOrigins(),
    demoData: flag("DEMO_DATA", true),
    trafficFeedEnabled: flag("TRAFFIC_FEED_ENABLED", true),
    trafficIncidentsUrl: text("TRAFFIC_INCIDENTS_URL") ?? "https://opendata.ndw.nu/incidents.xml.gz",
    trafficJamsUrl: text("TRAFFIC_JAMS_URL") ?? "https://opendata.ndw.nu/actueel_beeld.xml.gz",
    amberFeedEnabled: flag("AMBER_FEED_ENABLED", true),
    amberAlertsUrl: text("AMBER_ALERTS_URL") ?? "https://services.burgernet.nl/landactiehost/api/v1/alerts",
    nlAlertFeedEnabled: flag("NL_ALERT_FEED_ENABLED", true),
    nlAlertsUrl: text("NL_ALERTS_URL") ?? "https://api.public-warning.app/api/v1/providers/nl-alert/alerts",
    aiDefaultsFile: text("AI_DEFAULTS_FILE"),
    rssPollInterval: integer("RSS_POLL_INTERVAL", 300, 60, 86_400),
    aircraftJsonUrl: text("AIRCRAFT_JSON_URL"),
    aircraftPollSeconds: integer("AIRCRAFT_POLL_SECONDS", 5, 1, 60),
    railFeedEnabled: flag("RAIL_FEED_ENABLED", true),
    railDisruptionsUrl: text("RAIL_DISRUPTIONS_URL"),
    railApiKey: text("RAIL_API_KEY"),
    meteoFeedEnabled: flag("METEO_FEED_ENABLED", true),
    meteoWarningsUrl: text("METEO_WARNINGS_URL") ?? KNMI_WARNINGS_LISTING_URL,
    meteoObservationsUrl: text("METEO_OBSERVATIONS_URL"),
    meteoApiKey: text("METEO_API_KEY"),
    jwtSecret,
    publicUrl: (text("PUBLIC_URL") ?? `http://localhost:${port}`).replace(/\/+$/, ""),
    smtpUrl: text("SMTP_URL"),
    mailFrom: text("MAIL_FROM") ?? "NL incidents <no-reply@localhost>",
    webhookAllowPrivateTargets: flag("WEBHOOK_ALLOW_PRIVATE_TARGETS", false),
    smsProviderUrl: text("SMS_PROVIDER_URL"),
    smsProviderToken: text("SMS_PROVIDER_TOKEN"),
    smsFrom: text("SMS_FROM") ?? "NLIncidents",
    telegramBotToken: text("TELEGRAM_BOT_TOKEN"),
    telegramApiUrl: (text("TELEGRAM_API_URL") ?? "https://api.telegram.org").replace(/\/+$/, ""),
    magicLinkAllowedOrigins: (text("MAGIC_LINK_ALLOWED_ORIGINS") ?? "").split(",").map((o) => o.trim()).filter(Boolean),
  };
}
