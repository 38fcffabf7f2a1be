// Every setting of the service, read once from the environment. The README's configuration table
// lists the same variables; keep the two in step. Settings come in groups, each the very object its
// consumer takes (config.feeds.meteo is what the meteo poller takes, config.http what the HTTP
// server does), and each variable is read into one place only.
import path from "node:path";
import type { DatabaseConfig } from "./db/database.ts";
import type { WebPushConfig } from "./db/secrets.ts";
import type { AircraftPollConfig } from "./feeds/aircraft/poll.ts";
import type { AlertFeedConfig } from "./feeds/alerts/poll.ts";
import type { MeteoPollConfig } from "./feeds/meteo/poll.ts";
import type { RailPollConfig } from "./feeds/rail/poll.ts";
import type { RssPollConfig } from "./feeds/rss/poll.ts";
import type { TrafficPollConfig } from "./feeds/traffic/poll.ts";
import type { RequestBudgets } from "./http/request-budgets.ts";
import { LOG_FORMATS, LOG_LEVELS, type LogConfig } from "./ops/log.ts";
import type { ArchiveConfig } from "./open-data/archive/publish.ts";

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

/** The HTTP server and what answers before GraphQL: CORS, request budgets, /metrics (service.ts). */
export interface HttpConfig {
  host: string;
  port: number;
  /** Origins whose pages may call the API from a browser (CORS, lib/http/cors.ts); "*" = any. */
  corsOrigins: "*" | string[];
  /** Requests a minute per API token and per client address (README: Limits). */
  requestBudgets: RequestBudgets;
  /** Answer GET /metrics to callers on other hosts too (by default loopback only; docs/operations.md). */
  metricsPublic: boolean;
}

/** The GraphQL API (graphile.config.ts's preset). */
export interface ApiConfig {
  graphiql: boolean;
  statementTimeout: string;
  /** Depth, aliases, directives, tokens and cost of one GraphQL document (README: Limits). */
  queryLimits: QueryLimits;
  /** Open subscriptions one API token may hold on one API instance (docs/live.md). */
  subscriptionsPerToken: number;
  /** Open subscriptions with the web-client credential from one client address on one API instance (docs/web.md). */
  subscriptionsPerWebClientAddress: number;
  /** A JSON file replacing data/ai-defaults.json (aiDefaults); checked at start. */
  aiDefaultsFile: string | undefined;
  /** The response cache of public reads (docs/api.md#response-cache); 0 bytes turns it off. */
  responseCache: { maxBytes: number; maxAgeMs: number };
}

/** The web application at / (web/, lib/web/web-routes.ts; docs/web.md). */
export interface WebConfig {
  /** A MapLibre style URL for a real base map; it overrides the tiles (mapTileUrl). */
  mapStyleUrl: string | undefined;
  /**
   * MAP_TILE_URL: a raster tile URL template ({z}/{x}/{y}, Web Mercator) drawn under the map when
   * the browser can reach it; by default PDOK's BRT-Achtergrondkaart. Undefined (set empty): the
   * offline map only (the shipped boundaries with place names).
   */
  mapTileUrl: string | undefined;
  /** MAP_TILE_ATTRIBUTION: what the tiles' licence asks to show (text, http(s) links kept); Kadaster's for PDOK. */
  mapTileAttribution: string | undefined;
  /**
   * WEB_REQUIRE_SIGN_IN: the page is for signed-in users only; its web-client credential then
   * serves the auth operations only, and people read with their own API token.
   */
  requireSignIn: boolean;
}

/** User accounts (lib/accounts/); their links start with delivery.publicUrl. */
export interface AccountsConfig {
  /** HS256 key of access tokens; the embedded default generates one into DATA_DIR (lib/db/secrets.ts). */
  jwtSecret: string | undefined;
  /** Origins a magic link may send tokens to (https), besides http://localhost and http://127.0.0.1. */
  magicLinkAllowedOrigins: string[];
}

/** graphile-worker (worker.ts). */
export interface WorkerConfig {
  concurrency: number;
  /** How often a worker process says which worker ids it runs (lib/db/worker-heartbeat.ts). */
  heartbeatMs: number;
  /** After how long unheard a worker's jobs are freed for the others. */
  lostAfterMs: number;
}

/** HTTP API of the SMS provider: POST JSON { from, to, text, reference } (see docs/monitors.md). */
export interface SmsConfig {
  providerUrl: string | undefined;
  providerToken: string | undefined;
  from: string;
}

/** Bot that writes to Telegram channels, and the Bot API base URL. */
export interface TelegramConfig {
  botToken: string | undefined;
  apiUrl: string;
}

/**
 * The service's Pushover application (https://pushover.net/api): every pushover channel sends
 * through its token, to the member's user key; the API base URL is a setting so tests can point it
 * at a local receiver.
 */
export interface PushoverConfig {
  appToken: string | undefined;
  apiUrl: string;
}

/** What goes out: account e-mail (tasks/emails__send.ts) and notifications (lib/monitors/notification-delivery.ts). */
export interface DeliveryConfig {
  /** Base URL of links in e-mails (verification, magic link, password reset) and notifications (respond). */
  publicUrl: string;
  /** SMTP server for outgoing mail; unset = mails stay in the outbox table and the log. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /**
   * WEBHOOK_ALLOW_PRIVATE_TARGETS: let webhook channels and RSS feeds target private, loopback and
   * link-local addresses (local development only). The monitor mutations and the RSS poller read it here too.
   */
  allowPrivateTargets: boolean;
  sms: SmsConfig;
  telegram: TelegramConfig;
  pushover: PushoverConfig;
  webPush: WebPushConfig;
}

/** Each feed's poller settings, as its poller (lib/feeds/<feed>/poll.ts) takes them. */
export interface FeedsConfig {
  /** Weather: polled every 5 minutes unless switched off (docs/meteo.md). */
  meteo: MeteoPollConfig;
  /** Traffic incidents and jams: polled every minute unless switched off (docs/traffic.md). */
  traffic: TrafficPollConfig;
  /** AMBER / missing-child alerts: polled every minute unless switched off (docs/alerts.md). */
  amber: AlertFeedConfig;
  /** NL-Alerts: polled every minute unless switched off (docs/alerts.md). */
  nlAlert: AlertFeedConfig;
  /** Railway disruptions for rail_disruptions monitors: polled every minute where a source is set (docs/traffic.md). */
  rail: RailPollConfig;
  /** Feeds rss monitors follow (docs/rss.md). */
  rss: RssPollConfig;
  /** The operator's ADS-B receiver's aircraft.json (docs/aircraft.md); unset url = not polled. */
  aircraft: AircraftPollConfig;
}

export interface Config {
  /** What this process runs: the API and the worker (all), or one of them (api, worker). */
  processRole: "all" | "api" | "worker";
  /** Fill a new embedded database with a few days of synthetic P2000 traffic. */
  demoData: boolean;
  database: DatabaseConfig;
  http: HttpConfig;
  api: ApiConfig;
  web: WebConfig;
  accounts: AccountsConfig;
  worker: WorkerConfig;
  delivery: DeliveryConfig;
  feeds: FeedsConfig;
  /** The open archive: the feeds' daily CSV and Parquet files at /archive (docs/open-data.md). */
  archive: ArchiveConfig;
  /** The whole process's log (lib/ops/log.ts): LOG_LEVEL and LOG_FORMAT. */
  log: LogConfig;
}

/** Part of a Config for tests and benchmarks: any group, or any setting within one, may be left out. */
export type ConfigOverrides<T = Config> = {
  [K in keyof T]?: T[K] extends readonly unknown[] | string | number | boolean | null | undefined
    ? T[K]
    : ConfigOverrides<T[K]>;
};

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * `config` with `overrides` laid over it, group by group: a setting given replaces the one in
 * `config` (undefined too), settings left out stay; lists are replaced, not merged.
 */
export function mergeConfig<T extends object>(config: T, overrides: ConfigOverrides<T>): T {
  return merged(config as Record<string, unknown>, overrides as Record<string, unknown>) as T;
}

function merged(config: Record<string, unknown>, overrides: Record<string, unknown>): Record<string, unknown> {
  const result = { ...config };
  for (const [key, value] of Object.entries(overrides)) {
    const current = result[key];
    result[key] = isPlainObject(value) && isPlainObject(current) ? merged(current, value) : value;
  }
  return result;
}

/** LOG_LEVEL (error, warning, info or debug; default info) and LOG_FORMAT (text or json; default text). */
function logConfig(): LogConfig {
  const level = text("LOG_LEVEL") ?? "info";
  if (!(LOG_LEVELS as readonly string[]).includes(level)) {
    throw new Error(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")} (got "${level}").`);
  }
  const format = text("LOG_FORMAT") ?? "text";
  if (!(LOG_FORMATS as readonly string[]).includes(format)) {
    throw new Error(`LOG_FORMAT must be one of ${LOG_FORMATS.join(", ")} (got "${format}").`);
  }
  return { level, format } as LogConfig;
}

function processRole(): Config["processRole"] {
  const raw = text("PROCESS_ROLE") ?? "all";
  if (raw !== "all" && raw !== "api" && raw !== "worker")
    throw new Error(`PROCESS_ROLE must be all, api or worker (got "${raw}").`);
  return raw;
}

/**
 * CORS_ORIGINS: "*" (the default: every call carries a bearer token and no cookie is set, so any
 * page may call) or a comma-separated list of origins, kept in the form browsers send them.
 */
function corsOrigins(): HttpConfig["corsOrigins"] {
  const raw = text("CORS_ORIGINS") ?? "*";
  if (raw.trim() === "*") return "*";
  return raw
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry) => {
      const url = parsedUrl(entry);
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

/** The URL, or undefined when the text is none (each setting says what it expects). */
function parsedUrl(raw: string): URL | undefined {
  try {
    return new URL(raw);
  } catch {
    return undefined;
  }
}

function text(name: string): string | undefined {
  const raw = process.env[name];
  return raw === undefined || raw === "" ? undefined : raw;
}

/** READ_REPLICA_URLS: PostgreSQL URLs separated by commas or white space. */
function readReplicaUrls(): string[] {
  return (text("READ_REPLICA_URLS") ?? "")
    .split(/[\s,]+/)
    .filter(Boolean)
    .map((raw, index, all) => {
      const url = parsedUrl(raw);
      if (!url || !["postgres:", "postgresql:"].includes(url.protocol) || !url.hostname) {
        // The value may hold a password: say which entry, not what it is.
        throw new Error(
          `READ_REPLICA_URLS must list postgres:// URLs with a host, separated by commas (entry ${index + 1} of ${all.length} is not one).`,
        );
      }
      return raw;
    });
}

/** MAP_STYLE_URL: an absolute http(s) URL (the page's CSP allows its origin), or unset. */
function mapStyleUrl(): string | undefined {
  const raw = text("MAP_STYLE_URL");
  if (raw === undefined) return undefined;
  const url = parsedUrl(raw);
  if (!url || (url.protocol !== "https:" && url.protocol !== "http:")) {
    throw new Error(`MAP_STYLE_URL must be an http(s) URL of a MapLibre style (got "${raw}").`);
  }
  return url.href;
}

/** PDOK's BRT-Achtergrondkaart (Kadaster, CC BY 4.0, no key): raster WMTS tiles in Web Mercator. */
export const PDOK_TILE_URL =
  "https://service.pdok.nl/brt/achtergrondkaart/wmts/v2_0/standaard/EPSG:3857/{z}/{x}/{y}.png";
/** The attribution the BRT-Achtergrondkaart's licence asks for. */
export const PDOK_TILE_ATTRIBUTION =
  'Kaartgegevens © <a href="https://www.kadaster.nl/">Kadaster</a> (<a href="https://creativecommons.org/licenses/by/4.0/deed.nl">CC BY 4.0</a>)';

/**
 * A tile URL template's host with Leaflet's `{s}` (sub-domain) as a word, so that the URL parser
 * can read it; the CSP names it with a wildcard (lib/web/web-routes.ts).
 */
export function tileTemplateUrl(template: string): URL | undefined {
  return parsedUrl(template.replace("{s}", "s"));
}

/**
 * MAP_TILE_URL and MAP_TILE_ATTRIBUTION: unset is PDOK's base map with Kadaster's attribution; an
 * empty MAP_TILE_URL turns tiles off (the offline map only); else an http(s) template with {z},
 * {x} and {y} (or {-y}), attributed as MAP_TILE_ATTRIBUTION says (Kadaster's for PDOK's host).
 */
function mapTiles(): { mapTileUrl: string | undefined; mapTileAttribution: string | undefined } {
  const raw = process.env.MAP_TILE_URL;
  if (raw === "") return { mapTileUrl: undefined, mapTileAttribution: undefined };
  const template = raw ?? PDOK_TILE_URL;
  const url = tileTemplateUrl(template);
  if (
    !url ||
    (url.protocol !== "https:" && url.protocol !== "http:") ||
    !template.includes("{z}") ||
    !template.includes("{x}") ||
    !/\{-?y\}/.test(template)
  ) {
    throw new Error(
      `MAP_TILE_URL must be an http(s) URL template of raster tiles with {z}, {x} and {y}, or empty for none (got "${template}").`,
    );
  }
  const attribution =
    text("MAP_TILE_ATTRIBUTION") ?? (url.hostname === "service.pdok.nl" ? PDOK_TILE_ATTRIBUTION : undefined);
  return { mapTileUrl: template, mapTileAttribution: attribution };
}

/**
 * VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY (both or neither), and VAPID_SUBJECT: by default the
 * public URL where it is https (push services want a contact they can reach), else MAIL_FROM's address.
 */
function webPush(publicUrl: string, mailFrom: string): WebPushConfig {
  const publicKey = text("VAPID_PUBLIC_KEY");
  const privateKey = text("VAPID_PRIVATE_KEY");
  if ((publicKey === undefined) !== (privateKey === undefined)) {
    throw new Error("VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY go together: set both or neither.");
  }
  const keyOfLength = (value: string, bytes: number) =>
    /^[A-Za-z0-9_-]+$/.test(value) && Buffer.from(value, "base64url").length === bytes;
  if (publicKey !== undefined && !(keyOfLength(publicKey, 65) && keyOfLength(privateKey!, 32))) {
    throw new Error(
      "VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY must be a P-256 key pair in base64url (65 and 32 bytes), as `npx web-push generate-vapid-keys` prints.",
    );
  }
  const address = /<([^<>\s]+@[^<>\s]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
  const subject = text("VAPID_SUBJECT") ?? (publicUrl.startsWith("https://") ? publicUrl : `mailto:${address}`);
  if (!/^(mailto:\S+@\S+|https:\/\/\S+)$/.test(subject)) {
    throw new Error(`VAPID_SUBJECT must be a mailto: address or an https: URL (got "${subject}").`);
  }
  return { publicKey, privateKey, subject };
}

/**
 * The settings that switch every polled feed off (the aircraft receiver unset): for a service
 * started by a test or a benchmark, which measures the service, not feeds this machine may not reach.
 */
export const FEEDS_OFF_ENVIRONMENT: Readonly<Record<string, string>> = {
  TRAFFIC_FEED_ENABLED: "false",
  AMBER_FEED_ENABLED: "false",
  NL_ALERT_FEED_ENABLED: "false",
  METEO_FEED_ENABLED: "false",
  RAIL_FEED_ENABLED: "false",
  AIRCRAFT_JSON_URL: "",
};

export function loadConfig(): Config {
  const port = integer("PORT", 5678, 0, 65535);
  const publicUrl = (text("PUBLIC_URL") ?? `http://localhost:${port}`).replace(/\/+$/, "");
  const mailFrom = text("MAIL_FROM") ?? "NL incidents <no-reply@localhost>";
  const jwtSecret = text("JWT_SECRET");
  const dataDir = path.resolve(text("DATA_DIR") ?? ".data");
  if (jwtSecret !== undefined && jwtSecret.length < 32) {
    throw new Error("JWT_SECRET must have at least 32 characters.");
  }
  return {
    processRole: processRole(),
    demoData: flag("DEMO_DATA", true),
    database: {
      url: text("DATABASE_URL"),
      authUrl: text("AUTH_DATABASE_URL"),
      rootUrl: text("ROOT_DATABASE_URL"),
      shadowUrl: text("SHADOW_DATABASE_URL"),
      dataDir,
      embeddedPgPort: integer("EMBEDDED_PG_PORT", 54329, 1, 65535),
      name: text("DATABASE_NAME") ?? "incidents",
      readReplicas: {
        urls: readReplicaUrls(),
        maxLagSeconds: integer("READ_REPLICA_MAX_LAG_SECONDS", 5, 1, 3600),
      },
    },
    http: {
      host: text("HOST") ?? "127.0.0.1",
      port,
      corsOrigins: corsOrigins(),
      requestBudgets: {
        perToken: integer("RATE_LIMIT_PER_TOKEN", 600, 1, 1_000_000_000),
        perAddress: integer("RATE_LIMIT_PER_ADDRESS", 1200, 1, 1_000_000_000),
        trustProxy: flag("TRUST_PROXY", false),
      },
      metricsPublic: flag("METRICS_PUBLIC", false),
    },
    api: {
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
      subscriptionsPerToken: integer("SUBSCRIPTIONS_PER_TOKEN", 20, 1, 100_000),
      subscriptionsPerWebClientAddress: integer("WEB_CLIENT_SUBSCRIPTIONS_PER_ADDRESS", 60, 1, 100_000),
      aiDefaultsFile: text("AI_DEFAULTS_FILE"),
      responseCache: {
        maxBytes: integer("RESPONSE_CACHE_MB", 64, 0, 65_536) * 1024 * 1024,
        maxAgeMs: integer("RESPONSE_CACHE_MAX_AGE_SECONDS", 15, 1, 3600) * 1000,
      },
    },
    web: {
      mapStyleUrl: mapStyleUrl(),
      ...mapTiles(),
      requireSignIn: flag("WEB_REQUIRE_SIGN_IN", false),
    },
    accounts: {
      jwtSecret,
      magicLinkAllowedOrigins: (text("MAGIC_LINK_ALLOWED_ORIGINS") ?? "")
        .split(",")
        .map((o) => o.trim())
        .filter(Boolean),
    },
    worker: {
      concurrency: integer("WORKER_CONCURRENCY", 8, 1, 64),
      heartbeatMs: integer("WORKER_HEARTBEAT_SECONDS", 5, 1, 60) * 1000,
      lostAfterMs: integer("WORKER_LOST_AFTER_SECONDS", 60, 3, 3600) * 1000,
    },
    delivery: {
      publicUrl,
      smtpUrl: text("SMTP_URL"),
      mailFrom,
      allowPrivateTargets: flag("WEBHOOK_ALLOW_PRIVATE_TARGETS", false),
      sms: {
        providerUrl: text("SMS_PROVIDER_URL"),
        providerToken: text("SMS_PROVIDER_TOKEN"),
        from: text("SMS_FROM") ?? "NLIncidents",
      },
      telegram: {
        botToken: text("TELEGRAM_BOT_TOKEN"),
        apiUrl: (text("TELEGRAM_API_URL") ?? "https://api.telegram.org").replace(/\/+$/, ""),
      },
      pushover: {
        appToken: text("PUSHOVER_APP_TOKEN"),
        apiUrl: (text("PUSHOVER_API_URL") ?? "https://api.pushover.net").replace(/\/+$/, ""),
      },
      webPush: webPush(publicUrl, mailFrom),
    },
    feeds: {
      meteo: {
        enabled: flag("METEO_FEED_ENABLED", true),
        warningsUrl: text("METEO_WARNINGS_URL") ?? KNMI_WARNINGS_LISTING_URL,
        observationsUrl: text("METEO_OBSERVATIONS_URL"),
        apiKey: text("METEO_API_KEY"),
      },
      traffic: {
        enabled: flag("TRAFFIC_FEED_ENABLED", true),
        incidentsUrl: text("TRAFFIC_INCIDENTS_URL") ?? "https://opendata.ndw.nu/incidents.xml.gz",
        jamsUrl: text("TRAFFIC_JAMS_URL") ?? "https://opendata.ndw.nu/actueel_beeld.xml.gz",
      },
      amber: {
        enabled: flag("AMBER_FEED_ENABLED", true),
        url: text("AMBER_ALERTS_URL") ?? "https://services.burgernet.nl/landactiehost/api/v1/alerts",
      },
      nlAlert: {
        enabled: flag("NL_ALERT_FEED_ENABLED", true),
        url: text("NL_ALERTS_URL") ?? "https://api.public-warning.app/api/v1/providers/nl-alert/alerts",
      },
      rail: {
        enabled: flag("RAIL_FEED_ENABLED", true),
        url: text("RAIL_DISRUPTIONS_URL"),
        apiKey: text("RAIL_API_KEY"),
      },
      rss: {
        intervalSeconds: integer("RSS_POLL_INTERVAL", 300, 60, 86_400),
      },
      aircraft: {
        url: text("AIRCRAFT_JSON_URL"),
        intervalSeconds: integer("AIRCRAFT_POLL_SECONDS", 5, 1, 60),
      },
    },
    archive: {
      enabled: flag("ARCHIVE_ENABLED", true),
      dir: path.resolve(text("ARCHIVE_DIR") ?? path.join(dataDir, "archive")),
      delayHours: integer("ARCHIVE_DELAY_HOURS", 24, 0, 24 * 30),
      keepDays: integer("ARCHIVE_KEEP_DAYS", 366, 1, 36_500),
      daysPerRun: integer("ARCHIVE_DAYS_PER_RUN", 14, 1, 366),
    },
    log: logConfig(),
  };
}
