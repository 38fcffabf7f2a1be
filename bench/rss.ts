// The RSS search benchmark: `npm run bench:rss -- [--items 1000000] [--seconds 10] [--clients 1,16] [--fresh]`.
// It builds its own embedded database under bench/.data-rss (kept between runs; --fresh starts
// over; when app_public.rss_feed_items does not hold the asked number of rows it is emptied and
// filled again). Two environments: the operator environment, whose API token is measured, with
// three rss monitors following 50 feeds between them (25 P2000 region feeds, 15 Dutch and 10
// English news feeds), and a second environment with one monitor following 10 feeds of its own
// and two of the first's. Monitors go in as the owner; their trigger (app_hidden.sync_rss_monitor)
// creates the feeds, which are then made due never (next_poll_at 'infinity'), so the poller of the
// service under measurement fetches nothing. Items (--items for the first environment's feeds, a
// tenth more for the second's, interleaved) go in as a few set-based INSERTs as the owner
// (generate_series): two years, heap and uuidv7 keys in time order as in a live table, titles and
// summaries from word lists (P2000 alerts, Dutch and English news) so that the common words
// (brand, ambulance, ongeval) are in 5-15% of the items and each rare street name in a few dozen.
// app.rss_notify is not set, so the statement trigger queues no matching. Then ANALYZE, VACUUM and
// a CHECKPOINT, and five reads are asked over HTTP with the first environment's API token at 1 and
// 16 connections (autocannon) after a warm-up, next to the same SQL functions through pg as
// app_visitor with the token's settings: rssFeedItems(q: common word), (q: rare word), (q: two
// words or a phrase), (no q), and rssFeedItemsCount(q: common word). The SQL time of one call is
// measured without round trips, and each function is explained as the visitor (auto_explain shows
// the statements inside the functions, with their cached plans). The goal (the issue): under 30 ms
// p99 over a million items (at 16 clients, as the other read benches). Figures go to
// bench/results/rss-latest.md (docs/benchmarks.md shows them) and a dated JSON file.
import { parseArgs } from "node:util";
import pg from "pg";
import { createApiToken } from "../lib/auth/api-tokens.ts";
import { analyzeTables } from "../lib/db/fresh-statistics.ts";
import { pgUrl } from "../lib/db/pg-url.ts";
import {
  makeCpuSampler,
  cpuSplit,
  describeCpu,
  findServicePid,
  leastDisturbed,
  loadAverage as readLoadAverage,
  quietMoment,
} from "./cpu-accounting.ts";
import { openBenchDatabase, seeded } from "./bench-database.ts";
import { autoExplain, type PlanNode } from "./explain.ts";
import { httpLoad as loadOverHttp } from "./http-load.ts";
import { closedLoop, machine, summary, writeResults } from "./results.ts";
import { startServerProcess } from "./server-process.ts";

const { values } = parseArgs({
  options: {
    items: { type: "string", default: "1000000" },
    seconds: { type: "string", default: "10" },
    clients: { type: "string", default: "1,16" },
    fresh: { type: "boolean", default: false },
  },
});
const ITEMS = Number(values.items);
const SECONDS = Number(values.seconds);
const CLIENTS = values.clients!.split(",").map(Number);
// Every eleventh row belongs to the second environment's feeds: a tenth of ITEMS more.
const TOTAL = Math.round((ITEMS * 11) / 10);
const OTHER = Math.floor(TOTAL / 11);
const WARM_UP_SECONDS = 2;
const GOAL_P99_MS = 30;
const GOAL_CLIENTS = 16;
const log = (line: string) => console.log(line);

const { dataDir: DATA_DIR, config, database, owner } = await openBenchDatabase("rss", 54345, values.fresh ?? false);

const round = (value: number, digits = 1) => Number(value.toFixed(digits));
const pad = (n: number) => String(n).padStart(2, "0");

// 1. Feeds and monitors. Feeds 1-50 are the first (operator) environment's: 1-25 P2000 region
// feeds, 26-40 Dutch news, 41-50 English news; 51-60 the second environment's (51-55 P2000, 56-58
// Dutch, 59-60 English), which also follows feeds 1 and 26 (a popular feed is followed by many).
type FeedKind = "p2000" | "nl" | "en";
const feeds = Array.from({ length: 60 }, (_, i) => {
  const n = i + 1;
  const [kind, host, file, title]: [FeedKind, string, string, string] =
    n <= 25
      ? ["p2000", "alarmering.bench.invalid", `regio-${pad(n)}.rss`, `Alarmeringen regio ${pad(n)}`]
      : n <= 40
        ? ["nl", `nieuws-${pad(n - 25)}.bench.invalid`, "binnenland.rss", `Nieuws ${n - 25}: binnenland`]
        : n <= 50
          ? ["en", `news-${pad(n - 40)}.bench.invalid`, "netherlands.xml", `Dutch News ${n - 40}`]
          : n <= 55
            ? [
                "p2000",
                "p2000-lokaal.bench.invalid",
                `regio-${pad((n - 51) * 5 + 1)}.xml`,
                `P2000 lokaal regio ${pad((n - 51) * 5 + 1)}`,
              ]
            : n <= 58
              ? ["nl", `omroep-${n - 55}.bench.invalid`, "rss", `Omroep ${n - 55}`]
              : ["en", `herald-${n - 58}.bench.invalid`, "feed.xml", `Herald ${n - 58}`];
  return {
    n,
    kind,
    host,
    url: `https://${host}/${file}`,
    title,
    region: kind === "p2000" ? (n <= 25 ? n : (n - 51) * 5 + 1) : null,
  };
});
const urls = (from: number, to: number) => feeds.filter((f) => f.n >= from && f.n <= to).map((f) => f.url);
const monitorSpecs = (firstEnvironment: string, secondEnvironment: string) => [
  { environment: firstEnvironment, name: "bench rss alarmeringen", query: { feeds: urls(1, 30) } },
  {
    environment: firstEnvironment,
    name: "bench rss nieuws",
    query: { feeds: urls(21, 50), keywords: ["brand", "ongeval"] },
  },
  {
    environment: firstEnvironment,
    name: "bench rss brand regio 1-10",
    query: { feeds: urls(1, 10), keywords: ["brand"] },
  },
  {
    environment: secondEnvironment,
    name: "bench rss andere omgeving",
    query: { feeds: [...urls(51, 60), feeds[0].url, feeds[25].url] },
  },
];

const firstEnvironment = database.operatorEnvironmentUuid;
const secondEnvironment = await (async () => {
  const {
    rows: [found],
  } = await owner.query<{ uuid: string }>(
    "select e.uuid from app_public.environments e join app_public.organizations o on o.uuid = e.organization_uuid where o.name = 'bench rss other'",
  );
  if (found) return found.uuid;
  const {
    rows: [made],
  } = await owner.query<{ uuid: string }>(`
    with o as (insert into app_public.organizations (name) values ('bench rss other') returning uuid)
    insert into app_public.environments (organization_uuid, name) select uuid, 'bench' from o returning uuid`);
  return made.uuid;
})();
{
  const specs = monitorSpecs(firstEnvironment, secondEnvironment);
  const { rows: have } = await owner.query<{ environment_uuid: string; name: string; query: unknown }>(
    "select environment_uuid, name, query from app_public.monitors where type = 'rss' order by name",
  );
  const want = [...specs].sort((a, b) => a.name.localeCompare(b.name));
  const same =
    have.length === want.length &&
    have.every(
      (m, i) =>
        m.name === want[i].name &&
        m.environment_uuid === want[i].environment &&
        JSON.stringify(m.query) === JSON.stringify(JSON.parse(JSON.stringify(want[i].query))),
    );
  if (!same) {
    log("Creating the rss monitors ...");
    await owner.query("delete from app_public.monitors where type = 'rss'");
    for (const spec of specs) {
      // As the owner; the trigger _500_rss_criteria (app_hidden.sync_rss_monitor) creates the feeds and the criteria.
      await owner.query(
        "insert into app_public.monitors (environment_uuid, name, type, query) values ($1, $2, 'rss', $3)",
        [spec.environment, spec.name, JSON.stringify(spec.query)],
      );
    }
  }
  // Titles as a first read would set them; never due, so the service's poller fetches nothing.
  await owner.query(
    `update app_public.rss_feeds f set title = j.title, next_poll_at = 'infinity'
                       from json_to_recordset($1::json) j (url text, title text) where f.url = j.url`,
    [JSON.stringify(feeds)],
  );
  const {
    rows: [{ n }],
  } = await owner.query<{ n: number }>("select count(*)::int as n from app_public.rss_feeds");
  if (n !== feeds.length) throw new Error(`Expected ${feeds.length} feeds, found ${n}`);
}

// 2. Items, set-based, in four parts (so a run shows progress), each in time order: row g of TOTAL
// is first seen at now - 2 years * (1 - g / TOTAL) (a few minutes of jitter), published up to 15
// minutes before (5% have no published time); its uuid is a uuidv7 of that time. Every eleventh
// row is the second environment's. The kind of feed is drawn first (55% P2000, 30% Dutch news, 15%
// English news), then a feed of that kind, a template and its words; streets are skewed (some very
// common), and 0.2% of the streets are from a list of rare names; places follow population.
const STREET_STEMS = [
  "Kerk",
  "Dorps",
  "Stations",
  "Molen",
  "School",
  "Hoofd",
  "Juliana",
  "Wilhelmina",
  "Nieuw",
  "Markt",
  "Beatrix",
  "Parallel",
  "Industrie",
  "Emma",
  "Kastanje",
  "Eiken",
  "Beuken",
  "Linden",
  "Berken",
  "Esdoorn",
  "Populier",
  "Wilgen",
  "Oranje",
  "Nassau",
  "Prins",
  "Konings",
  "Graaf",
  "Ridder",
  "Burg",
  "Haven",
  "Sluis",
  "Dijk",
  "Polder",
  "Zuid",
  "Noord",
  "Oost",
  "West",
  "Zand",
  "Veld",
  "Heide",
];
const STREET_ENDS = ["straat", "laan", "weg", "plein", "singel", "dreef", "hof", "kade", "pad", "steeg"];
const STREETS = STREET_STEMS.flatMap((stem) => STREET_ENDS.map((end) => stem + end));
const RARE_STREETS = [
  "Zwanenburgwal",
  "Reguliersdwarsstraat",
  "Egelantiersgracht",
  "Lauriergracht",
  "Brouwersgracht",
  "Leliegracht",
  "Spiegelgracht",
  "Looiersgracht",
  "Bloemgracht",
  "Palmgracht",
  "Lijnbaansgracht",
  "Raamgracht",
  "Groenburgwal",
  "Kloveniersburgwal",
  "Geldersekade",
  "Schippersgracht",
  "Roeterseiland",
  "Wittenburgergracht",
  "Kattenburgerstraat",
  "Oostenburgergracht",
  "Vijzelgracht",
  "Utrechtsedwarsstraat",
  "Tweebaksmarkt",
  "Oudegracht",
  "Drieharingstraat",
  "Langenieuwstraat",
  "Mariaplaats",
  "Wolvenplein",
  "Twijnstraat",
  "Pieterskerkhof",
  "Hooglandsekerkgracht",
  "Haarlemmerstraat",
  "Rapenburg",
  "Steenschuur",
  "Korevaarstraat",
  "Vismarkt",
  "Hooigracht",
  "Koegracht",
  "Molsteeg",
  "Langevoorhout",
  "Denneweg",
  "Paleisstraat",
  "Prinsessegracht",
  "Bierkade",
  "Dunnebierkade",
  "Zuilingstraat",
  "Appelmarkt",
  "Verwersstraat",
  "Hinthamerstraat",
  "Vughterdijk",
];
const ROADS = [
  "A1",
  "A2",
  "A4",
  "A7",
  "A9",
  "A10",
  "A12",
  "A13",
  "A15",
  "A16",
  "A20",
  "A27",
  "A28",
  "A44",
  "A50",
  "A58",
  "A67",
  "N201",
  "N11",
  "N57",
];
const BRT = [
  "Brand woning",
  "Brand wegvervoer",
  "Brand container",
  "Buitenbrand",
  "Liftopsluiting",
  "Dienstverlening",
  "Gaslekkage",
  "Nacontrole",
  "Stormschade",
  "Waterongeval",
  "Assistentie ambulance",
  "Brandgerucht",
  "Automatische brandmelding",
];
const NL_SENTENCES = [
  "De hulpdiensten waren snel ter plaatse.",
  "Er raakte niemand gewond.",
  "Een persoon is met onbekend letsel naar het ziekenhuis gebracht.",
  "De politie doet onderzoek naar de oorzaak.",
  "Omwonenden wordt gevraagd ramen en deuren te sluiten.",
  "De weg is voorlopig afgesloten voor alle verkeer.",
  "De brand was na een uur onder controle.",
  "Volgens een woordvoerder is de situatie onder controle.",
  "Getuigen kunnen zich melden bij de politie.",
  "Het verkeer ondervindt hinder.",
  "De gemeenteraad besluit volgende maand.",
  "Reizigers moeten rekening houden met extra reistijd.",
];
const EN_SENTENCES = [
  "Emergency services were quickly at the scene.",
  "Nobody was injured.",
  "One person was taken to hospital.",
  "Police are investigating the cause.",
  "Residents are asked to keep windows and doors closed.",
  "The road is closed to all traffic for now.",
  "The fire was under control within an hour.",
  "A spokesperson said the situation is under control.",
  "Witnesses are asked to contact the police.",
  "Traffic is disrupted.",
  "The council will decide next month.",
  "Travellers should allow extra time.",
];

const filling: Record<string, number> = {};
const {
  rows: [{ have: haveItems }],
} = await owner.query<{ have: number }>("select count(*)::int as have from app_public.rss_feed_items");
if (haveItems !== TOTAL) {
  log(
    `Filling ${TOTAL.toLocaleString("en")} rss feed items (${ITEMS.toLocaleString("en")} of the measured environment's feeds) ...`,
  );
  await owner.query("truncate app_public.rss_feed_items");
  const client = await owner.connect();
  const started = performance.now();
  try {
    await client.query("select setseed(0.2027)");
    const parts = 4;
    for (let part = 0; part < parts; part++) {
      const from = Math.floor((part * TOTAL) / parts) + 1;
      const to = Math.floor(((part + 1) * TOTAL) / parts);
      await client.query(
        `
        with w as materialized (
          select $4::text[] as streets, $5::text[] as rare, $6::text[] as roads, $7::text[] as brt, $8::text[] as nl, $9::text[] as en,
                 (select array_agg(p.name order by p.population desc nulls last, p.name) from app_public.places p) as places),
        fe as materialized (
          select f.uuid, j.n, j.kind, j.host, j.region from json_to_recordset($10::json) j (n int, url text, kind text, host text, region int)
            join app_public.rss_feeds f on f.url = j.url)
        insert into app_public.rss_feed_items (uuid, feed_uuid, item_key, guid, title, link, summary, published_at, first_seen_at)
        select uuidv7(t.seen - now()), fe.uuid, coalesce(x.guid, x.link), x.guid, x.title, x.link, x.summary,
               case when t.r_pub < 0.95 then t.seen - t.r_lag * interval '15 minutes' end, t.seen
          from generate_series($1::int, $2::int) g
         cross join w
         cross join lateral (
           select g, now() - interval '730 days' * (1 - (g - 0.5) / $3::float8) + (random() - 0.5) * interval '4 minutes' as seen,
                  random() as r_pub, random() as r_lag, random() as r_kind, random() as r_feed, random() as r_sub, random() as r_a,
                  random() as r_b, random() as r_c, random() as r_d, random() as r_rare, random() as r_street, random() as r_place,
                  random() as r_place2, random() as r_road, random() as r_s1, random() as r_s2, random() as r_time) t
         cross join lateral (
           select case when t.g % 11 = 0
                       then case when t.r_kind < 0.55 then 51 + floor(t.r_feed * 5) when t.r_kind < 0.85 then 56 + floor(t.r_feed * 3)
                                 else 59 + floor(t.r_feed * 2) end
                       else case when t.r_kind < 0.55 then 1 + floor(t.r_feed * 25) when t.r_kind < 0.85 then 26 + floor(t.r_feed * 15)
                                 else 41 + floor(t.r_feed * 10) end
                  end::int as n) c
         join fe on fe.n = c.n
         cross join lateral (
           select case when t.r_rare < 0.002 then w.rare[1 + floor(t.r_street * cardinality(w.rare))::int]
                       else w.streets[1 + floor(t.r_street ^ 2 * cardinality(w.streets))::int] end as street,
                  w.places[1 + floor(t.r_place ^ 2 * cardinality(w.places))::int] as place,
                  w.places[1 + floor(t.r_place2 ^ 2 * cardinality(w.places))::int] as place2,
                  w.roads[1 + floor(t.r_road * cardinality(w.roads))::int] as road,
                  lpad(coalesce(fe.region, 0)::text, 2, '0') as region,
                  lpad(floor(t.r_time * 24)::int::text, 2, '0') || ':' || lpad((floor(t.r_time * 1440)::int % 60)::text, 2, '0') as at) s
         cross join lateral (
           select case fe.kind
                    when 'p2000' then case
                      when t.r_sub < 0.40 then 'P ' || (1 + floor(t.r_a * 3))::int || ' BRT-' || s.region || ' ' ||
                        w.brt[1 + floor(t.r_b * cardinality(w.brt))::int] || ' ' || s.street || ' ' || s.place || ' ' || s.region || (1000 + floor(t.r_c * 9000))::int
                      when t.r_sub < 0.80 then 'A' || (1 + floor(t.r_a * 2))::int || case when t.r_b < 0.35 then ' Ambulance ' else ' ' end ||
                        s.street || ' ' || (1000 + floor(t.r_c * 9000))::int || ' ' || s.place || ' Rit ' || (10000 + floor(t.r_d * 90000))::int
                      else (array['P 1 Ongeval wegvervoer letsel ', 'P 2 Ongeval materieel ', 'P 1 Verkeersongeval ', 'P 2 Aanrijding '])[1 + floor(t.r_b * 4)::int] ||
                        s.road || ' Hmp ' || round((t.r_c * 200)::numeric, 1) || ' ' || s.place
                    end
                    when 'nl' then case floor(t.r_sub * 10)::int
                      when 0 then 'Brand verwoest woning aan de ' || s.street || ' in ' || s.place
                      when 1 then 'Grote brand bij bedrijf in ' || s.place || ', veel rook'
                      when 2 then 'Ongeval op de ' || s.road || ' bij ' || s.place || ': weg urenlang dicht'
                      when 3 then 'Verkeersongeval ' || s.road || ' bij ' || s.place || ', lange file'
                      when 4 then 'Politie zoekt getuigen van overval in ' || s.place
                      when 5 then 'Gemeente ' || s.place || ' sluit ' || s.street || ' af voor werkzaamheden'
                      when 6 then 'Storm zorgt voor schade in ' || s.place
                      when 7 then 'Treinverkeer tussen ' || s.place || ' en ' || s.place2 || ' gestremd'
                      when 8 then 'Ambulance en traumahelikopter naar ' || s.street || ' in ' || s.place
                      else 'Nieuwe woonwijk in ' || s.place || ' goedgekeurd'
                    end
                    else case floor(t.r_sub * 8)::int
                      when 0 then 'Fire destroys house in ' || s.place
                      when 1 then 'Crash on the ' || s.road || ' near ' || s.place || ' causes long delays'
                      when 2 then 'Police investigate robbery in ' || s.place
                      when 3 then 'Storm brings disruption to ' || s.place
                      when 4 then 'Train services between ' || s.place || ' and ' || s.place2 || ' suspended'
                      when 5 then 'Ambulance called to ' || s.street || ' in ' || s.place
                      when 6 then 'Council approves new homes in ' || s.place
                      else 'Flood warning issued for ' || s.place
                    end
                  end as title,
                  case fe.kind
                    when 'p2000' then case
                      when t.r_sub < 0.40 then 'Brandweer ' || s.place || ' (Tankautospuit ' || s.region || '-' || (1000 + floor(t.r_d * 9000))::int ||
                        '), Officier van dienst regio ' || s.region
                      when t.r_sub < 0.80 then 'RAV regio ' || s.region || ' (AMBU ' || s.region || '-' || (100 + floor(t.r_d * 900))::int || ')'
                      else 'Politie ' || s.place || ' (Noodhulp), Brandweer ' || s.place || ' (Hulpverleningsvoertuig)'
                    end
                    when 'nl' then w.nl[1 + floor(t.r_s1 * cardinality(w.nl))::int] || ' ' || w.nl[1 + floor(t.r_s2 * cardinality(w.nl))::int] ||
                      ' Het gebeurde rond ' || s.at || ' aan de ' || s.street || '.'
                    else w.en[1 + floor(t.r_s1 * cardinality(w.en))::int] || ' ' || w.en[1 + floor(t.r_s2 * cardinality(w.en))::int] ||
                      ' It happened around ' || s.at || ' in ' || s.place || '.'
                  end as summary,
                  case when fe.kind = 'p2000' then 'p2000-' || fe.n || '-' || t.g when t.r_a < 0.5 then 'urn:bench:' || t.g end as guid,
                  'https://' || fe.host || case when fe.kind = 'p2000' then '/melding/' else '/artikel/' end || t.g as link) x`,
        [from, to, TOTAL, STREETS, RARE_STREETS, ROADS, BRT, NL_SENTENCES, EN_SENTENCES, JSON.stringify(feeds)],
      );
      log(`  ${to.toLocaleString("en")} rows, ${((performance.now() - started) / 1000).toFixed(0)} s`);
    }
  } finally {
    client.release();
  }
  filling.itemsSeconds = round((performance.now() - started) / 1000);
  const vacuumStarted = performance.now();
  await analyzeTables(owner, ["app_public.rss_feed_items", "app_public.rss_feeds"]);
  await owner.query("vacuum app_public.rss_feed_items, app_public.rss_feeds");
  filling.vacuumAnalyzeSeconds = round((performance.now() - vacuumStarted) / 1000);
  log(`  ${filling.itemsSeconds} s to insert, ${filling.vacuumAnalyzeSeconds} s to vacuum and analyse`);
}

const rootUrl = database.rootUrl;
if (!rootUrl) throw new Error("CHECKPOINT and auto_explain need the superuser URL of the embedded cluster.");
const superuserUrl = pgUrl(rootUrl, { database: config.database.name });
if (Object.keys(filling).length > 0) {
  // The load left a gigabyte of dirty pages and WAL: written now rather than by the checkpointer
  // in the middle of the measurements.
  const root = new pg.Client({ connectionString: superuserUrl });
  await root.connect();
  await root.query("checkpoint");
  await root.end();
}

// 3. What the tables hold, and how many items each word matches (as the owner: all items; and in
// the measured environment's feeds).
const COMMON = ["brand", "ambulance", "ongeval"];
const RARE = RARE_STREETS.map((s) => s.toLowerCase());
const TWO_WORDS = [
  "brand woning",
  '"ongeval wegvervoer"',
  "ambulance amsterdam",
  "fire house",
  "brand -container",
  '"brand woning" utrecht',
];
const { rows: sizes } = await owner.query<{ name: string; rows: string; mb: string }>(`
  select t.name, (xpath('/row/c/text()', query_to_xml(format('select count(*) as c from %s', t.name), false, true, '')))[1]::text as rows,
         round(pg_total_relation_size(t.name::regclass) / 1048576.0, 1)::text as mb
    from unnest(array['app_public.rss_feeds', 'app_public.rss_feed_items']) t(name)`);
const tables = Object.fromEntries(sizes.map((s) => [s.name, { rows: Number(s.rows), mb: Number(s.mb) }]));
const { rows: indexSizes } = await owner.query<{ name: string; mb: number }>(`
  select c.relname as name, round(pg_relation_size(c.oid) / 1048576.0, 1)::float8 as mb
    from pg_index i join pg_class c on c.oid = i.indexrelid where i.indrelid = 'app_public.rss_feed_items'::regclass order by c.relname`);
const firstFeeds = `(select f.uuid from app_public.rss_feeds f where f.url = any ($2::text[]))`;
const firstUrls = [
  ...new Set(
    monitorSpecs(firstEnvironment, secondEnvironment)
      .filter((m) => m.environment === firstEnvironment)
      .flatMap((m) => m.query.feeds),
  ),
];
const matchCount = async (q: string) =>
  (
    await owner.query<{ all: number; first: number }>(
      `
  with q as (select websearch_to_tsquery('pg_catalog.dutch', $1) || websearch_to_tsquery('pg_catalog.english', $1) as query)
  select count(*)::int as all, (count(*) filter (where i.feed_uuid in ${firstFeeds}))::int as first
    from app_public.rss_feed_items i, q where i.search @@ q.query`,
      [q, firstUrls],
    )
  ).rows[0];
const matches: Record<string, { all: number; first: number }> = {};
for (const q of [...COMMON, ...TWO_WORDS]) matches[q] = await matchCount(q);
const rareCounts = await Promise.all(RARE.map((q) => matchCount(q)));
const rareFirst = rareCounts.map((c) => c.first).sort((a, b) => a - b);
const {
  rows: [shape],
} = await owner.query(
  `
  select (select count(*)::int from app_public.rss_feed_items where feed_uuid in ${firstFeeds}) as first_environment_items,
         (select count(*)::int from app_public.rss_feed_items where feed_uuid not in ${firstFeeds}) as other_items,
         (select min(sort_at)::date::text from app_public.rss_feed_items) as items_from,
         (select round(avg(length(title)))::int from app_public.rss_feed_items) as title_chars,
         (select round(avg(length(summary)))::int from app_public.rss_feed_items) as summary_chars,
         (select count(*)::int from app_public.monitors where type = 'rss') as monitors,
         (select count(*)::int from graphile_worker.jobs) as jobs, $1::int as total`,
  [TOTAL, firstUrls],
);
const share = (n: number) => `${round((100 * n) / shape.first_environment_items, 2)}%`;
log(
  `Items: ${shape.total.toLocaleString("en")} (${shape.first_environment_items.toLocaleString("en")} in the measured environment's 50 feeds, ` +
    `${shape.other_items.toLocaleString("en")} in the other's own), since ${shape.items_from}; ${JSON.stringify(tables)}; indexes ${JSON.stringify(indexSizes)}`,
);
log(
  `Matches in the measured environment: ${Object.entries(matches)
    .map(([q, c]) => `${q} ${c.first.toLocaleString("en")} (${share(c.first)})`)
    .join(", ")}; ` +
    `rare streets min/median/max ${rareFirst[0]}/${rareFirst[Math.floor(rareFirst.length / 2)]}/${rareFirst.at(-1)}`,
);
if (shape.jobs !== 0) log(`Warning: ${shape.jobs} graphile_worker jobs queued`);

// 4. The operations, with new arguments on every request: each as a GraphQL query (its variables)
// and as the SQL function the field calls (the same values, in this order, as parameters).
const random = seeded(2028);
const pickOf = (list: readonly string[]) => () => ({ q: list[Math.floor(random() * list.length)] });
const ITEM_FIELDS = "uuid feedUrl feedTitle title link summary publishedAt";
const filterOf = (q: string) => `row(null, null, ${q}, null)::app_public.rss_feed_item_filter`;
// `repeated`: the same call with the arguments in turn, many times in one statement (the SQL time
// of a call without round trips or instrumentation; every call depends on the series' g, or it
// would run once for all); `typical`: the arguments of the explained call.
const listQuery = `query ($q: String!) { rssFeedItems(filter: { q: $q }, first: 20) { ${ITEM_FIELDS} } }`;
const sqlArray = (list: readonly string[]) => `array[${list.map((s) => `'${s.replace(/'/g, "''")}'`).join(", ")}]`;
const scenarios: Array<{
  name: string;
  query: string;
  sql: string;
  repeated: string;
  typical: unknown[];
  args: () => Record<string, unknown>;
}> = [
  {
    name: "rssFeedItems(q: common word, first: 20)",
    query: listQuery,
    sql: `select * from app_public.rss_feed_items(20, null, ${filterOf("$1")})`,
    repeated: `app_public.rss_feed_items(20, null, ${filterOf(`(${sqlArray(COMMON)})[1 + g % ${COMMON.length}]`)})`,
    typical: ["brand"],
    args: pickOf(COMMON),
  },
  {
    name: "rssFeedItems(q: rare street, first: 20)",
    query: listQuery,
    sql: `select * from app_public.rss_feed_items(20, null, ${filterOf("$1")})`,
    repeated: `app_public.rss_feed_items(20, null, ${filterOf(`(${sqlArray(RARE)})[1 + g % ${RARE.length}]`)})`,
    typical: [RARE[0]],
    args: pickOf(RARE),
  },
  {
    name: "rssFeedItems(q: two words or a phrase, first: 20)",
    query: listQuery,
    sql: `select * from app_public.rss_feed_items(20, null, ${filterOf("$1")})`,
    repeated: `app_public.rss_feed_items(20, null, ${filterOf(`(${sqlArray(TWO_WORDS)})[1 + g % ${TWO_WORDS.length}]`)})`,
    typical: [TWO_WORDS[0]],
    args: pickOf(TWO_WORDS),
  },
  {
    name: "rssFeedItems(no q, first: 20)",
    query: `{ rssFeedItems(first: 20) { ${ITEM_FIELDS} } }`,
    sql: "select * from app_public.rss_feed_items(20, null, null)",
    repeated: "app_public.rss_feed_items(20 + 0 * g, null, null)",
    typical: [],
    args: () => ({}),
  },
  {
    name: "rssFeedItemsCount(q: common word)",
    query: "query ($q: String!) { rssFeedItemsCount(filter: { q: $q }) }",
    sql: `select app_public.rss_feed_items_count(${filterOf("$1")}) as n`,
    repeated: `app_public.rss_feed_items_count(${filterOf(`(${sqlArray(COMMON)})[1 + g % ${COMMON.length}]`)})`,
    typical: ["brand"],
    args: pickOf(COMMON),
  },
];

// 5. HTTP: the service as its own process, an API token of each environment, connections that ask
// back to back; and the same SQL through pg with the token's settings, to tell the database's share.
const service = await startServerProcess({ dataDir: DATA_DIR, pgPort: config.database.embeddedPgPort });
const apiToken = (await createApiToken(owner, { environmentUuid: firstEnvironment, name: "bench rss", scopes: [] }))
  .plainToken;
const otherToken = (
  await createApiToken(owner, { environmentUuid: secondEnvironment, name: "bench rss other", scopes: [] })
).plainToken;
const headers = { "content-type": "application/json", authorization: `Bearer ${apiToken}` };

async function graphql(
  query: string,
  variables: Record<string, unknown>,
  token = apiToken,
): Promise<Record<string, unknown>> {
  const response = await fetch(service.graphqlUrl, {
    method: "POST",
    headers: { ...headers, authorization: `Bearer ${token}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await response.json()) as { data: Record<string, unknown>; errors?: Array<{ message: string }> };
  if (body.errors) throw new Error(body.errors[0].message);
  return body.data;
}

const cpuSample = makeCpuSampler(DATA_DIR);
const servicePid = findServicePid();

/** Closed-loop HTTP load (http-load.ts) with new arguments on every request; the latency of every answer, in ms. */
const httpLoad = (clients: number, seconds: number, query: string, args: () => Record<string, unknown>) =>
  loadOverHttp({
    url: service.graphqlUrl,
    headers,
    clients,
    seconds,
    body: () => JSON.stringify({ query, variables: args() }),
    timeoutSeconds: 30,
    cpu: { sample: cpuSample, servicePid },
    rpsDigits: 1,
  });

// The settings the service gives a request with the measured environment's API token (lib/auth/context.ts).
const {
  rows: [tokenRow],
} = await owner.query<{ uuid: string }>(
  "select uuid from app_public.api_tokens where environment_uuid = $1 and name = 'bench rss' order by created desc limit 1",
  [firstEnvironment],
);
const visitorSettings = {
  role: "app_visitor",
  "app.environment_uuid": firstEnvironment,
  "app.api_token_uuid": tokenRow.uuid,
  "app.api_scopes": "",
};
const visitor = new pg.Pool({ connectionString: database.authUrl, max: Math.max(...CLIENTS) });
visitor.on("error", () => {});
/** Closed-loop load through pg: `clients` workers, each statement in a transaction with the token's settings as the server runs it. */
async function sqlLoad(clients: number, seconds: number, sql: string, args: () => Record<string, unknown>) {
  const before = cpuSample(undefined);
  const { latencies, errors } = await closedLoop(clients, seconds, async () => {
    const client = await visitor.connect();
    try {
      await client.query("begin");
      await client.query("select set_config(k, v, true) from json_each_text($1::json) s (k, v)", [
        JSON.stringify(visitorSettings),
      ]);
      await client.query(sql, Object.values(args()));
      await client.query("commit");
    } finally {
      client.release();
    }
  });
  return { ...summary(latencies, seconds, 1), errors, cpu: cpuSplit(before, cpuSample(undefined), latencies.length) };
}

const checks: string[] = [];
{
  // One answer of each checked first, and row-level security: each token sees its own environment's feeds only.
  type Item = { feedUrl: string; title: string; publishedAt: string | null };
  const list = async (q: string | null, token = apiToken) =>
    (await graphql(q === null ? scenarios[3].query : listQuery, q === null ? {} : { q }, token)).rssFeedItems as Item[];
  const common = await list("brand");
  const rare = await list(RARE[0]);
  const newest = await list(null);
  if (common.length !== 20 || !common.every((i) => firstUrls.includes(i.feedUrl)))
    throw new Error("rssFeedItems(q: brand) did not give 20 items of the environment's feeds");
  if (rare.length !== Math.min(20, rareCounts[0].first))
    throw new Error(
      `rssFeedItems(q: ${RARE[0]}) gave ${rare.length} items, expected ${Math.min(20, rareCounts[0].first)}`,
    );
  if (newest.length !== 20) throw new Error("rssFeedItems(first: 20) did not give 20 items");
  const count = (await graphql(scenarios[4].query, { q: "brand" })).rssFeedItemsCount as number;
  if (count !== matches.brand.first)
    throw new Error(`rssFeedItemsCount(q: brand) = ${count}, expected ${matches.brand.first}`);
  const otherOnly = feeds.find((f) => f.n === 51)!.url;
  const hidden = (await graphql(`{ rssFeedItems(filter: { feed: "${otherOnly}" }) { uuid } }`, {}))
    .rssFeedItems as unknown[];
  const otherSees = (await graphql(scenarios[4].query, { q: "brand" }, otherToken)).rssFeedItemsCount as number;
  const {
    rows: [{ n: otherExpected }],
  } = await owner.query<{ n: number }>(
    `
    select count(*)::int as n from app_public.rss_feed_items i
     where i.feed_uuid in (select f.uuid from app_public.rss_feeds f where f.url = any ($1::text[]))
       and i.search @@ (websearch_to_tsquery('pg_catalog.dutch', 'brand') || websearch_to_tsquery('pg_catalog.english', 'brand'))`,
    [monitorSpecs(firstEnvironment, secondEnvironment)[3].query.feeds],
  );
  if (hidden.length !== 0 || otherSees !== otherExpected)
    throw new Error(
      `RLS: ${hidden.length} items of the other environment's feed seen; the other sees ${otherSees}, expected ${otherExpected}`,
    );
  checks.push(
    `rssFeedItems(q: "brand") 20 items of the environment's feeds, newest ${common[0].publishedAt}`,
    `rssFeedItems(q: "${RARE[0]}") ${rare.length} items`,
    `rssFeedItemsCount(q: "brand") ${count} as counted by the owner`,
    `the other environment's own feed: ${hidden.length} items`,
    `the other environment's token counts ${otherSees} "brand" items (its own feeds and the two shared)`,
  );
  log(`Check: ${checks.join("; ")}`);
}

// Two shared cores: anything else running (another bench, a test run) shows as "other" CPU and
// inflates every figure. Each measurement therefore waits (up to QUIET_WAIT_SECONDS) for a moment
// when the cores are at least 90% idle, and one whose HTTP run saw more than OTHER_SHARE_LIMIT% of
// the cores go elsewhere is repeated (at most RETRIES times; the least disturbed one is kept:
// leastDisturbed of cpu-accounting.ts). The load average before the measurements and every run's
// CPU split are kept with the results.
const QUIET_WAIT_SECONDS = 60;
const OTHER_SHARE_LIMIT = 10;
const RETRIES = 2;
const loadAverage = readLoadAverage();
if ((loadAverage[0] ?? 0) > 0.5)
  log(`Warning: load average ${loadAverage.join(" ")} before the measurements: something else is running.`);
const reads: Array<{
  operation: string;
  clients: number;
  seconds: number;
  attempts: number;
  http: Awaited<ReturnType<typeof httpLoad>>;
  sql: Awaited<ReturnType<typeof sqlLoad>>;
}> = [];
for (const scenario of scenarios) {
  // Every connection of the server's pool prepares its plans first.
  await httpLoad(Math.max(...CLIENTS), WARM_UP_SECONDS, scenario.query, scenario.args);
  for (const clients of CLIENTS) {
    const {
      best: { http, sql },
      attempts,
    } = await leastDisturbed(
      `${scenario.name} @${clients}`,
      { quietWaitSeconds: QUIET_WAIT_SECONDS, otherShareLimit: OTHER_SHARE_LIMIT, retries: RETRIES },
      async () => {
        const http = await httpLoad(clients, SECONDS, scenario.query, scenario.args);
        await quietMoment(QUIET_WAIT_SECONDS);
        return { http, sql: await sqlLoad(clients, SECONDS, scenario.sql, scenario.args) };
      },
      (measured) => measured.http.cpu?.other.share ?? 0,
    );
    reads.push({ operation: scenario.name, clients, seconds: SECONDS, attempts, http, sql });
    log(
      `${scenario.name} @${clients}: HTTP ${http.rps}/s, p50 ${http.p50} ms, p95 ${http.p95} ms, p99 ${http.p99} ms, max ${http.max} ms, ` +
        `${http.bytesPerAnswer} bytes | SQL ${sql.rps}/s, p50 ${sql.p50} ms, p99 ${sql.p99} ms${http.errors ? ` (${http.errors} errors)` : ""}`,
    );
    log(`  HTTP ${describeCpu(http.cpu)}`);
    log(`  SQL ${describeCpu(sql.cpu)}`);
  }
}
await service.stop();
await visitor.end();

// 6. The SQL time of one call: calls with the arguments in turn in one statement with the token's
// settings, the second of two runs (as many calls as take about a second, 10 to 2,000); no round
// trips, no instrumentation.
const perCall: Record<string, number> = {};
const settingsSql =
  Object.entries(visitorSettings)
    .filter(([k]) => k !== "role")
    .map(([k, v]) => `set ${k} = '${v}'`)
    .join("; ") + "; set role app_visitor";
{
  const client = new pg.Client({ connectionString: superuserUrl });
  await client.connect();
  await client.query(settingsSql);
  for (const scenario of scenarios) {
    const timed = async (repeat: number) => {
      const started = performance.now();
      await client.query(`select count(*) from generate_series(1, ${repeat}) g, lateral ${scenario.repeated} t`);
      return performance.now() - started;
    };
    const once = await timed(10);
    const repeat = Math.max(10, Math.min(2000, Math.round(10_000 / Math.max(once, 1))));
    await timed(repeat);
    await quietMoment(QUIET_WAIT_SECONDS);
    perCall[scenario.name] = round((await timed(repeat)) / repeat, 3);
    log(`SQL per call (${repeat} in one statement): ${scenario.name} ${perCall[scenario.name]} ms`);
  }
  await client.end();
}

// 7. Plans: each SQL function with the token's settings, its inner statements shown by
// auto_explain (as notices to this session) with ANALYZE and BUFFERS, after a few calls with other
// arguments so that the cached plans are the ones a busy server uses (PL/pgSQL and SQL functions
// may switch to a generic plan after five calls).
const explainer = new pg.Client({ connectionString: superuserUrl });
await explainer.connect();
const explain = await autoExplain(explainer, settingsSql);
// The environment's feeds appear in the plans as a literal array of 50 uuids: shown as their number.
const shorten = (line: string) =>
  line.replace(/\{[0-9a-f-]{36}(,[0-9a-f-]{36})+\}/g, (uuids) => `{${uuids.split(",").length} uuids}`);
const plans: Array<{
  call: string;
  milliseconds: number;
  sharedHit: number;
  sharedRead: number;
  seqScans: string[];
  indexes: string[];
  statements: Array<{ query: string; milliseconds: number; plan: string[] }>;
  nestedCalls: number;
}> = [];
for (const scenario of scenarios) {
  const label = `${scenario.sql.replace(/^select (\* from )?/, "").replace(/ as n$/, "")} with ${JSON.stringify(scenario.typical)}`;
  for (let i = 0; i < 8; i++)
    await explainer.query({ name: scenario.name, text: scenario.sql, values: Object.values(scenario.args()) });
  explain.clear();
  await explainer.query({ name: scenario.name, text: scenario.sql, values: scenario.typical });
  const statements = explain.statements(200).map((statement) => ({ ...statement, plan: statement.plan.map(shorten) }));
  const all = (node: PlanNode): PlanNode[] => [node, ...(node.Plans ?? []).flatMap(all)];
  const nodes = statements.flatMap((s) => all(s.root)).filter((n) => (n["Actual Loops"] ?? 1) > 0);
  const top = statements.at(-1)!; // auto_explain reports the outer statement last
  plans.push({
    call: scenario.name,
    milliseconds: top.milliseconds,
    sharedHit: top.root["Shared Hit Blocks"] ?? 0,
    sharedRead: top.root["Shared Read Blocks"] ?? 0,
    seqScans: [...new Set(nodes.filter((n) => n["Node Type"] === "Seq Scan").map((n) => n["Relation Name"]!))],
    indexes: [...new Set(nodes.filter((n) => n["Index Name"]).map((n) => `${n["Index Name"]}`))],
    statements: statements.map(({ query, milliseconds, plan }) => ({ query, milliseconds, plan })),
    nestedCalls: statements.length - 1,
  });
  log(
    `\nEXPLAIN (ANALYZE, BUFFERS) ${label} with the token's settings: ${top.milliseconds} ms, ` +
      `${top.root["Shared Hit Blocks"] ?? 0} buffers hit, ${top.root["Shared Read Blocks"] ?? 0} read`,
  );
  // A statement run once per row or per call shows once, with its count.
  const shown = new Map<string, { milliseconds: number; calls: number; plan: string[] }>();
  for (const statement of statements) {
    const seen = shown.get(statement.query);
    if (seen) {
      seen.milliseconds += statement.milliseconds;
      seen.calls++;
    } else shown.set(statement.query, { milliseconds: statement.milliseconds, calls: 1, plan: statement.plan });
  }
  for (const [query, { milliseconds, calls, plan }] of shown) {
    log(`  ${round(milliseconds, 3)} ms${calls > 1 ? ` in ${calls} calls` : ""}  ${query}`);
    for (const line of plan) log(`      ${line}`);
  }
}
await explainer.end();

// 8. The figures, against the goal.
const verdict = (p99: number) => (p99 < GOAL_P99_MS ? "met" : "NOT met");
const verdicts = scenarios.map((s) => {
  const at = (clients: number) => reads.find((r) => r.operation === s.name && r.clients === clients);
  return `${s.name}: ${CLIENTS.map((c) => `p99 ${at(c)?.http.p99} ms at ${c} (${verdict(at(c)?.http.p99 ?? Infinity)})`).join(", ")}`;
});
log(`\nGoal: under ${GOAL_P99_MS} ms p99 over HTTP (at ${GOAL_CLIENTS} clients; also shown at 1).`);
for (const line of verdicts) log(`  ${line}`);
const mb = (name: string) => `${tables[name].rows.toLocaleString("en")} rows, ${tables[name].mb} MB`;
const result = {
  date: new Date().toISOString(),
  machine: machine(),
  clients: CLIENTS,
  seconds: SECONDS,
  items: ITEMS,
  other: OTHER,
  loadAverage,
  shape,
  tables,
  indexSizes,
  matches,
  rareFirst,
  checks,
  filling,
  goal: { p99Ms: GOAL_P99_MS, clients: GOAL_CLIENTS },
  reads,
  perCall,
  plans,
};
const matchLine = Object.entries(matches)
  .map(([q, c]) => `\`${q}\` ${c.first.toLocaleString("en")} (${share(c.first)})`)
  .join(", ");
log(
  `\nWrote ${writeResults("rss", "rss-latest.md", result, [
    `RSS search benchmark, ${result.date.slice(0, 10)}, ${result.machine} (load average ${loadAverage.join(" ")} before the measurements): ` +
      `${mb("app_public.rss_feed_items")} (indexes: ` +
      `${indexSizes.map((i) => `${i.name} ${i.mb} MB`).join(", ")}): ${shape.first_environment_items.toLocaleString("en")} in the 50 feeds the ` +
      `measured environment's three rss monitors follow, ${shape.other_items.toLocaleString("en")} in a second environment's own feeds; two years ` +
      `since ${shape.items_from}, filled by set-based SQL. Items the measured query words match in the environment's feeds: ${matchLine}; ` +
      `each of the ${RARE.length} rare street names ${rareFirst[0]}-${rareFirst.at(-1)} (median ${rareFirst[Math.floor(rareFirst.length / 2)]}). ` +
      `Closed loops over HTTP (API token; the service in its own process on the same two cores as the load generator and PostgreSQL), ${SECONDS} s ` +
      `per operation after ${WARM_UP_SECONDS} s of warm-up, other arguments on every request; beside it the same SQL function through pg with the token's settings.`,
    "",
    "| operation | clients | HTTP req/s | HTTP p50 ms | HTTP p95 ms | HTTP p99 ms | answer bytes | SQL req/s | SQL p50 ms | SQL p99 ms | SQL ms per call |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...reads.map(
      (r) =>
        `| ${r.operation} | ${r.clients} | ${r.http.rps} | ${r.http.p50} | ${r.http.p95} | ${r.http.p99} | ${r.http.bytesPerAnswer} | ` +
        `${r.sql.rps} | ${r.sql.p50} | ${r.sql.p99} | ${perCall[r.operation]} |`,
    ),
    "",
    "SQL ms per call: calls with the arguments in turn in one statement with the token's settings (no round trips, no instrumentation).",
    "",
    "Where the two cores went during the HTTP runs (ms of CPU per request, and share of the cores' time):",
    "",
    "| operation | clients | service process | PostgreSQL | load generator | kernel interrupts | other | idle | steal |",
    "| --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ...reads
      .filter((r) => r.http.cpu)
      .map((r) => {
        const c = r.http.cpu!;
        const cell = (p: { msPerRequest: number; share: number }) => `${p.msPerRequest} (${p.share}%)`;
        return `| ${r.operation} | ${r.clients} | ${cell(c.service)} | ${cell(c.postgres)} | ${cell(c.loadGenerator)} | ${cell(c.interrupts)} | ${cell(c.other)} | ${c.idle.share}% | ${c.steal.share}% |`;
      }),
    "",
    `Errors (transport, non-200 or GraphQL errors): ${reads.reduce((sum, r) => sum + r.http.errors, 0)}. Measurements repeated because ` +
      `other processes took more than ${OTHER_SHARE_LIMIT}% of the cores: ${
        reads
          .filter((r) => r.attempts > 1)
          .map((r) => `${r.operation} @${r.clients} ` + `(${r.attempts} attempts)`)
          .join(", ") || "none"
      }.`,
    "",
    `Goal: under ${GOAL_P99_MS} ms p99 over HTTP at ${GOAL_CLIENTS} clients (also shown at 1). ${verdicts.join("; ")}.`,
    "",
    filling.itemsSeconds !== undefined
      ? `Filling (this run): ${filling.itemsSeconds} s (+${filling.vacuumAnalyzeSeconds} s VACUUM and ANALYZE).`
      : "Filling: the items were kept from an earlier run.",
    "",
    "| SQL function (with the token's settings, cached plan, under auto_explain) | execution ms | buffers hit/read | statements inside | indexes | sequential scans |",
    "| --- | --- | --- | --- | --- | --- |",
    ...plans.map(
      (p) =>
        `| ${p.call} | ${p.milliseconds} | ${p.sharedHit}/${p.sharedRead} | ${p.nestedCalls} | ${p.indexes.join(", ") || "-"} | ` +
        `${p.seqScans.join(", ") || "-"} |`,
    ),
  ])}`,
);
await owner.end();
await database.close();
process.exit(0);
