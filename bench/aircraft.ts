// The aircraft benchmark: `npm run bench:aircraft -- [--documents 300] [--receiver-documents 120]
// [--untracked 200] [--paced 30] [--route-points 5000] [--monitors 100000] [--seconds 10] [--clients 1,16]
// [--fresh]`.
// It builds its own embedded database under bench/.data-aircraft (kept between runs; --fresh starts
// over; the aircraft tables are emptied at every run, since the state machine skips positions
// older than the ones it holds). The tracked fleet (data/aircraft-fleet.csv, 20 aircraft) gets 10
// bench aircraft (ICAO be0001-be0010, outside the Dutch block) and one for the long route (be0100).
// The monitors table holds a population of the monitor benchmark's size (P2000 monitors, and one in
// 500 an aircraft monitor with a circle): every new route point runs the overhead trigger over it.
// 1. Ingestion: 30 tracked aircraft flying at once (100-140 kt, turns, climbs and descents, six
//    taking off and six landing), one aircraft.json document per second of their time (the
//    receiver's layout; time from the document's `now`), through ingestAircraftDocument (parser +
//    app_private.ingest_aircraft_positions) on one connection, back to back: ms per document and
//    the CPU of this process and of PostgreSQL per document (/proc), so the share of one core at
//    one document a second (goal: under 5%). Then the same with the untracked traffic a real
//    receiver sees in each document (airliners, TIS-B, aircraft without a position), a paced run at
//    one document per wall-clock second whose CPU is measured over the whole window, and one
//    document under auto_explain (rolled back). Then, for comparison, the tracked aircraft without
//    the index that finds the aircraft monitors a position can be in (the GiST index of their reach,
//    migration 000101; a partial index since 000023 before it), dropped in a transaction that is
//    rolled back at the end.
// 2. A route of 5,000 points: one flight of a bench helicopter through the same path, one document
//    every 5 s (the poller's default AIRCRAFT_POLL_SECONDS; at 100 kt or more each position is 250 m
//    or more from the last, so each is kept as a point), take-off and landing included.
// 3. aircraftRoute(route: { uuid }) with its log and its points (six fields, and two), or `path`
//    (the points as one JSON text; since 000026 kept once the route is completed), or, for
//    comparison, `benchPathBuilt`: path built from the points on every request as 000023 did
//    (a function created in this database for the run only). Over HTTP
//    with an API token (autocannon) at 1 and 16 clients after a warm-up, with the answer's size,
//    beside the statement PostGraphile sends through pg as app_visitor, the SQL time of one call
//    without round trips, and the plans (auto_explain as the visitor). Goal: under 30 ms p99 (the
//    read benches' 16 clients, and 1).
// Before each measurement it waits (a while) for a quiet machine, and reports what else ran.
// Figures go to bench/results/aircraft-latest.md (docs/benchmarks.md shows them) and a dated JSON file.
import { parseArgs } from "node:util";
import pg from "pg";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { pgUrl } from "../lib/db/pg-url.ts";
import { ingestAircraftDocument } from "../lib/feeds/aircraft/ingest.ts";
import { makeCpuSampler, cpuSplit, describeCpu, TICK_MS, findServicePid, type CpuSample } from "./cpu-accounting.ts";
import { openBenchDatabase, seeded } from "./bench-database.ts";
import { autoExplain } from "./explain.ts";
import { httpLoad as loadOverHttp } from "./http-load.ts";
import { closedLoop, machine, percentile, summary, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";

const { values } = parseArgs({
  options: {
    documents: { type: "string", default: "300" },
    "receiver-documents": { type: "string", default: "120" },
    untracked: { type: "string", default: "200" },
    paced: { type: "string", default: "30" },
    "route-points": { type: "string", default: "5000" },
    monitors: { type: "string", default: "100000" },
    seconds: { type: "string", default: "10" },
    clients: { type: "string", default: "1,16" },
    fresh: { type: "boolean", default: false },
  },
});
const DOCUMENTS = Number(values.documents);
const RECEIVER_DOCUMENTS = Number(values["receiver-documents"]);
const UNTRACKED = Number(values.untracked);
const PACED = Number(values.paced);
const ROUTE_POINTS = Number(values["route-points"]);
const MONITORS = Number(values.monitors);
const SECONDS = Number(values.seconds);
const CLIENTS = values.clients!.split(",").map(Number);
const WARM_UP_DOCUMENTS = 20;
const WARM_UP_SECONDS = 2;
const GOAL_CORE_SHARE = 5;
const GOAL_P99_MS = 30;
const GOAL_CLIENTS = 16;
const ROUTE_STEP_SECONDS = 5;
const SOURCE = "bench:aircraft";
const log = (line: string) => console.log(line);
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

const {
  dataDir: DATA_DIR,
  config,
  database,
  owner,
} = await openBenchDatabase("aircraft", 54346, values.fresh ?? false);
const rootUrl = database.rootUrl;
if (!rootUrl) throw new Error("CHECKPOINT and auto_explain need the superuser URL of the embedded cluster.");
const superuserUrl = pgUrl(rootUrl, { database: config.database.name });

const between = (random: () => number, low: number, high: number) => low + random() * (high - low);

// ------------------------------------------------------------------------------------------------
// CPU accounting: bench/cpu-accounting.ts.
const cpuSample = makeCpuSampler(DATA_DIR);

/** Another benchmark or test run on the same two cores would skew every figure: before each
 * measurement, wait (up to 30 s, 3 minutes in all) until the machine has been under 10% busy for two seconds
 * in a row. The figures report what others used meanwhile ("others on the machine", "other"). */
const waits: Array<{ before: string; seconds: number; quiet: boolean }> = [];
let waitBudgetSeconds = 180;
async function awaitQuiet(before: string, maxSeconds = 30): Promise<void> {
  maxSeconds = Math.max(0, Math.min(maxSeconds, waitBudgetSeconds));
  const started = performance.now();
  let quietSeconds = 0;
  while (quietSeconds < 2 && performance.now() - started < maxSeconds * 1000) {
    const a = cpuSample(undefined)!;
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const b = cpuSample(undefined)!;
    const busy = (100 * (b.total - a.total - (b.idle - a.idle) - (b.steal - a.steal))) / (b.total - a.total);
    quietSeconds = busy < 10 ? quietSeconds + 1 : 0;
  }
  const seconds = round((performance.now() - started) / 1000);
  waitBudgetSeconds -= seconds;
  waits.push({ before, seconds, quiet: quietSeconds >= 2 });
  if (seconds > 3)
    log(
      `  (waited ${seconds} s for a quiet machine before ${before}${quietSeconds >= 2 ? "" : "; still busy, measuring anyway"})`,
    );
}

// ------------------------------------------------------------------------------------------------
// The aircraft: the shipped fleet, 10 bench aircraft, and the one that flies the long route.
const BENCH_AIRCRAFT = Array.from({ length: 10 }, (_, i) => ({
  icao: `be${String(i + 1).padStart(4, "0")}`,
  registration: `PH-BN${String.fromCharCode(65 + i)}`,
  kind: i % 2 ? "police" : "trauma",
  callsign: `BENCH${i + 1}`,
  type: i % 3 ? "EC35" : "A139",
}));
const ROUTE_AIRCRAFT = { icao: "be0100", registration: "PH-BNR", kind: "police", callsign: "BENCHR", type: "EC35" };
for (const a of [...BENCH_AIRCRAFT, ROUTE_AIRCRAFT]) {
  await owner.query(
    `insert into app_public.aircraft_fleet (icao, registration, kind, callsign, type, operator, base)
    values ($1, $2, $3, $4, $5, 'bench (synthetic)', 'BENCH') on conflict (icao) do nothing`,
    [a.icao, a.registration, a.kind, a.callsign, a.type],
  );
}
const { rows: fleet } = await owner.query<{
  icao: string;
  registration: string;
  callsign: string | null;
  type: string | null;
}>("select icao, registration, callsign, type from app_public.aircraft_fleet where icao <> $1 order by icao", [
  ROUTE_AIRCRAFT.icao,
]);
if (fleet.length !== 30) throw new Error(`Expected 30 tracked aircraft besides the route's, found ${fleet.length}.`);
// What section 3 creates in this database for the run (names of its own: nothing the migrations
// made is dropped); left behind only by a run that failed.
const PROPOSED_FUNCTIONS = ["app_public.aircraft_routes_bench_path_built(app_public.aircraft_routes)"];
const dropProposals = async () => {
  for (const fn of PROPOSED_FUNCTIONS) await owner.query(`drop function if exists ${fn}`);
};
await dropProposals();
// Every run starts from no flights: the state machine skips positions older than those it holds.
await owner.query(`truncate app_public.aircraft_events, app_public.aircraft_route_log, app_public.aircraft_route_points,
  app_public.aircraft_states, app_hidden.aircraft_route_paths, app_public.aircraft_routes`);
await owner.query("delete from graphile_worker.jobs where task_identifier = 'monitors__match_feed'").catch(() => {});

// The monitors: a population like the monitor benchmark's (the overhead trigger reads
// app_public.monitors for every new route point), in one bench environment: P2000 monitors of
// three kinds and, one in 500, aircraft monitors with a circle of 1-10 km around a place.
const monitorPopulation = async () =>
  (
    await owner.query<{ all: number; aircraft: number }>(
      "select count(*)::int as all, count(*) filter (where type = 'aircraft')::int as aircraft from app_public.monitors",
    )
  ).rows[0];
const filling: Record<string, number> = {};
if ((await monitorPopulation()).all !== MONITORS) {
  log(`Creating ${MONITORS.toLocaleString("en")} monitors ...`);
  const started = performance.now();
  await owner.query("truncate app_public.monitors cascade");
  await owner.query(`delete from app_public.organizations where name = 'bench aircraft'`);
  const {
    rows: [{ environment }],
  } = await owner.query<{ environment: string }>(`
    with o as (insert into app_public.organizations (name) values ('bench aircraft') returning uuid)
    insert into app_public.environments (organization_uuid, name) select uuid, 'bench' from o returning uuid as environment`);
  await owner.query(
    `
    with places as materialized (select latitude, longitude, row_number() over (order by uuid) - 1 as n
                                   from app_public.places where latitude is not null),
         spec as (select i, i * 7919 as h, (i * 7919) % (select count(*) from places) as place_n,
                         case when i % 500 = 0 then 3 when i % 10 < 5 then 1 when i % 10 < 9 then 0 else 2 end as kind
                    from generate_series(0, $2::int - 1) i)
    insert into app_public.monitors (environment_uuid, name, type, query, latitude, longitude, radius)
    select $1::uuid, 'bench ' || s.i, case when s.kind = 3 then 'aircraft' else 'p2000' end,
           case s.kind
             when 0 then jsonb_build_object('disciplines', jsonb_build_array((array['Ambulance', 'Brandweer'])[1 + s.i % 2]),
                                            'urgencies', jsonb_build_array((array['A1', 'P1'])[1 + s.i % 2]))
             when 1 then jsonb_build_object('capcodes', jsonb_build_array(lpad((1000000 + s.h % 25000 * 37)::text, 7, '0'),
                                                                          lpad((1000000 + (s.h / 3) % 25000 * 37)::text, 7, '0')))
             when 2 then jsonb_build_object('keywords', jsonb_build_array('kerkstraat'), 'disciplines', jsonb_build_array('Brandweer'))
             else case when s.i % 1000 = 0 then jsonb_build_object('kinds', jsonb_build_array('trauma')) else '{}'::jsonb end
           end,
           case when s.kind in (0, 3) then p.latitude end, case when s.kind in (0, 3) then p.longitude end,
           case s.kind when 0 then 0.5 + (s.i % 6) / 2.0 when 3 then 1 + s.i % 10 end
      from spec s left join places p on p.n = s.place_n`,
    [environment, MONITORS],
  );
  await owner.query("analyze app_public.monitors");
  filling.monitorsSeconds = round((performance.now() - started) / 1000);
  log(`  in ${filling.monitorsSeconds} s`);
}
const monitors = await monitorPopulation();
log(`Monitors: ${monitors.all.toLocaleString("en")} (${monitors.aircraft} aircraft monitors with a circle)`);

// ------------------------------------------------------------------------------------------------
// The flights. Each aircraft flies a plan: cruising the whole time, on the ground until it takes
// off, or cruising until it lands. In the air it changes what it does every 10-60 s: straight on
// or a turn (3°/s, a standard-rate turn; police helicopters sometimes orbit at 6°/s), level or a
// climb or descent of 500-1,000 ft/min between 500 and 3,000 ft, at 100-140 kt; it turns back
// when it leaves the Netherlands. Positions are simulated every second.
interface Flyer {
  icao: string;
  registration: string;
  callsign: string;
  type: string;
  lat: number;
  lon: number;
  altFt: number;
  gsKt: number;
  track: number;
  verticalFtMin: number;
  onGround: boolean;
  plan: "cruise" | "depart" | "arrive";
  departAt: number;
  arriveAt: number;
  targetKt: number;
  turnRate: number;
  turnUntil: number;
  climbUntil: number;
  random: () => number;
}
const KT_TO_KM_PER_S = 1.852 / 3600;
const NL = { south: 50.85, north: 53.45, west: 3.5, east: 7.1 };

function makeFlyer(
  a: { icao: string; registration: string; callsign: string | null; type: string | null },
  index: number,
  plan: Flyer["plan"],
  seed: number,
  horizonSeconds: number,
): Flyer {
  const random = seeded(seed);
  const airborne = plan !== "depart";
  return {
    icao: a.icao,
    registration: a.registration,
    callsign: a.callsign ?? `LIFE${index + 1}`,
    type: a.type ?? "EC35",
    lat: between(random, 51.4, 53.0),
    lon: between(random, 4.2, 6.6),
    altFt: airborne ? Math.round(between(random, 800, 2500)) : 0,
    gsKt: airborne ? between(random, 100, 140) : 0,
    track: between(random, 0, 360),
    verticalFtMin: 0,
    onGround: !airborne,
    plan,
    departAt: plan === "depart" ? Math.floor(between(random, 10, horizonSeconds * 0.6)) : Infinity,
    arriveAt: plan === "arrive" ? Math.floor(between(random, 30, horizonSeconds * 0.7)) : Infinity,
    targetKt: between(random, 100, 140),
    turnRate: 0,
    turnUntil: 0,
    climbUntil: 0,
    random,
  };
}

/** One second (or `dt` seconds) of flight at time `t` (seconds since the start). */
function fly(f: Flyer, t: number, dt: number): void {
  const r = f.random;
  if (f.plan === "depart" && t < f.departAt) {
    f.gsKt = 0;
    f.altFt = 0;
    f.onGround = true;
    f.verticalFtMin = 0;
    return;
  }
  if (f.plan === "arrive" && t >= f.arriveAt) {
    if (f.onGround) return;
    // Approach: slow down by 2 kt/s, descending so as to touch down as the speed reaches zero.
    const secondsLeft = Math.max(dt, f.gsKt / 2);
    f.verticalFtMin = -(f.altFt / secondsLeft) * 60;
    f.gsKt = Math.max(0, f.gsKt - 2 * dt);
    f.altFt = Math.max(0, f.altFt + (f.verticalFtMin / 60) * dt);
    if (f.gsKt <= 0 || f.altFt <= 0) {
      f.gsKt = 0;
      f.altFt = 0;
      f.onGround = true;
      f.verticalFtMin = 0;
    }
  } else {
    f.onGround = false;
    if (f.plan === "depart" && t < f.departAt + 60) {
      // Take-off: climb at 1,000 ft/min, accelerate by 3 kt/s.
      f.verticalFtMin = 1000;
      f.gsKt = Math.min(f.targetKt, f.gsKt + 3 * dt);
    } else {
      if (t >= f.turnUntil) {
        const choice = r();
        f.turnRate = choice < 0.45 ? 0 : choice < 0.9 ? (r() < 0.5 ? -3 : 3) : r() < 0.5 ? -6 : 6;
        f.turnUntil = t + between(r, 10, 60);
        if (r() < 0.3) f.targetKt = between(r, 100, 140);
      }
      if (t >= f.climbUntil) {
        const choice = r();
        f.verticalFtMin = choice < 0.5 ? 0 : (choice < 0.75 ? 1 : -1) * between(r, 500, 1000);
        f.climbUntil = t + between(r, 15, 60);
      }
      if ((f.altFt >= 3000 && f.verticalFtMin > 0) || (f.altFt <= 500 && f.verticalFtMin < 0)) f.verticalFtMin = 0;
      f.gsKt += Math.sign(f.targetKt - f.gsKt) * Math.min(Math.abs(f.targetKt - f.gsKt), 1 * dt);
      // Back towards the middle of the country when it is about to leave it.
      if (f.lat < NL.south || f.lat > NL.north || f.lon < NL.west || f.lon > NL.east) {
        const home = (Math.atan2((5.3 - f.lon) * Math.cos((f.lat * Math.PI) / 180), 52.2 - f.lat) * 180) / Math.PI;
        const off = ((home - f.track + 540) % 360) - 180;
        f.turnRate = Math.abs(off) < 10 ? 0 : Math.sign(off) * 3;
        f.turnUntil = t + 5;
      }
    }
    f.altFt = Math.max(0, f.altFt + (f.verticalFtMin / 60) * dt);
    f.track = (f.track + f.turnRate * dt + 360) % 360;
  }
  const km = f.gsKt * KT_TO_KM_PER_S * dt;
  f.lat += (km * Math.cos((f.track * Math.PI) / 180)) / 111.2;
  f.lon += (km * Math.sin((f.track * Math.PI) / 180)) / (111.2 * Math.cos((f.lat * Math.PI) / 180));
}

/** A tracked aircraft as readsb writes it in aircraft.json. */
function entry(f: Flyer, seenPos: number, messages: number): Record<string, unknown> {
  const altitude = Math.round(f.altFt / 25) * 25;
  return {
    hex: f.icao,
    type: "adsb_icao",
    flight: f.callsign.padEnd(8),
    r: f.registration,
    t: f.type,
    alt_baro: f.onGround ? "ground" : altitude,
    ...(f.onGround ? {} : { alt_geom: altitude + 125, baro_rate: Math.round(f.verticalFtMin / 64) * 64 }),
    gs: round(f.gsKt, 1),
    track: round(f.track, 2),
    squawk: f.icao.startsWith("be") ? "7000" : "0020",
    emergency: "none",
    category: "A7",
    nav_qnh: 1013.6,
    lat: round(f.lat, 6),
    lon: round(f.lon, 6),
    nic: 8,
    rc: 186,
    seen_pos: seenPos,
    version: 2,
    nic_baro: 1,
    nac_p: 9,
    nac_v: 1,
    sil: 3,
    sil_type: "perhour",
    gva: 2,
    sda: 2,
    alert: 0,
    spi: 0,
    mlat: [],
    tisb: [],
    messages,
    seen: round(seenPos / 2, 1),
    rssi: round(-30 + f.random() * 12, 1),
  };
}

/** The untracked traffic a receiver in the middle of the country sees: airliners at altitude, a few
 * aircraft without a position, TIS-B targets. They move along straight lines. */
function untrackedTraffic(count: number, seed: number) {
  const random = seeded(seed);
  return Array.from({ length: count }, (_, i) => {
    const hex = `${["4ca", "3c6", "400", "440", "a0b", "4b1", "503"][i % 7]}${(0x100 + i * 37).toString(16).slice(-3)}`;
    const start = { lat: between(random, 50.5, 54), lon: between(random, 2.5, 8) };
    const track = between(random, 0, 360);
    const gs = between(random, 250, 480);
    const alt = Math.round(between(random, 30, 400)) * 100;
    const kind = i % 20 === 0 ? "no-position" : i % 25 === 1 ? "tisb" : "airliner";
    return (t: number): Record<string, unknown> => {
      const km = gs * KT_TO_KM_PER_S * t;
      const lat = start.lat + (km * Math.cos((track * Math.PI) / 180)) / 111.2;
      const lon = start.lon + (km * Math.sin((track * Math.PI) / 180)) / (111.2 * Math.cos((lat * Math.PI) / 180));
      if (kind === "no-position")
        return { hex, type: "adsb_icao", alt_baro: alt, gs: round(gs, 1), messages: 300 + t, seen: 0.8, rssi: -33.1 };
      if (kind === "tisb")
        return {
          hex: `~${hex.slice(1)}`,
          type: "tisb_other",
          lat: round(lat, 6),
          lon: round(lon, 6),
          alt_baro: alt,
          seen_pos: 1.2,
          seen: 1.2,
        };
      return {
        hex,
        type: "adsb_icao",
        flight: `KLM${1000 + i}`.padEnd(8),
        alt_baro: alt,
        alt_geom: alt + 250,
        gs: round(gs, 1),
        track: round(track, 2),
        baro_rate: 0,
        squawk: String(1000 + (i % 6000)).padStart(4, "0"),
        emergency: "none",
        category: "A3",
        nav_qnh: 1013.6,
        nav_altitude_mcp: alt,
        lat: round(lat, 6),
        lon: round(lon, 6),
        nic: 8,
        rc: 186,
        seen_pos: round(random() * 2, 1),
        version: 2,
        nic_baro: 1,
        nac_p: 9,
        nac_v: 1,
        sil: 3,
        sil_type: "perhour",
        gva: 2,
        sda: 2,
        alert: 0,
        spi: 0,
        mlat: [],
        tisb: [],
        messages: 1200 + t * 4,
        seen: 0.1,
        rssi: round(-25 - random() * 10, 1),
      };
    };
  });
}

// 30 aircraft, all doing something for the whole run: 18 cruising, 6 taking off, 6 landing.
// As shipped (warm-up, tracked aircraft alone, with untracked traffic, paced), then without the
// aircraft monitors' index (warm-up, tracked aircraft alone).
const TOTAL_SECONDS = 2 * (WARM_UP_DOCUMENTS + DOCUMENTS) + RECEIVER_DOCUMENTS + PACED;
const flyers = fleet.map((a, i) =>
  makeFlyer(a, i, i % 5 === 1 ? "depart" : i % 5 === 3 ? "arrive" : "cruise", 1000 + i, TOTAL_SECONDS),
);
const traffic = untrackedTraffic(UNTRACKED, 77);
// The documents end now (the positions are live: take-offs and landings queue matching jobs, as
// in production, and the worker of the service started later runs them before the measurements).
const START_MS = Math.floor(Date.now() / 1000 - TOTAL_SECONDS - 5) * 1000;
let messageCounter = 100_000;
function documentAt(t: number, withTraffic: boolean): string {
  for (const f of flyers) fly(f, t, 1);
  const aircraft = flyers.map((f) => entry(f, round(0.1 + f.random() * 0.8, 1), 4000 + t * 4));
  if (withTraffic) aircraft.push(...traffic.map((at) => at(t)));
  messageCounter += aircraft.length * 5;
  return JSON.stringify({ now: START_MS / 1000 + t + 0.5, messages: messageCounter, aircraft });
}

// ------------------------------------------------------------------------------------------------
// 1. Ingestion, on one connection as the poller has it; every document built beforehand. As
// shipped: warm-up, the 30 tracked aircraft alone, with a receiver's untracked traffic, and paced
// at one document per wall-clock second (with the untracked traffic). Then, for comparison,
// without the aircraft monitors' index: the 30 tracked aircraft again in one transaction that drops
// the index of the monitors' reach first and is rolled back at the end (the index stays, whatever
// happens to this run; without a commit per document that run saves the commits' small cost).
const documents: Array<{ t: number; text: string }> = [];
for (let t = 0; t < TOTAL_SECONDS; t++) {
  documents.push({
    t,
    text: documentAt(
      t,
      t >= WARM_UP_DOCUMENTS + DOCUMENTS && t < WARM_UP_DOCUMENTS + DOCUMENTS + RECEIVER_DOCUMENTS + PACED,
    ),
  });
}
const ingester = new pg.Client({ connectionString: database.ownerUrl });
await ingester.connect();
const SHIPPED_INDEX = "app_hidden.aircraft_monitor_criteria_reach_idx"; // migration 000101
const shippedIndex = (
  await owner.query<{ found: boolean }>("select to_regclass($1) is not null as found", [SHIPPED_INDEX])
).rows[0].found;
{
  // Written now rather than by the checkpointer in the middle of the measurements; statistics fresh.
  const root = new pg.Client({ connectionString: superuserUrl });
  await root.connect();
  await root.query("vacuum analyze app_public.monitors, app_public.aircraft_fleet, app_public.places");
  await root.query("checkpoint");
  await root.end();
}

// The plans of one document's ingestion: the document after the last one stored, rolled back (in
// a transaction of its own, or in the one the client is in), under auto_explain (the statements
// inside the function and its triggers, instrumented). The statements that took longest, with their
// calls and plans. `superuser`: a superuser's connection (auto_explain is loaded by LOAD).
async function explainIngest(config: string, text: string, superuser?: pg.Client) {
  const explainer = superuser ?? new pg.Client({ connectionString: superuserUrl });
  if (!superuser) await explainer.connect();
  const explain = await autoExplain(explainer);
  await explainer.query(superuser ? "savepoint explained" : "begin");
  const result = await ingestAircraftDocument(explainer, text, SOURCE);
  await explainer.query(superuser ? "rollback to savepoint explained" : "rollback");
  await explain.stop();
  if (!superuser) await explainer.end();
  const statements = new Map<string, { query: string; calls: number; milliseconds: number; plan: string[] }>();
  let total = 0;
  for (const { query, milliseconds, plan } of explain.statements(160)) {
    if (query.startsWith("select app_private.ingest_aircraft_positions")) {
      total = milliseconds;
      continue;
    }
    const seen = statements.get(query) ?? { query, calls: 0, milliseconds: 0, plan };
    seen.calls++;
    seen.milliseconds = round(seen.milliseconds + milliseconds, 3);
    statements.set(query, seen);
  }
  const top = [...statements.values()].sort((a, b) => b.milliseconds - a.milliseconds).slice(0, 4);
  log(
    `\nEXPLAIN (ANALYZE, BUFFERS) of one document's ingestion, ${config}: ${total} ms, ${result.stored} positions; the longest statements:`,
  );
  for (const statement of top) {
    log(`  ${statement.milliseconds} ms in ${statement.calls} calls  ${statement.query}`);
    for (const line of statement.plan) log(`      ${line}`);
  }
  return { config, milliseconds: total, positions: result.stored, statements: top };
}
const ingestPlans: Array<Awaited<ReturnType<typeof explainIngest>>> = [];

interface IngestRun {
  config: string;
  name: string;
  documents: number;
  aircraftPerDocument: number;
  bytesPerDocument: number;
  positionsStored: number;
  pointsKept: number;
  takeOffs: number;
  landings: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  meanMs: number;
  cpuMsPerDocument: { bench: number; postgres: number; total: number };
  coreShareAtOnePerSecond: number;
  /** Busy time of anything else on the machine meanwhile, as a share of both cores (another benchmark would show here). */
  otherShare: number;
}
const otherShare = (a: CpuSample, b: CpuSample) => {
  const total = b.total - a.total;
  const other =
    total -
    (b.idle - a.idle) -
    (b.steal - a.steal) -
    (b.interrupts - a.interrupts) -
    (b.bench - a.bench) -
    (b.postgres - a.postgres);
  return round((100 * Math.max(0, other)) / total, 0);
};
const pointCount = async (client: pg.ClientBase) =>
  (await client.query<{ n: number }>("select count(*)::int as n from app_public.aircraft_route_points")).rows[0].n;
async function ingestRun(
  client: pg.ClientBase,
  config: string,
  name: string,
  batch: typeof documents,
): Promise<IngestRun> {
  if (name !== "warm-up") await awaitQuiet(`${config}, ${name}`);
  const latencies: number[] = [];
  let stored = 0,
    takeOffs = 0,
    landings = 0;
  const pointsBefore = await pointCount(client);
  const before = cpuSample(undefined)!;
  for (const document of batch) {
    const started = performance.now();
    const result = await ingestAircraftDocument(client, document.text, SOURCE);
    latencies.push(performance.now() - started);
    stored += result.stored;
    takeOffs += result.takeOffs;
    landings += result.landings;
  }
  const after = cpuSample(undefined)!;
  const sorted = [...latencies].sort((a, b) => a - b);
  const perDocument = (ticks: number) => round((ticks * TICK_MS) / batch.length, 2);
  const bench = perDocument(after.bench - before.bench);
  const postgres = perDocument(after.postgres - before.postgres);
  const run: IngestRun = {
    config,
    name,
    documents: batch.length,
    aircraftPerDocument: (JSON.parse(batch[0].text) as { aircraft: unknown[] }).aircraft.length,
    bytesPerDocument: Math.round(batch.reduce((sum, d) => sum + d.text.length, 0) / batch.length),
    positionsStored: stored,
    pointsKept: (await pointCount(client)) - pointsBefore,
    takeOffs,
    landings,
    p50: round(percentile(sorted, 50), 2),
    p95: round(percentile(sorted, 95), 2),
    p99: round(percentile(sorted, 99), 2),
    max: round(sorted.at(-1)!, 2),
    meanMs: round(latencies.reduce((a, b) => a + b, 0) / latencies.length, 2),
    cpuMsPerDocument: { bench, postgres, total: round(bench + postgres, 2) },
    coreShareAtOnePerSecond: round(((bench + postgres) / 1000) * 100, 2),
    otherShare: otherShare(before, after),
  };
  log(
    `${config}, ${name}: ${run.documents} documents of ${run.aircraftPerDocument} aircraft (${run.bytesPerDocument} bytes), ` +
      `${stored} positions stored, ${run.pointsKept} points kept, ${takeOffs} take-offs, ${landings} landings; per document p50 ${run.p50} ms, ` +
      `p95 ${run.p95} ms, p99 ${run.p99} ms, max ${run.max} ms; CPU per document ${run.cpuMsPerDocument.total} ms (this process ${bench}, ` +
      `PostgreSQL ${postgres}): ${run.coreShareAtOnePerSecond}% of a core at 1/s; others on the machine ${run.otherShare}% of the cores`,
  );
  return run;
}

/** At the receiver's pace, one document a second of wall clock: everything this process and PostgreSQL
 * (with its background processes) spent in the window, and in as long a window idle before it. */
async function pacedRun(config: string, batch: typeof documents) {
  await awaitQuiet(`${config}, paced`);
  const idleSeconds = Math.min(batch.length, 10);
  const idleBefore = cpuSample(undefined)!;
  await new Promise((resolve) => setTimeout(resolve, idleSeconds * 1000));
  const idleAfter = cpuSample(undefined)!;
  const latencies: number[] = [];
  const before = cpuSample(undefined)!;
  const started = performance.now();
  for (let i = 0; i < batch.length; i++) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + i * 1000 - performance.now())));
    const at = performance.now();
    await ingestAircraftDocument(ingester, batch[i].text, SOURCE);
    latencies.push(performance.now() - at);
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + batch.length * 1000 - performance.now())));
  const after = cpuSample(undefined)!;
  const seconds = (performance.now() - started) / 1000;
  const share = (a: CpuSample, b: CpuSample, s: number) =>
    round(((b.bench - a.bench + b.postgres - a.postgres) * TICK_MS) / (s * 10), 2);
  latencies.sort((a, b) => a - b);
  const run = {
    config,
    seconds: round(seconds),
    documents: batch.length,
    idleCoreShare: share(idleBefore, idleAfter, idleSeconds),
    coreShare: share(before, after, seconds),
    p50: round(percentile(latencies, 50), 2),
    p99: round(percentile(latencies, 99), 2),
    otherShare: otherShare(before, after),
  };
  log(
    `${config}, paced at 1 document/s for ${run.seconds} s (30 tracked + ${UNTRACKED} untracked): this process + PostgreSQL ` +
      `${run.coreShare}% of one core (idle before: ${run.idleCoreShare}%); per document p50 ${run.p50} ms, p99 ${run.p99} ms; ` +
      `others on the machine ${run.otherShare}% of the cores`,
  );
  return run;
}

const SHIPPED = "as shipped";
const BEFORE = "without the monitors' reach index (dropped)";
const ingestRuns: IngestRun[] = [];
const pacedRuns: Array<Awaited<ReturnType<typeof pacedRun>>> = [];
let cursor = 0;
const take = (n: number) => documents.slice(cursor, (cursor += n));
log(`Ingesting ${WARM_UP_DOCUMENTS + DOCUMENTS + RECEIVER_DOCUMENTS + PACED} s of 30 aircraft, ${SHIPPED} ...`);
await ingestRun(ingester, SHIPPED, "warm-up", take(WARM_UP_DOCUMENTS));
ingestRuns.push(await ingestRun(ingester, SHIPPED, "30 tracked aircraft", take(DOCUMENTS)));
if (RECEIVER_DOCUMENTS > 0)
  ingestRuns.push(
    await ingestRun(ingester, SHIPPED, `30 tracked + ${UNTRACKED} untracked aircraft`, take(RECEIVER_DOCUMENTS)),
  );
if (PACED > 0) pacedRuns.push(await pacedRun(SHIPPED, take(PACED)));
ingestPlans.push(await explainIngest(SHIPPED, documents[cursor].text));
if (shippedIndex) {
  log(`Ingesting ${WARM_UP_DOCUMENTS + DOCUMENTS} s of 30 aircraft, ${BEFORE}, rolled back ...`);
  const before = new pg.Client({ connectionString: superuserUrl });
  await before.connect();
  try {
    await before.query("begin");
    await before.query(`drop index ${SHIPPED_INDEX}`);
    await ingestRun(before, BEFORE, "warm-up", take(WARM_UP_DOCUMENTS));
    ingestRuns.push(await ingestRun(before, BEFORE, "30 tracked aircraft", take(DOCUMENTS)));
    ingestPlans.push(await explainIngest(BEFORE, documentAt(TOTAL_SECONDS, false), before));
  } finally {
    await before.query("rollback");
    await before.end();
  }
} else {
  log(`(${SHIPPED_INDEX} is not there: no comparison without it)`);
}
const {
  rows: [ingested],
} = await owner.query(`
  select (select count(*)::int from app_public.aircraft_routes) as routes, (select count(*)::int from app_public.aircraft_route_points) as points,
         (select count(*)::int from app_public.aircraft_events where kind = 'take_off') as take_offs,
         (select count(*)::int from app_public.aircraft_events where kind = 'landing') as landings,
         (select count(*)::int from app_public.aircraft_events where kind = 'overhead') as overhead,
         (select count(*)::int from app_public.aircraft_states where state = 'airborne') as airborne,
         (select count(*)::int from graphile_worker.jobs) as jobs`);
log(
  `After ingestion: ${ingested.routes} routes, ${ingested.points} points, events ${ingested.take_offs} take-offs / ${ingested.landings} landings / ` +
    `${ingested.overhead} overhead, ${ingested.airborne} airborne at the end, ${ingested.jobs} queued jobs`,
);

// ------------------------------------------------------------------------------------------------
// 2. The long route: one flight of the route aircraft through the same path, one document every
// 5 s: a minute on the ground,
// take-off, a minute's climb, cruise until the route nearly has its points, approach, landing and
// 90 s on the ground. At 100 kt or more each cruise position is 257 m or more from the last, so
// each is kept.
const APPROACH_POINTS = 11; // points the approach and landing add (checked below)
const routeFlyer = makeFlyer({ ...ROUTE_AIRCRAFT }, 0, "depart", 4242, 0);
routeFlyer.departAt = 60;
const routeDocumentsEstimate = ROUTE_POINTS + 60;
const ROUTE_START_MS = Math.floor(START_MS / 1000 - routeDocumentsEstimate * ROUTE_STEP_SECONDS - 3600) * 1000;
let routeT = 0;
let routeDocuments = 0;
const routeStarted = performance.now();
async function routeStep(): Promise<void> {
  fly(routeFlyer, routeT, routeT === 0 ? 0 : ROUTE_STEP_SECONDS);
  const text = JSON.stringify({
    now: ROUTE_START_MS / 1000 + routeT + 0.5,
    messages: 1000 + routeT,
    aircraft: [entry(routeFlyer, round(0.1 + routeFlyer.random() * 0.8, 1), 500 + routeT)],
  });
  await ingestAircraftDocument(ingester, text, SOURCE);
  routeDocuments++;
  routeT += ROUTE_STEP_SECONDS;
}
const routeOf = async () =>
  (
    await owner.query<{ uuid: string | null; points: number }>(
      `
  select s.route_uuid as uuid, coalesce(r.point_count, 0) as points from app_public.aircraft_states s
    left join app_public.aircraft_routes r on r.uuid = s.route_uuid where s.icao = $1`,
      [ROUTE_AIRCRAFT.icao],
    )
  ).rows[0];
while (routeT <= routeFlyer.departAt + 60) await routeStep();
const routeUuid = (await routeOf()).uuid;
if (!routeUuid) throw new Error("The route aircraft did not take off.");
for (let n = ROUTE_POINTS - (await routeOf()).points - APPROACH_POINTS; n > 0; n--) await routeStep();
routeFlyer.plan = "arrive";
routeFlyer.arriveAt = routeT;
while (!routeFlyer.onGround) await routeStep();
for (let i = 0; i < 90 / ROUTE_STEP_SECONDS; i++) await routeStep();
const routeBuildSeconds = round((performance.now() - routeStarted) / 1000);
const {
  rows: [route],
} = await owner.query(
  `
  select r.uuid, r.status, r.took_off_at, r.landed_at, r.point_count, (select count(*)::int from app_public.aircraft_route_points p where p.route_uuid = r.uuid) as points,
         (select count(*)::int from app_public.aircraft_route_log l where l.route_uuid = r.uuid) as log_entries,
         extract(epoch from r.landed_at - r.took_off_at)::int / 60 as minutes
    from app_public.aircraft_routes r where r.uuid = $1`,
  [routeUuid],
);
log(
  `Route ${route.uuid}: ${route.points} points (point_count ${route.point_count}), ${route.log_entries} log entries, ${route.status}, ` +
    `${route.minutes} minutes in the air; ${routeDocuments} documents in ${routeBuildSeconds} s`,
);
if (route.status !== "completed" || route.points !== route.point_count)
  throw new Error("The long route did not come out as planned.");
{
  const root = new pg.Client({ connectionString: superuserUrl });
  await root.connect();
  await root.query(
    "vacuum analyze app_public.aircraft_routes, app_public.aircraft_route_points, app_public.aircraft_route_log, app_public.aircraft_states",
  );
  await root.query("checkpoint");
  await root.end();
}
await ingester.end();

// ------------------------------------------------------------------------------------------------
// 3. aircraftRoute over HTTP, next to the statement PostGraphile sends for it through pg.
// For comparison, created for this part only and dropped at the end: `benchPathBuilt`, the path
// built from the points on every request as migration 000023 did (000026 keeps it once the route
// is completed).
await owner.query(`
  create function app_public.aircraft_routes_bench_path_built(r app_public.aircraft_routes) returns text
    language sql stable parallel safe security definer
    set search_path to pg_catalog, public, pg_temp
  as $$
    select app_hidden.aircraft_route_path_built(r.uuid)
  $$;
  comment on function ${PROPOSED_FUNCTIONS[0]} is E'@notNull\\nBench comparison: path built from the points on every request (000023).';
  grant execute on function ${PROPOSED_FUNCTIONS[0]} to app_visitor`);

// The statements PostGraphile sends for these queries (as its debug log, DEBUG=@dataplan/pg:PgExecutor,
// shows them): one row, the points as a text[][] literal (or the JSON) and the log beside it.
const sqlFor = (points: string) => `select __aircraft_route__."uuid" as "0",
  to_char(__aircraft_route__."took_off_at", 'YYYY-MM-DD"T"HH24:MI:SS.USTZH:TZM'::text) as "1",
  to_char(__aircraft_route__."landed_at", 'YYYY-MM-DD"T"HH24:MI:SS.USTZH:TZM'::text) as "2",
  ${points} as "3",
  array(select array[to_char(__aircraft_routes_log__."at", 'YYYY-MM-DD"T"HH24:MI:SS.USTZH:TZM'::text), __aircraft_routes_log__."kind",
    __aircraft_routes_log__."message", __aircraft_routes_log__."place"]::text[]
    from "app_public"."aircraft_routes_log"(__aircraft_route__) as __aircraft_routes_log__)::text as "4"
  from "app_public"."aircraft_route"($1::"app_public"."aircraft_route_ref") as __aircraft_route__`;
const LOG_FIELDS = "log { at kind message place }";
const scenarios = [
  {
    name: "points, 6 fields (as shipped)",
    key: "points",
    query: `query ($uuid: String!) { aircraftRoute(route: { uuid: $uuid }) { uuid tookOffAt landedAt points { at latitude longitude altitudeFt groundSpeedKt track } ${LOG_FIELDS} } }`,
    sql: sqlFor(`array(select array[to_char(__aircraft_routes_points__."at", 'YYYY-MM-DD"T"HH24:MI:SS.USTZH:TZM'::text),
      __aircraft_routes_points__."latitude"::text, __aircraft_routes_points__."longitude"::text, __aircraft_routes_points__."altitude_ft"::text,
      __aircraft_routes_points__."ground_speed_kt"::text, __aircraft_routes_points__."track"::text]::text[]
      from "app_public"."aircraft_routes_points"(__aircraft_route__) as __aircraft_routes_points__)::text`),
  },
  {
    name: "points, 2 fields (latitude longitude)",
    key: "points2",
    query: `query ($uuid: String!) { aircraftRoute(route: { uuid: $uuid }) { uuid tookOffAt landedAt points { latitude longitude } ${LOG_FIELDS} } }`,
    sql: undefined,
  },
  {
    name: "path (as shipped, 000026: kept)",
    key: "path",
    query: `query ($uuid: String!) { aircraftRoute(route: { uuid: $uuid }) { uuid tookOffAt landedAt path ${LOG_FIELDS} } }`,
    sql: sqlFor(`"app_public"."aircraft_routes_path"(__aircraft_route__)`),
  },
  {
    name: "path built on every request (000023)",
    key: "benchPathBuilt",
    query: `query ($uuid: String!) { aircraftRoute(route: { uuid: $uuid }) { uuid tookOffAt landedAt benchPathBuilt ${LOG_FIELDS} } }`,
    sql: sqlFor(`"app_public"."aircraft_routes_bench_path_built"(__aircraft_route__)`),
  },
];

const service = await startServerProcess({ dataDir: DATA_DIR, pgPort: config.database.embeddedPgPort });
const apiToken = (
  await createApiToken(owner, { environmentUuid: database.operatorEnvironmentUuid, name: "bench", scopes: [] })
).plainToken;
const headers = { "content-type": "application/json", authorization: `Bearer ${apiToken}` };
const servicePid = findServicePid();

async function graphql(
  query: string,
  variables: Record<string, unknown>,
): Promise<{ data: Record<string, unknown>; bytes: number }> {
  const response = await fetch(service.graphqlUrl, {
    method: "POST",
    headers,
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  const body = JSON.parse(text) as { data: Record<string, unknown>; errors?: Array<{ message: string }> };
  if (body.errors) throw new Error(body.errors[0].message);
  return { data: body.data, bytes: Buffer.byteLength(text) };
}

/** Closed-loop HTTP load (http-load.ts), the same request throughout; the latency of every answer, in ms. */
async function httpLoad(clients: number, seconds: number, query: string, warmUp = false) {
  if (!warmUp) await awaitQuiet(`HTTP at ${clients} clients`);
  return loadOverHttp({
    url: service.graphqlUrl,
    headers,
    clients,
    seconds,
    body: JSON.stringify({ query, variables: { uuid: routeUuid } }),
    // A GraphQL error comes with status 200: it counts as a mismatch (the start of the answer tells).
    hasErrors: (text) => text.startsWith('{"errors"'),
    cpu: { sample: cpuSample, servicePid },
  });
}

const visitor = new pg.Pool({ connectionString: database.authUrl, max: Math.max(...CLIENTS) });
visitor.on("error", () => {});
/** Closed-loop load through pg: each statement in a transaction as app_visitor, as the server runs it. */
async function sqlLoad(clients: number, seconds: number, sql: string) {
  await awaitQuiet(`SQL at ${clients} clients`);
  const before = cpuSample(undefined);
  const { latencies, errors } = await closedLoop(clients, seconds, async () => {
    const client = await visitor.connect();
    try {
      await client.query("begin");
      await client.query("select set_config('role', 'app_visitor', true)");
      await client.query(sql, [`(${routeUuid})`]);
      await client.query("commit");
    } finally {
      client.release();
    }
  });
  return { ...summary(latencies, seconds), errors, cpu: cpuSplit(before, cpuSample(undefined), latencies.length) };
}

// One answer of each checked first: the route with all its points, in time order, and its log.
const answerBytes: Record<string, number> = {};
for (const scenario of scenarios) {
  const { data, bytes } = await graphql(scenario.query, { uuid: routeUuid });
  const answer = data.aircraftRoute as {
    uuid: string;
    points?: Array<{ latitude: number }>;
    path?: string;
    benchPathBuilt?: string;
    log: Array<{ kind: string }>;
  };
  const points = answer.points ?? (JSON.parse(answer.path ?? answer.benchPathBuilt ?? "[]") as number[][]);
  if (
    answer.uuid !== routeUuid ||
    points.length !== route.points ||
    answer.log.map((l) => l.kind).join() !== "take_off,landing"
  ) {
    throw new Error(`aircraftRoute (${scenario.name}) did not give the route's ${route.points} points and its log`);
  }
  answerBytes[scenario.key] = bytes;
}
log(
  `Check: aircraftRoute gives ${route.points} points and the log (take-off, landing); answers ` +
    scenarios.map((s) => `${s.name} ${answerBytes[s.key].toLocaleString("en")} bytes`).join(", "),
);

const reads: Array<{
  operation: string;
  key: string;
  clients: number;
  seconds: number;
  http: Awaited<ReturnType<typeof httpLoad>>;
  sql?: Awaited<ReturnType<typeof sqlLoad>>;
}> = [];
for (const scenario of scenarios) {
  await httpLoad(Math.max(...CLIENTS), WARM_UP_SECONDS, scenario.query, true); // every connection of the server's pool prepares its plans
  for (const clients of CLIENTS) {
    const http = await httpLoad(clients, SECONDS, scenario.query);
    const sql = scenario.sql ? await sqlLoad(clients, SECONDS, scenario.sql) : undefined;
    reads.push({ operation: scenario.name, key: scenario.key, clients, seconds: SECONDS, http, sql });
    log(
      `aircraftRoute, ${scenario.name} @${clients}: HTTP ${http.rps}/s, p50 ${http.p50} ms, p95 ${http.p95} ms, p99 ${http.p99} ms, ` +
        `max ${http.max} ms, ${http.bytesPerAnswer} bytes${http.errors ? ` (${http.errors} errors)` : ""}` +
        (sql ? ` | SQL ${sql.rps}/s, p50 ${sql.p50} ms, p99 ${sql.p99} ms` : ""),
    );
    log(`  HTTP ${describeCpu(http.cpu)}`);
  }
}
await service.stop();
await visitor.end();

// The SQL time of one call: REPEAT calls in one statement as the visitor, the second of two runs;
// no round trips, no instrumentation (each call reads the route anew: the lateral subquery
// refers to the series).
const REPEAT = 200;
const perCall: Record<string, number> = {};
{
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  await client.query("set role app_visitor");
  for (const scenario of scenarios.filter((s) => s.sql)) {
    await awaitQuiet(`SQL per call, ${scenario.name}`);
    const inner = scenario.sql!.replace("$1::", `(case when g > 0 then '(${routeUuid})' end)::`);
    const sql = `select sum(length(t."3") + length(t."4")) from generate_series(1, ${REPEAT}) g, lateral (${inner}) t`;
    await client.query(sql);
    const started = performance.now();
    await client.query(sql);
    perCall[scenario.key] = round((performance.now() - started) / REPEAT, 2);
    log(`SQL per call (${REPEAT} in one statement): ${scenario.name} ${perCall[scenario.key]} ms`);
  }
  await client.end();
}

// The plans: each statement as the visitor under auto_explain (ANALYZE, BUFFERS, the statements
// inside the functions with their cached plans), after a few calls.
const plans: Array<{
  operation: string;
  key: string;
  milliseconds: number;
  statements: Array<{ query: string; milliseconds: number; plan: string[] }>;
}> = [];
{
  const explainer = new pg.Client({ connectionString: superuserUrl });
  await explainer.connect();
  const explain = await autoExplain(explainer, "set role app_visitor");
  for (const scenario of scenarios.filter((s) => s.sql)) {
    for (let i = 0; i < 6; i++)
      await explainer.query({ name: scenario.key, text: scenario.sql!, values: [`(${routeUuid})`] });
    explain.clear();
    await explainer.query({ name: scenario.key, text: scenario.sql!, values: [`(${routeUuid})`] });
    const statements = explain.statements(160).map(({ query, milliseconds, plan }) => ({ query, milliseconds, plan }));
    const top = statements.at(-1)!; // auto_explain reports the outer statement last
    plans.push({ operation: scenario.name, key: scenario.key, milliseconds: top.milliseconds, statements });
    log(`\nEXPLAIN (ANALYZE, BUFFERS) aircraftRoute, ${scenario.name}, as app_visitor: ${top.milliseconds} ms`);
    for (const statement of statements) {
      log(`  ${statement.milliseconds} ms  ${statement.query}`);
      for (const line of statement.plan) log(`      ${line}`);
    }
  }
  await explainer.end();
}
await dropProposals();

// ------------------------------------------------------------------------------------------------
// The figures, against the goals.
const shipped = ingestRuns.filter((r) => r.config === SHIPPED);
const beforeIndex = ingestRuns.filter((r) => r.config === BEFORE);
const ingestVerdict = (runs: IngestRun[]) =>
  runs
    .map(
      (r) =>
        `${r.name}: ${r.coreShareAtOnePerSecond}% (${r.coreShareAtOnePerSecond < GOAL_CORE_SHARE ? "met" : "NOT met"})`,
    )
    .join("; ");
const readVerdict = (clients: number) =>
  reads
    .filter((r) => r.clients === clients)
    .map((r) => `${r.operation}: p99 ${r.http.p99} ms (${r.http.p99 < GOAL_P99_MS ? "met" : "NOT met"})`)
    .join("; ");
log(
  `\nGoal, ingestion: under ${GOAL_CORE_SHARE}% of one core at one document a second. As shipped: ${ingestVerdict(shipped)}. ` +
    `Before 000023: ${ingestVerdict(beforeIndex)}.`,
);
log(
  `Goal, aircraftRoute with ${route.points} points: under ${GOAL_P99_MS} ms p99. At ${GOAL_CLIENTS} clients: ${readVerdict(GOAL_CLIENTS)}. ` +
    `At 1 client: ${readVerdict(1)}.`,
);

const result = {
  date: new Date().toISOString(),
  machine: machine(),
  monitors,
  filling,
  documents: {
    warmUp: WARM_UP_DOCUMENTS,
    tracked: DOCUMENTS,
    receiver: RECEIVER_DOCUMENTS,
    untracked: UNTRACKED,
    paced: PACED,
  },
  ingested,
  ingestRuns,
  pacedRuns,
  route: { ...route, documents: routeDocuments, stepSeconds: ROUTE_STEP_SECONDS, buildSeconds: routeBuildSeconds },
  answerBytes,
  waits,
  ingestPlans,
  goal: { coreShare: GOAL_CORE_SHARE, p99Ms: GOAL_P99_MS, clients: GOAL_CLIENTS },
  clients: CLIENTS,
  seconds: SECONDS,
  reads,
  perCall,
  plans,
  shippedIndex: shippedIndex ? SHIPPED_INDEX : null,
  proposals: { functions: PROPOSED_FUNCTIONS },
};
const cpuCell = (p: { msPerRequest: number; share: number }) => `${p.msPerRequest} (${p.share}%)`;
log(
  `\nWrote ${writeResults("aircraft", "aircraft-latest.md", result, [
    `Aircraft benchmark, ${result.date.slice(0, 10)}, ${result.machine}: 30 tracked aircraft (the 20 of data/aircraft-fleet.csv and 10 bench ones) ` +
      `flying at once, one aircraft.json document a second of their time through ingestAircraftDocument on one connection; ` +
      `${monitors.all.toLocaleString("en")} monitors (${monitors.aircraft} aircraft monitors with a circle). Then a route of ${route.points.toLocaleString("en")} points ` +
      `(${routeDocuments.toLocaleString("en")} documents, one per ${ROUTE_STEP_SECONDS} s, ${route.minutes} minutes in the air; built in ${routeBuildSeconds} s) ` +
      `asked by aircraftRoute over HTTP (API token; the service in its own process on the same two cores as the load generator and PostgreSQL), ` +
      `${SECONDS} s per measurement after ${WARM_UP_SECONDS} s of warm-up, beside the statement PostGraphile sends, through pg as app_visitor.`,
    "",
    "Ingestion (CPU of this process and PostgreSQL per document; the share of one core at one document a second):",
    "",
    "| configuration | documents | aircraft per document | bytes | points kept | p50 ms | p95 ms | p99 ms | CPU ms per document (bench + PostgreSQL) | share of one core at 1/s | others on the machine |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...ingestRuns.map(
      (r) =>
        `| ${r.config}, ${r.name} | ${r.documents} | ${r.aircraftPerDocument} | ${r.bytesPerDocument} | ${r.pointsKept} | ${r.p50} | ${r.p95} | ` +
        `${r.p99} | ${r.cpuMsPerDocument.total} (${r.cpuMsPerDocument.bench} + ${r.cpuMsPerDocument.postgres}) | **${r.coreShareAtOnePerSecond}%** | ${r.otherShare}% |`,
    ),
    ...pacedRuns.map(
      (r) =>
        `| ${r.config}, paced 1/s for ${r.seconds} s, 30 tracked + ${UNTRACKED} untracked | ${r.documents} | ${30 + UNTRACKED} | | | ${r.p50} | | ` +
        `${r.p99} | | **${r.coreShare}%** (idle before ${r.idleCoreShare}%) | ${r.otherShare}% |`,
    ),
    "",
    `Goal: under ${GOAL_CORE_SHARE}% of one core. As shipped (with ${SHIPPED_INDEX}): ${ingestVerdict(shipped)}. ` +
      `Before migration 000023 (that index dropped in a transaction rolled back at the end, so no commit per document): ${ingestVerdict(beforeIndex) || "not measured"}.`,
    "",
    "One document's ingestion under auto_explain (rolled back; instrumentation adds to the times), the overhead trigger's statement " +
      "(statement-level, after each route point's insert):",
    "",
    "| configuration | one document ms (positions) | trigger statement: calls | ms | how it finds the aircraft monitors |",
    "| --- | --- | --- | --- | --- |",
    ...ingestPlans.map((p) => {
      const trigger = p.statements.find((s) => s.plan.some((line) => / on monitors/.test(line)));
      return (
        `| ${p.config} | ${p.milliseconds} (${p.positions}) | ${trigger?.calls ?? "-"} | ${trigger?.milliseconds ?? "-"} | ` +
        `${
          (trigger?.plan ?? [])
            .filter((line) => / on monitors|monitors_aircraft/.test(line))
            .map((line) => line.trim())
            .join("; ") || "-"
        } |`
      );
    }),
    "",
    `aircraftRoute(route: { uuid }) with ${route.points.toLocaleString("en")} points and ${route.log_entries} log entries:`,
    "",
    "| fields | clients | HTTP req/s | HTTP p50 ms | HTTP p95 ms | HTTP p99 ms | answer bytes | SQL req/s | SQL p50 ms | SQL p99 ms | SQL ms per call |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...reads.map(
      (r) =>
        `| ${r.operation} | ${r.clients} | ${r.http.rps} | ${r.http.p50} | ${r.http.p95} | **${r.http.p99}** | ${r.http.bytesPerAnswer} | ` +
        `${r.sql?.rps ?? ""} | ${r.sql?.p50 ?? ""} | ${r.sql?.p99 ?? ""} | ${perCall[r.key] ?? ""} |`,
    ),
    "",
    `SQL ms per call: ${REPEAT} calls in one statement as app_visitor (no round trips, no instrumentation).`,
    "",
    "Where the two cores went during the HTTP runs (ms of CPU per request, and share of the cores' time):",
    "",
    "| fields | clients | service process | PostgreSQL | load generator | kernel interrupts | other | idle |",
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...reads
      .filter((r) => r.http.cpu)
      .map((r) => {
        const c = r.http.cpu!;
        return (
          `| ${r.operation} | ${r.clients} | ${cpuCell(c.service)} | ${cpuCell(c.postgres)} | ${cpuCell(c.loadGenerator)} | ${cpuCell(c.interrupts)} | ` +
          `${cpuCell(c.other)} | ${c.idle.share}% |`
        );
      }),
    "",
    `Errors (transport, non-200 or GraphQL errors): ${reads.reduce((sum, r) => sum + r.http.errors, 0)}. Waiting for a quiet machine (under 10% busy ` +
      `for 2 s) before each measurement: ${round(waits.reduce((sum, w) => sum + w.seconds, 0))} s in all` +
      `${
        waits.some((w) => !w.quiet)
          ? `; measured while still busy: ${waits
              .filter((w) => !w.quiet)
              .map((w) => w.before)
              .join(", ")}`
          : ""
      }.`,
    "",
    `Goal: under ${GOAL_P99_MS} ms p99. At ${GOAL_CLIENTS} clients: ${readVerdict(GOAL_CLIENTS)}. At 1 client: ${readVerdict(1)}.`,
    "",
    "| statement (as app_visitor, under auto_explain) | execution ms | statements inside (ms) |",
    "| --- | --- | --- |",
    ...plans.map(
      (p) =>
        `| ${p.operation} | ${p.milliseconds} | ${p.statements
          .slice(0, -1)
          .map((s) => `${s.query.slice(0, 60)}… ${s.milliseconds}`)
          .join("; ")} |`,
    ),
  ])}`,
);
await owner.end();
await database.close();
process.exit(0);
