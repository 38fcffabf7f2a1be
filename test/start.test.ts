// The README's first command, as a new user runs it: `npm start` on a fresh DATA_DIR answers,
// prints a working development token once and no password, stops cleanly on SIGTERM (also when
// the process manager signals PostgreSQL as well) and says so, and keeps its data. And as
// an operator runs it on their own server (the test run's server: PostgreSQL 15 in CI's second
// pass): DATABASE_URL and ROOT_DATABASE_URL, roles and database created on the first start.
import { afterAll, expect, test } from "@jest/globals";
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import pg from "pg";
import { ROOT_DIR } from "../lib/paths.ts";
import { SERVICE_ENVIRONMENT, SERVICE_NODE_FLAGS } from "../lib/ops/node-flags.ts";
import { pgUrl } from "../lib/db/pg-url.ts";
import { waitUntil } from "./helpers/wait.ts";
import { freePort } from "./helpers/ports.ts";

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "incidents-start-"));
fs.chmodSync(dataDir, 0o755);
const running = new Set<ChildProcess>();

afterAll(() => {
  for (const child of running) child.kill("SIGKILL");
  fs.rmSync(dataDir, { recursive: true, force: true });
});

interface Started {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

/** How long a first start may take (see npmStart). */
const READY_WITHIN_MS = 120_000;

async function npmStart(env: Record<string, string>): Promise<Started> {
  const child = spawn("npm", ["start"], {
    cwd: ROOT_DIR,
    env: { ...process.env, NODE_OPTIONS: "", DATABASE_URL: "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let output = "";
  child.stdout!.on("data", (chunk) => (output += chunk));
  child.stderr!.on("data", (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.on("exit", (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  // A first start migrates a new database and loads the shipped address index (1.4 million
  // addresses): well under a minute alone, but not on two cores that the other suites keep busy.
  const deadline = Date.now() + READY_WITHIN_MS;
  while (!/Ready in/.test(output)) {
    if (child.exitCode !== null) throw new Error(`npm start exited early:\n${output}`);
    if (Date.now() > deadline)
      throw new Error(`npm start did not get ready in ${READY_WITHIN_MS / 1000} s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { child, output: () => output, exited };
}

async function regions(port: number, token?: string) {
  const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query: "{ p2000Regions { name } }" }),
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** Asks until the answer is there (the demo data loads in the background), within 30 s. */
async function eventually(
  port: number,
  token: string,
  what: string,
  query: string,
  arrived: (data: any) => boolean,
): Promise<any> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query }),
    });
    const { data } = (await response.json()) as any;
    if (arrived(data)) return data;
    if (Date.now() > deadline) throw new Error(`No ${what} after 30 s: ${JSON.stringify(data)}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** The demo traffic the first start queues shows up through the API within a few seconds. */
async function demoMessagesArrive(port: number, token: string) {
  await eventually(
    port,
    token,
    "demo messages",
    "{ p2000MessagesCount p2000Dossiers(first: 1) { uuid } }",
    (data) => data.p2000MessagesCount > 0 && data.p2000Dossiers.length === 1,
  );
}

/** The demo weather: a code orange ahead for Noord-Holland, history and observations. */
async function demoWeatherArrives(port: number, token: string) {
  const data = await eventually(
    port,
    token,
    "demo weather",
    `{ meteoRegionDetail(code: "noord-holland") { statusCode warnings { periods { description } } }
    meteoLatestObservation { stationName } meteoStatsAvailableYears }`,
    (answer) => answer.meteoRegionDetail?.statusCode === 2 && answer.meteoLatestObservation,
  );
  expect(data.meteoRegionDetail.warnings[0].periods[0].description).toMatch(/^Demo: /);
  expect(data.meteoLatestObservation.stationName).toBe("De Bilt");
  expect(data.meteoStatsAvailableYears.length).toBeGreaterThan(0);
}

/** The demo alerts, traffic and flights: an ended AMBER alert without details, an NL-Alert running in Rotterdam-Rijnmond, incidents, two flights. */
async function demoFeedsArrive(port: number, token: string) {
  const data = await eventually(
    port,
    token,
    "demo alerts, traffic and flights",
    `{ amberAlerts { alertId active title }
    nlAlerts(regionNumber: "17", activeOnly: true) { alertId messageNl } trafficIncidents(active: true) { recordId comment } }`,
    (answer) => answer.amberAlerts.length > 0 && answer.nlAlerts.length > 0 && answer.trafficIncidents.length > 0,
  );
  expect(data.amberAlerts).toEqual([{ alertId: "DEMO-AMBER-1", active: false, title: null }]);
  expect(data.nlAlerts).toEqual([{ alertId: "demo0000001", messageNl: expect.stringContaining("DEMO") }]);
  expect(data.trafficIncidents.map((i: { recordId: string }) => i.recordId).sort()).toEqual([
    "DEMO_TRAFFIC_1_1",
    "DEMO_TRAFFIC_2_1",
  ]);
  expect(data.trafficIncidents[0].comment).toMatch(/^DEMO: /);
  const flights = await eventually(
    port,
    token,
    "demo flights",
    `{ aircraftRoutes(icao: "de0001") { startPlace endPlace status } }`,
    // The live demo (demo__tick) may have started a third flight since.
    (answer) => answer.aircraftRoutes.length >= 2,
  );
  expect(flights.aircraftRoutes).toContainEqual({ startPlace: "Amsterdam", endPlace: "Haarlem", status: "completed" });
}

/** The stop as a process manager makes it (systemd's control group): SIGTERM to the service and to its PostgreSQL. */
function stopAsProcessManager(started: Started) {
  const postmaster = Number(fs.readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
  process.kill(postmaster, "SIGTERM");
  started.child.kill("SIGTERM");
}

test(
  "npm start serves, stops on SIGTERM with exit 0, and restarts with its data",
  async () => {
    const env = { DATA_DIR: dataDir, PORT: String(await freePort()), EMBEDDED_PG_PORT: String(await freePort()) };
    const port = Number(env.PORT);

    const first = await npmStart(env);
    expect(first.output()).toContain(`POST http://localhost:${port}/graphql`);
    expect(first.output()).toContain(`http://localhost:${port}/graphiql`);
    expect(first.output()).toContain(`Console:          http://localhost:${port}/console`);
    // The analyst's psql command, and where its password is: no password in the log.
    expect(first.output()).toContain(
      `psql "postgres://app_analyst@127.0.0.1:${env.EMBEDDED_PG_PORT}/incidents" (password: "analystPassword" in ${dataDir}/secrets.json)`,
    );
    const secrets = JSON.parse(fs.readFileSync(path.join(dataDir, "secrets.json"), "utf8")) as Record<string, string>;
    for (const [name, secret] of Object.entries(secrets)) {
      if (name !== "vapidPublicKey")
        expect({ name, printed: first.output().includes(secret) }).toEqual({ name, printed: false });
    }
    const token = /First start: .*\n\s+(nlis_\w+)/.exec(first.output())?.[1];
    expect(token).toBeDefined();
    // Shown once: the example refers to it.
    expect(first.output().split(token!)).toHaveLength(2);
    // The log is about what matters: no completed job at the default level (the demo data is many).
    expect(first.output()).not.toContain("Completed task");

    const withToken = await regions(port, token);
    expect(withToken.status).toBe(200);
    expect(withToken.body.data.p2000Regions).toHaveLength(25);
    expect((await regions(port)).status).toBe(401);
    expect(first.output()).toContain(
      "Loading 3 days of synthetic demo P2000 messages, weather, traffic, alerts and flights in the background",
    );
    await demoMessagesArrive(port, token!);
    await demoWeatherArrives(port, token!);
    await demoFeedsArrive(port, token!);

    const beforeStop = first.output().length;
    stopAsProcessManager(first);
    expect(await first.exited).toBe(0);
    // A stop is logged as a stop, not as an outage. (A line of the work under way, such as the
    // demo load's last, may come just before it.)
    const stopLines = first.output().slice(beforeStop).trim().split("\n");
    const stopping = stopLines.indexOf("Stopping (SIGTERM): finishing requests and jobs…");
    expect(stopping).toBeGreaterThanOrEqual(0);
    expect(stopLines.at(-1)).toBe("Stopped.");
    expect(stopLines.filter((line) => /^(ERROR|WARNING) /.test(line))).toEqual([]);

    const second = await npmStart(env);
    expect(second.output()).not.toContain("First start");
    expect(second.output()).not.toMatch(/nlis_\w{46}/);
    const again = await regions(port, token);
    expect(again.status).toBe(200);
    expect(again.body.data.p2000Regions).toHaveLength(25);

    second.child.kill("SIGINT");
    expect(await second.exited).toBe(0);
    expect(second.output()).toMatch(/Stopping \(SIGINT\): finishing requests and jobs…\n(.*\n)*Stopped\.\n$/);
  },
  2 * READY_WITHIN_MS + 60_000,
);

test(
  "npm start on DATABASE_URL and ROOT_DATABASE_URL creates its roles and database and serves",
  async () => {
    const rootUrl = process.env.TEST_ROOT_URL!;
    const suffix = randomBytes(4).toString("hex");
    const owner = `start_owner_${suffix}`;
    const port = await freePort();
    const started = await npmStart({
      DATA_DIR: dataDir,
      PORT: String(port),
      DATABASE_URL: pgUrl(rootUrl, { user: owner, password: "owner-password", database: `start_${suffix}` }),
      ROOT_DATABASE_URL: rootUrl,
      JWT_SECRET: "a-jwt-secret-of-at-least-thirty-two-characters",
    });
    try {
      const token = /First start: .*\n\s+(nlis_\w+)/.exec(started.output())?.[1];
      expect(token).toBeDefined();
      const answer = await regions(port, token);
      expect(answer.body.errors).toBeUndefined();
      expect(answer.status).toBe(200);
      expect(answer.body.data.p2000Regions).toHaveLength(25);
      expect(started.output()).not.toContain("Loading 3 days of synthetic demo"); // demo data is the embedded default's
    } finally {
      started.child.kill("SIGTERM");
      expect(await started.exited).toBe(0);
      const root = new pg.Client({ connectionString: rootUrl });
      await root.connect();
      await waitUntil(
        async () =>
          (await root.query("select count(*)::int as n from pg_stat_activity where datname = $1", [`start_${suffix}`]))
            .rows[0].n,
        (n) => n === 0,
        "the service's connections to close",
      );
      await root.query(`drop database start_${suffix}`);
      await root.query(`drop role ${owner}`);
      await root.end();
    }
  },
  READY_WITHIN_MS + 60_000,
);

test("npm start and npm run worker give node the service's V8 flags and environment (lib/ops/node-flags.ts), as the benches do", () => {
  const { scripts } = JSON.parse(fs.readFileSync(path.join(ROOT_DIR, "package.json"), "utf8")) as {
    scripts: Record<string, string>;
  };
  for (const script of ["start", "worker"]) {
    expect(scripts[script]).toContain(`exec node ${SERVICE_NODE_FLAGS.join(" ")} server.ts`);
    // the operator's own value wins
    for (const [name, value] of Object.entries(SERVICE_ENVIRONMENT))
      expect(scripts[script]).toContain(`${name}=\${${name}:-${value}}`);
  }
});
