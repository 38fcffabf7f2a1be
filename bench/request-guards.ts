// What the hardening adds to every request, measured in isolation so it can be set beside the
// throughput benchmarks' per-request figures (bench:p2000: about 1 ms of service CPU a request):
// the request budgets (two buckets counted in memory, the token's hash), the input guard's walk
// of a document and its variables, and the query limits' validation rules on a typical document.
// `npm run bench:request-guards` prints and writes bench/results/request-guards-latest.md.
// No database is needed: the limiter's flush is measured by the rate-limit test, not here.
import type { IncomingMessage, ServerResponse } from "node:http";
import { queryCostRule } from "../lib/graphql/query-cost.ts";
import { maxAliasesRule } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthRule } from "@escape.tech/graphql-armor-max-depth";
import { maxDirectivesRule } from "@escape.tech/graphql-armor-max-directives";
import { buildSchema, parse, specifiedRules, validate } from "graphql";
import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import { RateLimiter } from "../lib/http/rate-limiter.ts";
import { makeRequestBudgetGuard } from "../lib/http/request-budgets.ts";
import { generateApiTokenSecret } from "../lib/auth/api-tokens.ts";
import { machine, writeResults } from "./results.ts";

const ROUNDS = 200_000;

function timePerCall(name: string, rounds: number, call: (i: number) => void): { name: string; microseconds: number } {
  for (let i = 0; i < Math.min(rounds, 10_000); i++) call(i); // warm-up
  const started = process.hrtime.bigint();
  for (let i = 0; i < rounds; i++) call(i);
  const microseconds = Number(process.hrtime.bigint() - started) / 1000 / rounds;
  console.log(`${name}: ${microseconds.toFixed(2)} µs a request`);
  return { name, microseconds: Math.round(microseconds * 100) / 100 };
}

// The budgets: a limiter that is never flushed (no pool), 1,000 tokens and 1,000 addresses.
const limiter = new RateLimiter(null as unknown as pg.Pool);
const guard = makeRequestBudgetGuard(limiter, { perToken: 1e9, perAddress: 1e9, trustProxy: false });
const tokens = Array.from({ length: 1000 }, () => generateApiTokenSecret());
const requests = tokens.map(
  (token, i) =>
    ({
      headers: { authorization: `Bearer ${token}` },
      socket: { remoteAddress: `192.0.2.${i % 250}` },
    }) as unknown as IncomingMessage,
);
const response = {} as ServerResponse;

// The query limits' rules on the spec's common query, as grafserv runs them (validation is cached
// per document by grafserv, so this is paid once per distinct document, not per request).
const schema = buildSchema(fs.readFileSync(path.join(import.meta.dirname, "..", "schema.graphql"), "utf8"));
const document = parse(`query ($f: P2000MessageFilterInput) { p2000Messages(first: 50, filter: $f) { uuid message sended
  capcodes { uuid name discipline { name } } dossier { uuid title messages { uuid } } } }`);
const limits = [
  maxDepthRule({ n: 7 }),
  maxAliasesRule({ n: 15 }),
  maxDirectivesRule({ n: 50 }),
  queryCostRule(5000, () => {}),
];

const figures = [
  timePerCall("request budgets (token and address buckets)", ROUNDS, (i) =>
    guard(requests[i % requests.length], response),
  ),
  timePerCall("validation, GraphQL's own rules", 20_000, () => validate(schema, document, specifiedRules)),
  timePerCall("validation, GraphQL's rules and the query limits", 20_000, () =>
    validate(schema, document, [...specifiedRules, ...limits]),
  ),
];

const date = new Date().toISOString();
const file = writeResults(
  "request-guards",
  "request-guards-latest.md",
  { date, machine: machine(), figures } as { date: string },
  [
    `Request guards, ${date.slice(0, 10)}, ${machine()}: CPU per request in the service process, measured in isolation.`,
    "",
    "| what | µs a request |",
    "| --- | --- |",
    ...figures.map((f) => `| ${f.name} | ${f.microseconds} |`),
    "",
    "Validation runs once per distinct document (grafserv caches it); the budgets run on every request.",
  ],
);
console.log(`Written: ${file}`);
