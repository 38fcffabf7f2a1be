// Fuzz: about 9,000 generated hostile requests over every operation of schema.graphql: every hostile
// value of its type in every argument and input field (nested objects and list elements included),
// plus random combinations, credentials and encodings (variables or inline literals) from a seeded
// PRNG (FUZZ_SEED) so a run can be repeated; 8 at a time, about 30 s.
// For every answer: HTTP status below 500, a JSON body, no SQL text or stack in any string of it,
// every error with a documented extensions.code and never INTERNAL_SERVER_ERROR. Mutations are sent
// in phase 1 only with values that must be refused (NUL, lone surrogates, over-long strings, wrong
// types, impossible dates, missing required values, private webhook targets): each must answer with
// an error, and the database fingerprint taken before phase 1 must be unchanged after it. Phase 2
// then sends values that a mutation may accept (SQL-ish text, unicode, boundary numbers, long lists)
// and checks the answers only. Failures are collected and reported grouped by operation and
// argument; FUZZ_REPORT=<file> also writes every failure as JSON.
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import {
  buildSchema,
  getNamedType,
  getNullableType,
  GraphQLString,
  isEnumType,
  isInputObjectType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
} from "graphql";
import fs from "node:fs";
import path from "node:path";
import { ROOT_DIR } from "../../lib/paths.ts";
import { writeLogTo } from "../../lib/ops/log.ts";
import { useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";

const ctx = useTestService(() => ({ delivery: { allowPrivateTargets: false } }));
const schema = buildSchema(fs.readFileSync(path.join(ROOT_DIR, "schema.graphql"), "utf8"));

const SEED = Number(process.env.FUZZ_SEED ?? 20251123);
const CONCURRENCY = 8;
/** Requests per operation and phase with two or three slots hostile at once (chosen at random). */
const COMBINED_PER_OPERATION = 12;
/** Random single-slot requests per operation and phase sent with another credential or none. */
const OTHER_CREDENTIALS_PER_OPERATION = 6;
const INLINE_SHARE = 0.2;
const NIL_UUID = "00000000-0000-0000-0000-000000000000";

/**
 * The codes of the error table in docs/api.md (its first column), read from the page so that the
 * test and the documentation cannot part; INTERNAL_SERVER_ERROR is documented but never right
 * for input.
 */
const DOCUMENTED_CODES = ((): Set<string> => {
  const page = fs.readFileSync(path.join(ROOT_DIR, "docs", "api.md"), "utf8");
  const errors = page.slice(page.indexOf("\n## Errors\n"), page.indexOf("\n## ", page.indexOf("\n## Errors\n") + 1));
  const firstCells = errors
    .split("\n")
    .filter((line) => line.startsWith("| `"))
    .map((line) => line.split("|")[1]);
  const codes = new Set(firstCells.flatMap((cell) => [...cell.matchAll(/`([A-Z_]+)`/g)].map((m) => m[1])));
  codes.delete("INTERNAL_SERVER_ERROR");
  return codes;
})();

/** What an answer must never contain (checked on every string of the body, keys included). */
const LEAK_PATTERNS: RegExp[] = [
  /\bselect\b.*\bfrom\b/i,
  /relation "/,
  /syntax error at or near/,
  /\bat .*\.(ts|js):\d+/,
  /node_modules/,
  /pg_catalog/,
  /SQLSTATE/,
  /app_(public|private|hidden)\./,
];

/**
 * Left out of the fingerprint because ordinary requests change them:
 * - app_private.rate_limit_counters: request budgets and per-address limits count every request;
 * - app_private.request_identities: who a request became (login/register), per request;
 * - app_hidden.analytics_cache: hubAnalytics* answers cached on read;
 * - app_private.login_failures: failed logins per address, counted by design though the request fails
 *   (docs/accounts.md);
 * - app_public.api_tokens.last_used_at and .changed (the trigger sets changed on that update);
 * - app_public.sessions.last_activity_at.
 */
const VOLATILE_TABLES = new Set([
  "app_private.rate_limit_counters",
  "app_private.request_identities",
  "app_hidden.analytics_cache",
  "app_private.login_failures",
  // The workers' liveness (lib/db/worker-heartbeat.ts), written every few seconds whatever the requests.
  "app_private.worker_heartbeats",
]);
const VOLATILE_COLUMNS: Record<string, string[]> = {
  "app_public.api_tokens": ["last_used_at", "changed"],
  "app_public.sessions": ["last_activity_at"],
};

// ---------------------------------------------------------------------------------------------
// Seeded randomness

function mulberry32(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const random = mulberry32(SEED);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
function shuffle<T>(items: T[]): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j], items[i]];
  }
  return items;
}

// ---------------------------------------------------------------------------------------------
// Hostile values by type

interface Hostile {
  label: string;
  value: unknown;
  /** A value no operation may accept: a mutation given it must answer with an error. */
  mustRefuse: boolean;
  /** Sibling fields set with it (a webhook URL is only a webhook target on a webhook channel). */
  siblings?: Record<string, unknown>;
}

const must = (label: string, value: unknown): Hostile => ({ label, value, mustRefuse: true });
const may = (label: string, value: unknown): Hostile => ({ label, value, mustRefuse: false });

const STRINGS: Hostile[] = [
  must("NUL", "a\u0000b"),
  must("NUL-only", "\u0000"),
  must("lone-surrogate", "\ud800"),
  must("lone-low-surrogate", "x\udfffy"),
  must("str60k", "a".repeat(60_000)),
  must("str100k", "b".repeat(100_000)),
  must("str20001", "c".repeat(20_001)),
  must("type-int", 123),
  must("type-object", { a: 1 }),
  must("type-nested-list", [["x"]]),
  may("sql-quote", "' or 1=1 --"),
  may("sql-dollar", "$$"),
  may("backslash", "\\"),
  may("sql-drop", "'); drop table app_public.users; --"),
  may("like-wildcards", "%_%"),
  may("unicode", "Zoë 😀 ﷽ 中文 e\u0301"),
  may("empty", ""),
  may("blank", "   "),
  may("rtl-override", "\u202e"),
  may("bom", "\ufeff"),
  may("text-null", "null"),
  may("str201", "x".repeat(201)),
  may("str19999", "d".repeat(19_999)),
  may("control-chars", "\u0001\u001f\u007f"),
  may("crlf", "a\r\nb"),
  may("html", "<script>alert(1)</script>"),
  may("format", "%s%n%x"),
  may("path", "../../etc/passwd"),
  may("regex", "(*[\\"),
  may("tsquery", "a & | !(:* <->"),
  may("digits-overflow", "99999999999999999999"),
  may("noncharacters", "\ufffe\uffff"),
  may("surrogate-pair", "\ud83d\ude00"),
];
const UUID_STRINGS: Hostile[] = [
  may("garbage-uuid", "garbage"),
  may("nil-uuid", NIL_UUID),
  may("bad-uuid", "00000000-0000-0000-0000-00000000000g"),
];
const DATE_STRINGS: Hostile[] = [
  may("year-99999", "99999-01-01T00:00:00Z"),
  must("date-zero", "0000-00-00"),
  must("not-a-date", "not a date"),
  must("month-13", "2026-13-45"),
  may("infinity", "infinity"),
  must("tz-25h", "2024-01-01T00:00:00+25:00"),
  must("feb-30", "2024-02-30"),
  must("tz-unknown", "2024-01-01T00:00:00 Mars/Olympus_Mons"),
  must("year-294277", "294277-01-01T00:00:00Z"),
  may("now", "now"),
  must("time-only", "allballs"),
];
const EMAIL_STRINGS: Hostile[] = [
  may("email-no-tld", "a@b"),
  may("email-at", "@"),
  may("email-quote", "x@example.com'--"),
  may("email-321", `${"e".repeat(309)}@example.com`),
];
const WEBHOOK_URLS: Hostile[] = [
  must("private-url", "http://127.0.0.1:1/"),
  must("link-local-url", "http://169.254.169.254/latest/meta-data"),
  must("ipv6-loopback-url", "http://[::1]/"),
  must("file-url", "file:///etc/passwd"),
  must("javascript-url", "javascript:alert(1)"),
  must("localhost-url", "https://localhost/hook"),
  must("decimal-ip-url", "http://2130706433/"),
  must("mapped-ipv6-url", "http://[::ffff:127.0.0.1]/"),
].map((hostile) => ({ ...hostile, siblings: { type: "webhook" } }));
const OTHER_URLS: Hostile[] = [
  may("private-url", "http://127.0.0.1:1/"),
  may("file-url", "file:///etc/passwd"),
  may("javascript-url", "javascript:alert(1)"),
];
const JSON_STRINGS: Hostile[] = [
  may("json-open", "{"),
  may("json-deep", "[".repeat(5000)),
  may("json-deep-object", '{"a":'.repeat(3000)),
  may("json-array", "[]"),
  may("json-null", "null"),
  may("json-proto", '{"__proto__":{"polluted":1}}'),
  may("json-huge-number", "1e999"),
  may("json-string", '"x"'),
  may("json-deep-valid", "[".repeat(5000) + "]".repeat(5000)),
  may("json-nul-escape", '{"a":"\\u0000","capcodes":["\\u0000"]}'),
  may("json-surrogate-escape", '{"a":"\\ud800","capcodes":["\\ud800"]}'),
  may(
    "json-bad-times",
    '{"quietHours":{"from":"25:99","to":"x"},"maxPerPeriod":{"count":1e999,"minutes":-1},"minUrgency":"\\u0000"}',
  ),
  may("json-wrong-types", '{"capcodes":{"a":1},"radius":"x","disciplines":7,"regions":[[[]]],"keywords":[null]}'),
  may(
    "json-int-overflow",
    '{"maxPerDossier":99999999999999999999,"maxPerPeriod":{"count":2147483648,"minutes":2147483648}}',
  ),
];
const TOKEN_STRINGS: Hostile[] = [may("jwt-none", "eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0."), may("token-x", "x")];

function stringHostiles(name: string): Hostile[] {
  const extra = /uuid$/i.test(name)
    ? UUID_STRINGS
    : /^(sended|date|since|until|from|to)$/i.test(name)
      ? DATE_STRINGS
      : /email/i.test(name)
        ? EMAIL_STRINGS
        : name === "url"
          ? WEBHOOK_URLS
          : /url|returnTo/i.test(name)
            ? OTHER_URLS
            : /^(query|channels|notificationRules)$/.test(name)
              ? JSON_STRINGS
              : /token/i.test(name)
                ? TOKEN_STRINGS
                : [];
  return [...STRINGS, ...extra];
}

/** The scalar's kind, whatever the schema spells it (Datetime or DateTime, Uuid or UUID). */
function scalarKind(typeName: string): string {
  const kinds: Record<string, string> = { datetime: "Datetime", uuid: "UUID", bigfloat: "BigFloat" };
  return kinds[typeName.toLowerCase()] ?? typeName;
}

function scalarHostiles(typeName: string, name: string): Hostile[] {
  switch (scalarKind(typeName)) {
    case "String":
      return stringHostiles(name);
    case "Int":
      return [
        may("zero", 0),
        may("minus-one", -1),
        may("int-max", 2147483647),
        may("int-min", -2147483648),
        must("int-overflow", 2147483648),
        must("fraction", 1.5),
        must("type-string", "1"),
        must("type-bool", true),
      ];
    case "Float":
      return [
        may("float-max", 1e308),
        may("float-min", -1e308),
        may("zero", 0),
        may("minus-zero", -0),
        may("denormal", 5e-324),
        may("minus-one", -1),
        must("type-string", "1"),
        must("type-bool", true),
      ];
    case "Boolean":
      return [may("true", true), may("false", false), must("type-string", "true"), must("type-int", 1)];
    case "Timestamp":
      return [
        may("epoch", 0),
        may("max", 253402300799),
        must("negative", -1),
        must("past-max", 253402300800),
        must("fraction", 1.5),
        must("type-string", "2024-01-01"),
        must("float-max", 1e308),
      ];
    case "Datetime":
      return [
        may("year-99999", "99999-01-01T00:00:00Z"),
        must("date-zero", "0000-00-00"),
        must("not-a-date", "not a date"),
        must("month-13", "2026-13-45"),
        must("empty", ""),
        may("infinity", "infinity"),
        must("tz-25h", "2024-01-01T00:00:00+25:00"),
        must("feb-30", "2024-02-30"),
        must("NUL", "2024-01-01\u0000"),
        must("type-int", 12345),
        must("tz-unknown", "2024-01-01T00:00:00 Mars/Olympus_Mons"),
        must("year-294277", "294277-01-01T00:00:00Z"),
        must("year-5000-bc", "5000-01-01 BC"),
        may("now", "now"),
        must("time-only", "allballs"),
      ];
    case "Date":
      return [
        must("date-zero", "0000-00-00"),
        must("not-a-date", "not a date"),
        must("month-13", "2026-13-45"),
        must("year-99999", "99999-01-01"),
      ];
    case "UUID":
      return [must("garbage-uuid", "garbage"), may("nil-uuid", NIL_UUID), must("empty", ""), must("NUL", "\u0000")];
    case "BigFloat":
      return [must("nan", "NaN"), must("huge", "1e99999"), must("abc", "abc")];
    default:
      return [...STRINGS];
  }
}

function baselineString(name: string): string {
  if (/uuid$/i.test(name)) return NIL_UUID;
  if (/^(sended|since|until|from|to)$/i.test(name)) return "2024-01-01T00:00:00Z";
  if (/^date$/i.test(name)) return "2024-01-01";
  if (/email/i.test(name)) return "fuzz-nobody@example.com";
  if (/password/i.test(name)) return "another long enough password";
  if (/search/i.test(name)) return "Amsterdam";
  return "fuzz";
}

/** A valid-looking value of a type: required fields only. */
function baseline(type: GraphQLInputType, name = ""): unknown {
  const nullable = getNullableType(type) as GraphQLInputType;
  if (isListType(nullable)) return [];
  if (isInputObjectType(nullable)) {
    const value: Record<string, unknown> = {};
    for (const field of Object.values(nullable.getFields())) {
      if (isNonNullType(field.type)) value[field.name] = baseline(field.type, field.name);
    }
    return value;
  }
  if (isEnumType(nullable)) return nullable.getValues()[0].name;
  switch (scalarKind(nullable.name)) {
    case "Int":
      return 1;
    case "Float":
      return 1;
    case "Boolean":
      return true;
    case "Timestamp":
      return 1_700_000_000;
    case "Datetime":
      return "2024-01-01T00:00:00Z";
    case "Date":
      return "2024-01-01";
    case "UUID":
      return NIL_UUID;
    case "BigFloat":
      return "1";
    default:
      return baselineString(name);
  }
}

function hostilesFor(type: GraphQLInputType, name: string): Hostile[] {
  const out: Hostile[] = [isNonNullType(type) ? must("null-for-required", null) : may("null", null)];
  const nullable = getNullableType(type) as GraphQLInputType;
  if (isListType(nullable)) {
    const element = nullable.ofType as GraphQLInputType;
    const base = baseline(element, name);
    out.push(
      may("empty-list", []),
      may(
        "list1000",
        Array.from({ length: 1000 }, () => base),
      ),
    );
    out.push(isNonNullType(element) ? must("list-with-null", [null]) : may("list-with-null", [null]));
    if (isLeafType(getNullableType(element))) {
      if (getNamedType(element).name === "String")
        out.push(
          may(
            "list10k",
            Array.from({ length: 10_000 }, (_, i) => `s${i}`),
          ),
        );
      for (const inner of hostilesFor(element, name)) {
        if (inner.value !== null) out.push({ ...inner, label: `[${inner.label}]`, value: [inner.value] });
      }
    }
    return out;
  }
  if (isInputObjectType(nullable)) {
    const required = Object.values(nullable.getFields()).some((field) => isNonNullType(field.type));
    out.push(
      required ? must("empty-object", {}) : may("empty-object", {}),
      must("unknown-field", { bogus: 1 }),
      must("type-string", "x"),
      must("type-list-of-objects", [{}, {}]),
    );
    return out;
  }
  if (isEnumType(nullable)) {
    for (const value of nullable.getValues()) out.push(may(`enum-${value.name}`, value.name));
    out.push(
      must("enum-unknown", "NOT_A_VALUE"),
      must("enum-lowercase", nullable.getValues()[0].name.toLowerCase()),
      must("type-int", 1),
    );
    return out;
  }
  return [...out, ...scalarHostiles(nullable.name, name)];
}

// ---------------------------------------------------------------------------------------------
// Slots (each argument and each input field below it) and documents

interface Slot {
  /** Argument name, then field names, "0" for a list's element. */
  path: string[];
  type: GraphQLInputType;
  name: string;
}

function slotsOf(args: readonly GraphQLArgument[]): Slot[] {
  const out: Slot[] = [];
  const walk = (slotPath: string[], type: GraphQLInputType, name: string, depth: number): void => {
    out.push({ path: slotPath, type, name });
    const named = getNamedType(type);
    if (!isInputObjectType(named) || depth >= 4) return;
    const base = isListType(getNullableType(type)) ? [...slotPath, "0"] : slotPath;
    for (const field of Object.values(named.getFields()))
      walk([...base, field.name], field.type, field.name, depth + 1);
  };
  for (const arg of args) walk([arg.name], arg.type, arg.name, 0);
  return out;
}

/** Sets value at path in args (a copy), creating the objects and lists on the way from baselines. */
function withValueAt(
  args: Record<string, unknown>,
  argDefs: readonly GraphQLArgument[],
  slotPath: string[],
  value: unknown,
  siblings?: Record<string, unknown>,
): Record<string, unknown> {
  const root = structuredClone(args) as Record<string, any>;
  let holder: any = root;
  let key = slotPath[0];
  let type = argDefs.find((arg) => arg.name === key)!.type;
  for (const segment of slotPath.slice(1)) {
    const nullable = getNullableType(type) as GraphQLInputType;
    if (segment === "0") {
      if (!isListType(nullable)) throw new Error(`not a list at ${slotPath.join(".")}`);
      const element = nullable.ofType as GraphQLInputType;
      if (!Array.isArray(holder[key]) || holder[key].length === 0) holder[key] = [baseline(element)];
      holder = holder[key];
      key = "0";
      type = element;
    } else {
      const named = getNamedType(type);
      if (!isInputObjectType(named)) throw new Error(`not an input object at ${slotPath.join(".")}`);
      if (holder[key] === null || typeof holder[key] !== "object" || Array.isArray(holder[key]))
        holder[key] = baseline(named);
      holder = holder[key];
      key = segment;
      type = named.getFields()[segment].type;
    }
  }
  holder[key] = value;
  if (siblings && !Array.isArray(holder)) Object.assign(holder, siblings);
  return root;
}

function literal(value: unknown, type: GraphQLInputType): string {
  if (value === null || value === undefined) return "null";
  const nullable = getNullableType(type) as GraphQLInputType;
  if (Array.isArray(value)) {
    const inner = isListType(nullable) ? (nullable.ofType as GraphQLInputType) : nullable;
    return `[${value.map((item) => literal(item, inner)).join(", ")}]`;
  }
  if (typeof value === "object") {
    const fields = isInputObjectType(nullable) ? nullable.getFields() : {};
    return `{${Object.entries(value)
      .map(([name, item]) => `${name}: ${literal(item, fields[name]?.type ?? GraphQLString)}`)
      .join(", ")}}`;
  }
  if (isEnumType(nullable) && typeof value === "string" && /^[_A-Za-z]\w*$/.test(value)) return value;
  if (typeof value === "string") return JSON.stringify(value);
  return String(value);
}

function selectionFor(type: GraphQLOutputType): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return "";
  if (!isObjectType(named)) return " { __typename }";
  const fields = Object.values(named.getFields())
    .filter((field) => isLeafType(getNamedType(field.type)) && field.args.every((arg) => !isNonNullType(arg.type)))
    .sort((a, b) => Number(b.name === "uuid") - Number(a.name === "uuid"))
    .slice(0, 3)
    .map((field) => field.name);
  return ` { ${fields.length ? fields.join(" ") : "__typename"} }`;
}

interface Operation {
  kind: "query" | "mutation";
  field: GraphQLField<unknown, unknown>;
}

function documentFor(
  operation: Operation,
  args: Record<string, unknown>,
  inline: boolean,
): { query: string; variables?: Record<string, unknown> } {
  const { field, kind } = operation;
  const present = field.args.filter((arg) => arg.name in args);
  const selection = selectionFor(field.type);
  if (inline) {
    const list = present.map((arg) => `${arg.name}: ${literal(args[arg.name], arg.type)}`).join(", ");
    return { query: `${kind} Fuzz { ${field.name}${list ? `(${list})` : ""}${selection} }` };
  }
  const declarations = present.map((arg) => `$${arg.name}: ${String(arg.type)}`).join(", ");
  const list = present.map((arg) => `${arg.name}: $${arg.name}`).join(", ");
  return {
    query: `${kind} Fuzz${declarations ? `(${declarations})` : ""} { ${field.name}${list ? `(${list})` : ""}${selection} }`,
    variables: Object.fromEntries(present.map((arg) => [arg.name, args[arg.name]])),
  };
}

// ---------------------------------------------------------------------------------------------
// Requests, answers, checks

/** api: an operator API token with the auth scopes; userApi: the admin's own environment's API token; user: the admin's access token. */
type Auth = "api" | "userApi" | "user" | "none" | "garbage";
const CREDENTIALS: Auth[] = ["api", "userApi", "user"];

interface FuzzRequest {
  phase: string;
  operation: Operation;
  slot: string;
  label: string;
  inline: boolean;
  auth: Auth;
  authorization?: string;
  accept: string;
  args: Record<string, unknown>;
  /** A mutation given a value that must be refused: it must answer with an error. */
  expectRefusal: boolean;
}

interface Failure {
  phase: string;
  operation: string;
  slot: string;
  label: string;
  how: string;
  status: number;
  code: string;
  problem: string;
  message: string;
  cause?: string;
  variables: string;
}

const failures: Failure[] = [];
const timeouts: string[] = [];
let requestCount = 0;
/** Server log lines of masked errors, by log id (console.error is captured during the run). */
const loggedCauses = new Map<string, string>();
const otherServerLogs: string[] = [];
/** First error code (or ok) of every answer, by value label. */
const answerTally = new Map<string, Map<string, number>>();

const GARBAGE_AUTHORIZATIONS = [
  "Bearer",
  "Bearer ",
  "Bearer ' or 1=1 --",
  `Bearer nlis_${"A".repeat(46)}`,
  `Bearer ${"x".repeat(8000)}`,
  "Basic Zm9vOmJhcg==",
  "Bearer eyJhbGciOiJub25lIn0.eyJzdWIiOiIxIn0.",
  "Bearer \u00e9\u00e8",
  "Bearer a.b.c",
  "Bearer nlis_$$",
];

let apiToken: string;
let admin: TestUser;

function authorizationOf(request: FuzzRequest): string | undefined {
  switch (request.auth) {
    case "api":
      return `Bearer ${apiToken}`;
    case "userApi":
      return `Bearer ${admin.apiToken}`;
    case "user":
      return `Bearer ${admin.accessToken}`;
    case "garbage":
      return request.authorization;
    default:
      return undefined;
  }
}

function abbreviate(value: unknown): string {
  const text =
    JSON.stringify(value, (_, item) => {
      if (typeof item === "string" && item.length > 40) return `${item.slice(0, 16)}…(${item.length} chars)`;
      if (Array.isArray(item) && item.length > 4) return [...item.slice(0, 2), `…(${item.length} items)`];
      return item;
    }) ?? "undefined";
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Every string a value holds: values and object keys. */
function stringsOf(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") out.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsOf(item, out);
  else if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      out.push(key);
      stringsOf(item, out);
    }
  }
  return out;
}

function normalise(message: string): string {
  return message
    .replace(/log id [0-9a-f]+/g, "log id …")
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, "<uuid>")
    .replace(/(.)\1{20,}/g, (run) => `${run[0]}…(${run.length}×)`)
    .slice(0, 180);
}

/** Sends one request and checks its answer; returns the first error's code, or "ok". */
async function send(request: FuzzRequest): Promise<string> {
  requestCount++;
  const document = documentFor(request.operation, request.args, request.inline);
  const headers: Record<string, string> = { "content-type": "application/json", accept: request.accept };
  const authorization = authorizationOf(request);
  if (authorization !== undefined) headers.authorization = authorization;
  const fail = (problem: string, status: number, code = "", message = "", cause?: string): void => {
    failures.push({
      phase: request.phase,
      operation: request.operation.field.name,
      slot: request.slot,
      label: request.label,
      how: `${request.inline ? "inline" : "variables"}, auth ${request.auth}`,
      status,
      code,
      problem,
      message: normalise(message),
      cause,
      variables: abbreviate(request.args),
    });
  };
  let status = 0;
  let text: string;
  // A request sent on a keep-alive socket the server closed at that moment fails in the client
  // before the server sees it ("fetch failed"); sent again once, it tells whether the server answers.
  for (let attempt = 1; ; attempt++) {
    try {
      const response = await fetch(ctx.service.graphqlUrl, {
        method: "POST",
        headers,
        body: JSON.stringify(document),
        signal: AbortSignal.timeout(30_000),
      });
      status = response.status;
      text = await response.text();
      break;
    } catch (error) {
      if (attempt < 2 && status === 0 && /fetch failed/.test(String((error as Error)?.message))) continue;
      fail("no answer", status, "", String((error as Error)?.message ?? error));
      return "no answer";
    }
  }
  if (status >= 500) fail("5xx", status, "", text.slice(0, 200));
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    fail("body is not JSON", status, "", text.slice(0, 200));
    return "not JSON";
  }
  if (!body || typeof body !== "object" || Array.isArray(body)) {
    fail("body is not a JSON object", status, "", text.slice(0, 200));
    return "not JSON";
  }
  // What we sent may come back (an echoed search term); only what is left is checked for leaks.
  const sent = stringsOf(request.args)
    .filter((item) => item.length >= 3)
    .sort((a, b) => b.length - a.length);
  for (let item of stringsOf(body)) {
    for (const mine of sent) if (item.includes(mine)) item = item.split(mine).join("");
    const leak = LEAK_PATTERNS.find((pattern) => pattern.test(item));
    if (leak) fail(`leak ${leak}`, status, "", item.slice(0, 200));
  }
  const errors: any[] = Array.isArray(body.errors) ? body.errors : [];
  if (body.errors !== undefined && !Array.isArray(body.errors)) fail("errors is not a list", status);
  for (const error of errors) {
    const code = error?.extensions?.code;
    const message = String(error?.message ?? "");
    if (code === "TIMEOUT") timeouts.push(`${request.operation.field.name} ${request.slot}=${request.label}`);
    if (code === "INTERNAL_SERVER_ERROR") {
      const logId = String(error.extensions.logId ?? /log id ([0-9a-f]+)/.exec(message)?.[1] ?? "");
      fail("masked internal error", status, code, message, loggedCauses.get(logId));
    } else if (typeof code !== "string") fail("error without extensions.code", status, "", message);
    else if (!DOCUMENTED_CODES.has(code)) fail("undocumented code", status, code, message);
  }
  if (!errors.length && !("data" in body)) fail("neither data nor errors", status, "", text.slice(0, 200));
  if (request.expectRefusal && !errors.length && status < 400)
    fail(
      "hostile input accepted (no error)",
      status,
      "",
      `answered ${Object.keys(body.data ?? {}).join(", ")} without errors`,
    );
  const code = String(errors[0]?.extensions?.code ?? (errors.length ? "no code" : "ok"));
  const tally = answerTally.get(request.label) ?? new Map<string, number>();
  tally.set(code, (tally.get(code) ?? 0) + 1);
  answerTally.set(request.label, tally);
  return code;
}

function tallyLines(): string[] {
  return [...answerTally.entries()]
    .filter(([label]) => !label.includes(" + "))
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([label, codes]) =>
        `${label}: ${[...codes.entries()]
          .sort(([, a], [, b]) => b - a)
          .map(([code, n]) => `${code} ${n}`)
          .join(", ")}`,
    );
}

async function runAll(requests: FuzzRequest[]): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < requests.length) await send(requests[next++]);
    }),
  );
}

// ---------------------------------------------------------------------------------------------
// Which requests

const operations: Operation[] = [
  ...Object.values((schema.getQueryType() as GraphQLObjectType).getFields()).map((field) => ({
    kind: "query" as const,
    field,
  })),
  ...Object.values((schema.getMutationType() as GraphQLObjectType).getFields()).map((field) => ({
    kind: "mutation" as const,
    field,
  })),
];
/** Valid-looking arguments per operation (required ones), with the objects made in beforeAll. */
const baselines = new Map<string, Record<string, unknown>>();
/** The credential each operation is meant to be called with, from the probe. */
const preferredAuth = new Map<string, Auth>();
const probeNotes: string[] = [];

function baselineArgs(operation: Operation): Record<string, unknown> {
  return (
    baselines.get(operation.field.name) ??
    Object.fromEntries(
      operation.field.args
        .filter((arg) => isNonNullType(arg.type))
        .map((arg) => [arg.name, baseline(arg.type, arg.name)]),
    )
  );
}

function chooseAuth(operation: Operation): Auth {
  const preferred = preferredAuth.get(operation.field.name) ?? "api";
  const roll = random();
  if (roll < 0.8) return preferred;
  if (roll < 0.9) return "none";
  return pick(CREDENTIALS.filter((auth) => auth !== preferred));
}

const slotName = (slot: Slot): string => slot.path.join(".").replace(/\.0(\.|$)/g, "[0]$1");

/** A request with the operation's baseline arguments and the given hostile values in their slots. */
function request(phase: string, operation: Operation, changes: Array<[Slot, Hostile]>, auth?: Auth): FuzzRequest {
  let args = baselineArgs(operation);
  for (const [slot, hostile] of changes)
    args = withValueAt(args, operation.field.args, slot.path, hostile.value, hostile.siblings);
  const chosen = auth ?? chooseAuth(operation);
  return {
    phase,
    operation,
    slot: changes.length ? changes.map(([slot]) => slotName(slot)).join(" + ") : "-",
    label: changes.length ? changes.map(([, hostile]) => hostile.label).join(" + ") : "baseline",
    inline: random() < INLINE_SHARE,
    auth: chosen,
    authorization: chosen === "garbage" ? pick(GARBAGE_AUTHORIZATIONS) : undefined,
    accept: random() < 0.1 ? "application/graphql-response+json" : "application/json",
    args,
    expectRefusal: operation.kind === "mutation" && changes.some(([, hostile]) => hostile.mustRefuse),
  };
}

/**
 * For one operation: every hostile value of its type in every slot, one at a time, with the
 * operation's own credential (a few thousand in all, so no sampling is needed); a few of them again
 * with another credential or none; and some requests with two or three slots hostile at once.
 */
function generate(phase: string, operation: Operation, keep: (hostile: Hostile) => boolean): FuzzRequest[] {
  const all: Array<[Slot, Hostile]> = [];
  for (const slot of slotsOf(operation.field.args)) {
    for (const hostile of hostilesFor(slot.type, slot.name)) if (keep(hostile)) all.push([slot, hostile]);
  }
  const preferred = preferredAuth.get(operation.field.name) ?? "api";
  const requests = all.map((change) => request(phase, operation, [change], preferred));
  for (let i = 0; all.length && i < OTHER_CREDENTIALS_PER_OPERATION; i++) {
    requests.push(
      request(
        phase,
        operation,
        [pick(all)],
        pick(["none", ...CREDENTIALS.filter((auth) => auth !== preferred)] as Auth[]),
      ),
    );
  }
  const slots = new Set(all.map(([slot]) => slot));
  for (let i = 0; slots.size > 1 && i < COMBINED_PER_OPERATION; i++) {
    const changes = new Map<Slot, Hostile>();
    const wanted = 2 + Math.floor(random() * 2);
    for (let tries = 0; changes.size < wanted && tries < 20; tries++) {
      const [slot, hostile] = pick(all);
      if (!changes.has(slot)) changes.set(slot, hostile);
    }
    requests.push(request(phase, operation, [...changes]));
  }
  return requests;
}

const ARGUMENTLESS_MUTATIONS = new Set(["logout", "refreshToken", "deleteOtherSessions"]);

// ---------------------------------------------------------------------------------------------
// Database fingerprint

async function fingerprint(): Promise<Record<string, string>> {
  const { rows: tables } = await ctx.db.asOwner<{ name: string; columns: string[] }>(`
    select format('%s.%s', n.nspname, c.relname) as name, array_agg(a.attname::text order by a.attnum) as columns
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      join pg_attribute a on a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped
     where n.nspname in ('app_public', 'app_private', 'app_hidden') and c.relkind in ('r', 'p')
     group by n.nspname, c.relname order by 1`);
  const out: Record<string, string> = {};
  for (const table of tables) {
    if (VOLATILE_TABLES.has(table.name)) continue;
    const columns = table.columns.filter((column) => !(VOLATILE_COLUMNS[table.name] ?? []).includes(column));
    const row = `md5(row(${columns.map((column) => `t."${column.replaceAll('"', '""')}"`).join(", ")})::text)`;
    const [schemaName, tableName] = table.name.split(".");
    const {
      rows: [result],
    } = await ctx.db.asOwner(
      `select count(*)::int as n, coalesce(md5(string_agg(${row}, ',' order by ${row})), '') as hash from "${schemaName}"."${tableName}" t`,
    );
    out[table.name] = `${result.n} rows ${result.hash}`;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------

let before: Record<string, string>;
let phase1Seconds = 0;
let undoLog: (() => void) | undefined;

async function gql(query: string, token: string, variables: Record<string, unknown> = {}): Promise<any> {
  const { body } = await ctx.service.graphql(query, { token, variables });
  if (body.errors) throw new Error(`${query}: ${body.errors[0].message}`);
  return body.data;
}

beforeAll(async () => {
  // The service's error lines (lib/ops/log.ts): an internal error's names its log id.
  undoLog = writeLogTo((level, line) => {
    if (level !== "error") return;
    const first = line.split("\n")[0];
    const id = /\[error ([0-9a-f]+)\]/.exec(first)?.[1];
    if (id) loggedCauses.set(id, normalise(first.replace(/^ERROR \[error [0-9a-f]+\]\s*/, "")));
    else if (otherServerLogs.length < 20) otherServerLogs.push(first.slice(0, 200));
  });

  apiToken = (
    await ctx.service.newToken({ scopes: ["auth:login", "auth:register", "auth:password_reset"], name: "fuzz" })
  ).secret;
  admin = await signUp(ctx.service, "fuzz-admin@example.com", { admin: true });
  const token = admin.accessToken;
  const mine = await gql(
    "{ myOrganizations { uuid } currentEnvironment { uuid } apiTokens { uuid } mySessions { uuid } }",
    token,
  );
  const organizationUuid = mine.myOrganizations[0].uuid;
  const environmentUuid = mine.currentEnvironment.uuid;
  const newMonitor = async (type: string): Promise<string> =>
    (
      await gql('mutation ($t: String) { createMonitor(input: { name: "fuzz baseline", type: $t }) { uuid } }', token, {
        t: type,
      })
    ).createMonitor.uuid;
  const monitorUuid = await newMonitor("p2000");
  // The monitor queries of a kind want a monitor of that kind (the generic one if it cannot be made).
  const aircraftMonitorUuid = await newMonitor("aircraft").catch(() => monitorUuid);
  const accidentMonitorUuid = await newMonitor("accident").catch(() => monitorUuid);
  const meteoMonitorUuid = await newMonitor("meteo_weather").catch(() => monitorUuid);
  // A channel of the environment: sendTestNotification's target (no SMTP_URL here: it answers failed).
  const channelUuid = (
    await gql(
      'mutation { createChannel(input: { type: "email", name: "fuzz", emailAddress: "fuzz-channel@example.com" }) { channel { uuid } } }',
      token,
    )
  ).createChannel.channel.uuid;
  const apiTokenUuid = (
    await gql('mutation { createApiToken(input: { name: "fuzz target" }) { token { uuid } } }', token)
  ).createApiToken.token.uuid;
  const messageUuid =
    (await gql("{ p2000Messages(first: 1) { uuid } }", apiToken)).p2000Messages[0]?.uuid ??
    (
      await gql(
        'mutation { createP2000Message(input: { message: "A1 fuzz Amsterdam", sended: "2024-01-01T00:00:00Z" }) { uuid } }',
        token,
      )
    ).createP2000Message.uuid;
  const email = "fuzz-nobody@example.com";
  const password = "another long enough password";
  const overrides: Record<string, Record<string, unknown>> = {
    createApiToken: { input: { name: "fuzz" } },
    createChannel: { input: { type: "email", name: "fuzz", emailAddress: "fuzz-channel@example.com" } },
    createEnvironment: { input: { name: "fuzz", organizationUuid } },
    createMonitor: { input: { name: "fuzz" } },
    createOrganization: { input: { name: "fuzz" } },
    createP2000Message: {
      input: { message: "A1 fuzz 1234AB Amsterdam", sended: "2024-01-01T00:00:00Z", capcodes: [{ name: "0100001" }] },
    },
    login: { input: { email, password } },
    register: { input: { email: "fuzz-registered@example.com", password } },
    requestMagicLinkLogin: { email, returnTo: ctx.service.graphqlUrl.replace(/\/graphql$/, "/") },
    requestPasswordReset: { email },
    resetPassword: { newPassword: password, token: "x" },
    respondOnTheWay: { status: "going", token: "x" },
    revokeMonitorFeed: { monitor: monitorUuid },
    rotateMonitorFeed: { monitor: monitorUuid },
    sendTestNotification: { channel: channelUuid },
    setCurrentEnvironment: { environmentUuid },
    switchEnvironment: { environmentUuid },
    updateApiToken: { uuid: apiTokenUuid },
    updateEnvironment: { input: { uuid: environmentUuid, name: "fuzz baseline environment" } },
    updateMonitor: { input: { uuid: monitorUuid } },
    updateOrganization: { input: { uuid: organizationUuid, name: "fuzz baseline organization" } },
    monitor: { uuid: monitorUuid },
    apiToken: { uuid: apiTokenUuid },
    aircraftEventsForMonitor: { monitor: { uuid: aircraftMonitorUuid } },
    meteoWarningEventsForMonitor: { monitor: { uuid: meteoMonitorUuid } },
    trafficIncidentsForMonitor: { monitor: { uuid: accidentMonitorUuid } },
    meteoObservationHistory: { fromTs: 1_700_000_000, toTs: 1_700_086_400, stationId: "06260" },
    meteoSnapshot: { date: "2024-01-01" },
    meteoStatsMonthly: { year: 2024 },
    hectometerMarkersNearest: { lat: 52.1, lon: 5.1 },
    road: { road: { name: "A2" } },
    availableHectometers: { road: { name: "A2" } },
    hectometerMarker: { marker: { uuid: NIL_UUID } },
    p2000DossierTimeline: { filter: { message: { uuid: messageUuid } } },
    p2000Dossier: { message: { uuid: messageUuid } },
    p2000Message: { uuid: messageUuid },
  };
  for (const [name, args] of Object.entries(overrides)) baselines.set(name, args);

  // Probe: which credential gets each operation past authentication (its baseline, once per kind).
  const probes: FuzzRequest[] = [];
  for (const operation of operations) {
    if (ARGUMENTLESS_MUTATIONS.has(operation.field.name)) continue;
    for (const auth of [...CREDENTIALS, "none"] as const)
      probes.push({ ...request("phase 1 (probe)", operation, [], auth), inline: false, accept: "application/json" });
  }
  const answers = new Map<string, string>();
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < probes.length) {
        const probe = probes[next++];
        answers.set(`${probe.operation.field.name} ${probe.auth}`, await send(probe));
      }
    }),
  );
  for (const operation of operations) {
    const name = operation.field.name;
    const order: Auth[] =
      operation.kind === "mutation" ? ["user", "api", "userApi", "none"] : ["api", "userApi", "user", "none"];
    const answer = (auth: Auth): string => answers.get(`${name} ${auth}`) ?? "UNAUTHENTICATED";
    const passes = order.filter((auth) => !["UNAUTHENTICATED", "FORBIDDEN"].includes(answer(auth)));
    preferredAuth.set(name, passes.find((auth) => answer(auth) === "ok") ?? passes[0] ?? order[0]);
    const baselineAnswer = answers.get(`${name} ${preferredAuth.get(name)}`);
    if (baselineAnswer && baselineAnswer !== "ok")
      probeNotes.push(`${name}: baseline answered ${baselineAnswer} with auth ${preferredAuth.get(name)}`);
  }
  await ctx.service.workerIdle();
  before = await fingerprint();
}, 120_000);

afterAll(() => {
  undoLog?.();
});

function report(phase: string): string[] {
  const groups = new Map<string, { failures: Failure[]; labels: Set<string> }>();
  for (const failure of failures.filter((item) => item.phase.startsWith(phase))) {
    const key =
      `${failure.operation} | ${failure.slot} | ${failure.problem} | ${failure.code || "-"} | ${failure.message}` +
      `${failure.cause ? ` | cause: ${failure.cause}` : ""}`;
    const group = groups.get(key) ?? { failures: [], labels: new Set<string>() };
    group.failures.push(failure);
    group.labels.add(failure.label);
    groups.set(key, group);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([key, { failures: list, labels }]) => {
      const example = list[0];
      const statuses = [...new Set(list.map((item) => item.status))].join("/");
      return `${key} | HTTP ${statuses} | ${list.length}× | values: ${[...labels].slice(0, 8).join(", ")} | e.g. ${example.how}: ${example.variables}`;
    });
}

function writeReport(): void {
  if (process.env.FUZZ_REPORT)
    fs.writeFileSync(
      process.env.FUZZ_REPORT,
      JSON.stringify({ seed: SEED, requestCount, failures, timeouts, probeNotes, otherServerLogs }, null, 2),
    );
}

test("every scalar an argument can take has its own hostile values", () => {
  const known = new Set(["String", "Int", "Float", "Boolean", "Timestamp", "Datetime", "Date", "UUID", "BigFloat"]);
  const used = new Set(
    operations
      .flatMap((operation) => slotsOf(operation.field.args).map((slot) => getNamedType(slot.type)))
      .filter((type) => !isInputObjectType(type) && !isEnumType(type))
      .map((type) => type.name),
  );
  expect([...used].filter((name) => !known.has(scalarKind(name)))).toEqual([]);
});

test("hostile requests over every operation: no 5xx, JSON, no SQL or stack, documented codes, hostile mutations refused", async () => {
  const requests: FuzzRequest[] = [];
  for (const operation of operations) {
    if (operation.kind === "query") requests.push(...generate("phase 1", operation, () => true));
    else if (!ARGUMENTLESS_MUTATIONS.has(operation.field.name))
      requests.push(...generate("phase 1", operation, (hostile) => hostile.mustRefuse));
    // Credentials that are not: every operation once with its baseline and a mangled Authorization.
    const mangled = request("phase 1", operation, [], "garbage");
    mangled.expectRefusal = operation.kind === "mutation" && !ARGUMENTLESS_MUTATIONS.has(operation.field.name);
    requests.push(mangled);
    if (ARGUMENTLESS_MUTATIONS.has(operation.field.name)) requests.push(request("phase 1", operation, [], "none"));
  }
  const started = Date.now();
  await runAll(shuffle(requests));
  phase1Seconds = (Date.now() - started) / 1000;
  console.log(
    `fuzz seed ${SEED}: ${requests.length} phase-1 requests in ${phase1Seconds.toFixed(1)} s over ${operations.length} operations; ` +
      `${failures.length} failures; ${timeouts.length} TIMEOUT answers${timeouts.length ? ` (${timeouts.slice(0, 5).join("; ")})` : ""}` +
      `${probeNotes.length ? `\nbaselines not accepted (their fuzz reaches less far):\n  ${probeNotes.join("\n  ")}` : ""}` +
      `${otherServerLogs.length ? `\nother server error logs:\n  ${otherServerLogs.join("\n  ")}` : ""}` +
      `\nfirst code of each answer by value (phase 1):\n  ${tallyLines().join("\n  ")}`,
  );
  answerTally.clear();
  writeReport();
  expect(report("phase 1")).toEqual([]);
}, 300_000);

test("nothing stored changed (mutations were only sent hostile values)", async () => {
  await ctx.service.workerIdle();
  const after = await fingerprint();
  const changed = Object.keys({ ...before, ...after })
    .filter((table) => before[table] !== after[table])
    .map((table) => `${table}: ${before[table] ?? "absent"} → ${after[table] ?? "absent"}`);
  expect(changed).toEqual([]);
}, 60_000);

test("values a mutation may accept: no 5xx, JSON, no SQL or stack, documented codes", async () => {
  const requests: FuzzRequest[] = [];
  for (const operation of operations) {
    if (operation.kind !== "mutation" || ARGUMENTLESS_MUTATIONS.has(operation.field.name)) continue;
    requests.push(...generate("phase 2", operation, (hostile) => !hostile.mustRefuse));
  }
  const started = Date.now();
  await runAll(shuffle(requests));
  console.log(
    `fuzz seed ${SEED}: ${requests.length} phase-2 requests in ${((Date.now() - started) / 1000).toFixed(1)} s; ` +
      `${requestCount} requests in all (probes included)\nfirst code of each answer by value (phase 2):\n  ${tallyLines().join("\n  ")}`,
  );
  writeReport();
  expect(report("phase 2")).toEqual([]);
}, 300_000);

test("the server still answers a normal query and the user's session", async () => {
  const { status, body } = await ctx.service.graphql("{ p2000Regions(first: 2) { number } }", { token: apiToken });
  expect(status).toBe(200);
  expect(body.errors).toBeUndefined();
  expect(body.data.p2000Regions).toHaveLength(2);
  const me = await ctx.service.graphql("{ me { email { address } } }", { token: admin.accessToken });
  expect(me.body.errors).toBeUndefined();
  expect(me.body.data.me.email.address).toBe("fuzz-admin@example.com");
});
