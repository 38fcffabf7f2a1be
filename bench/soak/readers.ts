// The soak's readers: clients of the public API asking a mix of the spec's reads (interface-spec.md
// §4.3), each on an API token of its own, one request at a time with a short pause between (a
// person or a dashboard, not a load generator at full tilt: the soak looks for what breaks over
// time, not for the throughput bench/p2000-history.ts measures). Hot reads ask the same thing
// every time (what the response cache answers); the others draw new arguments each time (a new
// time range, page, discipline, or a message the writer just stored: uncached by design).
import fs from "node:fs";
import path from "node:path";
import { buildSchema, parse, validate } from "graphql";
import { BENCH_DIR, seeded } from "../bench-database.ts";
import type { RequestLog } from "./requests.ts";

interface Read {
  name: string;
  query: string;
  /** Variables of one request; undefined: nothing to ask yet (no message stored by the writer). */
  variables?: () => Record<string, unknown> | undefined;
}

const DISCIPLINES = ["Ambulance", "Brandweer", "Politie", "KNRM"];
const HOUR = 3_600_000;

/** The reads, by name; `recent` gives uuids of messages the writer stored. */
function reads(random: () => number, recent: () => string[]): Read[] {
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)];
  const range = () => {
    const from = Date.now() - random() * 72 * HOUR;
    return { from: new Date(from).toISOString(), to: new Date(from + (1 + random() * 11) * HOUR).toISOString() };
  };
  return [
    {
      name: "p2000Messages (hot)",
      query: "{ p2000Messages(first: 50) { uuid message sended city capcodes { name } } }",
    },
    {
      name: "p2000Messages (filtered)",
      query:
        "query ($f: P2000MessageFilterInput, $page: Int) { p2000Messages(first: 20, page: $page, filter: $f) " +
        "{ uuid message sended city discipline { name } capcodes { name } } }",
      variables: () => ({
        f: { disciplines: [pick(DISCIPLINES)], sended: range() },
        page: 1 + Math.floor(random() * 3),
      }),
    },
    {
      name: "p2000MessagesCount",
      query: "query ($f: P2000MessageFilterInput) { p2000MessagesCount(filter: $f) }",
      variables: () => ({
        f: random() < 0.5 ? { sended: range() } : { disciplines: [pick(DISCIPLINES)], sended: range() },
      }),
    },
    {
      name: "p2000Dossiers (a dossier)",
      query:
        "query ($f: P2000DossierFilterInput) { p2000Dossiers(first: 1, filter: $f) " +
        "{ messageCount firstSended lastSended city messages { uuid message sended } timeline { kind sended } } }",
      variables: () => {
        const uuids = recent();
        return uuids.length ? { f: { message: { uuid: pick(uuids) } } } : undefined;
      },
    },
    {
      name: "p2000Statistics",
      query:
        "query ($p: P2000StatisticsPeriod) { p2000Statistics(period: $p) " +
        "{ total busiestHour byDiscipline { key count } byRegion { key count } byUrgency { key count } } }",
      variables: () => ({ p: pick(["LAST_24_HOURS", "LAST_7_DAYS", "LAST_30_DAYS"]) }),
    },
    {
      name: "p2000MessageStatistics",
      query:
        "query ($f: P2000MessageFilterInput, $d: Int) { p2000MessageStatistics(filter: $f, chartDays: $d) " +
        "{ chartDays byUrgency { key count } perDay { date count } } }",
      variables: () => ({ f: { disciplines: [pick(DISCIPLINES)] }, d: 7 + Math.floor(random() * 24) }),
    },
    {
      name: "trafficIncidents",
      query:
        "{ trafficIncidents(active: true, first: 50) { uuid type roadNumber severity startAt latitude longitude } }",
    },
    {
      name: "weather",
      query:
        "{ meteoRegions { code name statusCode status { description } } meteoGeneral { name statusCode warnings { label } } }",
    },
    {
      name: "hubAnalyticsHourly",
      query: "query ($d: Int) { hubAnalyticsHourly(days: $d) { days total hours { hour total averagePerDay } } }",
      variables: () => ({ d: 7 + Math.floor(random() * 22) }),
    },
  ];
}

/** The reads' names, in the order the report lists them. */
export const READ_NAMES = reads(Math.random, () => []).map((read) => read.name);

/** Every read's document is valid against schema.graphql: a renamed field fails here, before a long run. */
export function checkReads(): void {
  const schema = buildSchema(fs.readFileSync(path.join(BENCH_DIR, "..", "schema.graphql"), "utf8"));
  for (const read of reads(Math.random, () => [])) {
    const errors = validate(schema, parse(read.query));
    if (errors.length) throw new Error(`The soak's read "${read.name}" is not valid: ${errors[0].message}`);
  }
}

/** Runs `tokens.length` readers until stop() is called. */
export function startReaders(options: { log: RequestLog; tokens: string[]; pauseMs: number; recent: () => string[] }) {
  let stopped = false;
  const running = options.tokens.map(async (token, i) => {
    const random = seeded(4300 + i);
    const mix = reads(random, options.recent);
    while (!stopped) {
      const read = mix[Math.floor(random() * mix.length)];
      const variables = read.variables?.();
      if (read.variables && !variables) continue;
      await options.log.post(read.name, token, read.query, variables);
      await new Promise((resolve) => setTimeout(resolve, options.pauseMs * (0.5 + random())));
    }
  });
  return {
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}
