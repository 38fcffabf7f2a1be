// The V8 flags and environment the service's process is started with: on its command line in `npm start` and
// `npm run worker` (package.json, which test/start.test.ts holds to this list) and by the benches
// (bench/server-process.ts). They must be given when the process starts: V8 sizes its heap then.
//
// --max-semi-space-size=32: the young generation may grow to two semi-spaces of 32 MB (V8's
// default here is 16 MB). An analytics grouping of a year by day and safety region (9,125 groups,
// issue 28) makes tens of megabytes of short-lived objects in one request; with 16 MB semi-spaces
// they were scavenged several times a request and the survivors promoted, which made the slowest
// answers twice the median (p99 108 ms against 69 ms with 64 MB on 2026-11-27). 64 MB cost the API
// 128 MB of memory at the soak's load, over issue 43's 400 MB budget at its peaks, and measured
// side by side on 2026-11-29 the year's grouping was no faster with 64 or 48 MB than with 32
// (docs/benchmarks.md, "Analytics"). The space grows only under that allocation rate, so an idle
// service is no larger; a busy one holds up to 64 MB more.
export const SERVICE_NODE_FLAGS = ["--max-semi-space-size=32"] as const;

// MALLOC_ARENA_MAX=2: glibc's malloc keeps an arena per thread that allocates (up to eight per
// core), and Node's threads (libuv's pool: DNS, crypto, compression; V8's platform workers) each
// hold on to theirs: with two, the API process at the soak's load (bench/soak.ts: 8 readers, 200
// subscribers, 2 pages a second) stayed at 354–382 MB of RSS against 388–405 MB with glibc's
// default, in runs of four minutes the same hour (docs/operations.md#memory). It must be in the
// environment when the process starts (npm start's script sets it unless the operator did).
export const SERVICE_ENVIRONMENT = { MALLOC_ARENA_MAX: "2" } as const;
