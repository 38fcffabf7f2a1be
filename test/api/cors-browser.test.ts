// CORS proved in a real browser (headless Chromium): a page served by a second local HTTP server
// (another port, so another origin) calls the service the way a web application of another site
// would. Its fetch POST to /graphql with an Authorization header (which makes Chromium send a
// preflight first) reads the data; the graphql-ws client (its browser bundle, served by the page's
// server) receives a new P2000 message over the WebSocket; the graphql-sse client receives one
// over SSE on /graphql in both modes (the single connection mode's PUT, token header and DELETE
// need preflights too). With CORS_ORIGINS naming another origin, the browser keeps the answer from
// the page. Plain-HTTP checks of the headers: test/api/cors.test.ts.
import fs from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import chromium from "@sparticuz/chromium";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { untilHeard } from "../helpers/live-clients.ts";
import { startTestService, useTestService, type TestService } from "../helpers/service.ts";
import { waitUntil } from "../helpers/wait.ts";

// What the functions run in the page see of the browser and of the two bundles; the project's
// TypeScript has no DOM library (it is server code), so these are typed for this file alone.
interface Sink {
  next(value: { data?: { p2000Messages?: Array<{ message: string }> } }): void;
  error(error: unknown): void;
  complete(): void;
}
interface SubscribingClient {
  subscribe(request: { query: string }, sink: Sink): () => void;
}
declare const window: {
  graphqlWs: { createClient(options: Record<string, unknown>): SubscribingClient };
  graphqlSse: { createClient(options: Record<string, unknown>): SubscribingClient };
  events: string[];
  failures: string[];
};

// Unpacking Chromium (first run on a machine) and starting it on a busy 2-core runner.
const LAUNCH_TIMEOUT = 180_000;
const EVENT_TIMEOUT = 45_000;
const TEST_TIMEOUT = 120_000;
const NEW_MESSAGES = "subscription { p2000Messages { message } }";
const MODULES = path.join(import.meta.dirname, "../../node_modules");
// The page's server: an HTML page and the two client libraries' browser bundles (UMD: each sets a global).
const FILES: Record<string, [type: string, body: () => Buffer | string]> = {
  "/": [
    "text/html; charset=utf-8",
    () =>
      '<!doctype html><html lang="en"><title>Another origin</title>' +
      '<script src="/graphql-ws.js"></script><script src="/graphql-sse.js"></script></html>',
  ],
  "/graphql-ws.js": ["text/javascript", () => fs.readFileSync(path.join(MODULES, "graphql-ws/umd/graphql-ws.min.js"))],
  "/graphql-sse.js": [
    "text/javascript",
    () => fs.readFileSync(path.join(MODULES, "graphql-sse/umd/graphql-sse.min.js")),
  ],
};

const ctx = useTestService();

let browser: Browser | undefined;
let pageServer: Server | undefined;
let pageOrigin: string;
let token: string;
beforeAll(async () => {
  pageServer = createServer((req, res) => {
    const file = FILES[req.url ?? ""];
    if (file) res.writeHead(200, { "content-type": file[0] }).end(file[1]());
    else res.writeHead(204).end(); // the favicon
  });
  await new Promise<void>((resolve) => pageServer!.listen(0, "127.0.0.1", resolve));
  pageOrigin = `http://127.0.0.1:${(pageServer.address() as AddressInfo).port}`;
  browser = await puppeteer.launch({
    executablePath: await chromium.executablePath(),
    // The package's arguments turn the same-origin policy off (--disable-web-security): CORS is
    // what this file tests, so the policy stays on.
    args: chromium.args.filter((arg) => arg !== "--disable-web-security"),
    headless: true,
    protocolTimeout: LAUNCH_TIMEOUT,
  });
  token = (await ctx.service.newToken({ name: "another origin" })).secret;
}, LAUNCH_TIMEOUT);
afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => (pageServer ? pageServer.close(resolve) : resolve(undefined)));
});

interface OpenPage {
  page: Page;
  /** What the page itself reported: uncaught errors, console errors, failed requests. */
  problems: string[];
}

/** The page of the other origin, opened in a new tab, its bundles loaded. */
async function openPage(): Promise<OpenPage> {
  // (@sparticuz/chromium runs with --single-process, which closes when asked for a new browser context.)
  const page = await browser!.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${String(error)}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("requestfailed", (request) => {
    // The graphql-sse client never reads the (empty) body of the 202 that accepts an operation in
    // single connection mode, and Chromium then reports the answered request as aborted.
    if (request.failure()?.errorText === "net::ERR_ABORTED" && request.response()?.ok()) return;
    problems.push(`request failed: ${request.method()} ${request.url()} ${request.failure()?.errorText}`);
  });
  expect((await page.goto(`${pageOrigin}/`, { waitUntil: "load" }))?.status()).toBe(200);
  expect(new URL(page.url()).origin).not.toBe(new URL(ctx.service.url).origin);
  return { page, problems };
}

/** The page's fetch POST with Authorization: the JSON it read, or the error fetch threw. */
function fetchFromPage(page: Page, graphqlUrl: string): Promise<unknown> {
  return page.evaluate(
    async (url, authorization) => {
      try {
        const response = await fetch(url, {
          method: "POST",
          headers: { authorization, "content-type": "application/json", accept: "application/graphql-response+json" },
          body: JSON.stringify({ query: "{ p2000Regions(first: 2) { number } }" }),
        });
        return { status: response.status, body: await response.json() };
      } catch (error) {
        return `${(error as Error).name}: ${(error as Error).message}`;
      }
    },
    graphqlUrl,
    `Bearer ${token}`,
  );
}

/** Answers to preflights (204) of /graphql counted so far, from the service's metrics. */
async function preflightsAnswered(): Promise<number> {
  const metrics = await (await fetch(`${ctx.service.url}/metrics`)).text();
  return Number(/^nlis_http_requests_total\{route="graphql",status="204"\} (\d+)$/m.exec(metrics)?.[1] ?? 0);
}

let sequence = 0;
/** Stores one P2000 message as the FLEX reader does (sent now) and returns its text. */
async function store(kind = "probe"): Promise<string> {
  const message = `A2 Cors ${kind} ${++sequence} Utrecht ${Date.now()}`;
  await storeP2000Pages(ctx.db, [{ message, sended: new Date().toISOString(), capcodes: ["0923001"] }]);
  return message;
}

/** Subscribes in the page with one of the two clients; the page collects the messages in window.events. */
async function subscribeInPage(
  page: Page,
  library: "graphqlWs" | "graphqlSse",
  options: Record<string, unknown>,
): Promise<void> {
  await page.evaluate(
    (library, options, query) => {
      window.events = [];
      window.failures = [];
      const client = window[library].createClient({ ...options, retryAttempts: 0 });
      client.subscribe(
        { query },
        {
          next: (event) => window.events.push(...(event.data?.p2000Messages ?? []).map((m) => m.message)),
          error: (error) => window.failures.push(error instanceof Error ? error.message : JSON.stringify(error)),
          complete: () => undefined,
        },
      );
    },
    library,
    options,
    NEW_MESSAGES,
  );
}

/** Waits until the page's subscription hears the database, then for one new message. */
async function receiveOne(page: Page): Promise<void> {
  await untilHeard(
    () => page.evaluate(() => window.events.length),
    () => store(),
    EVENT_TIMEOUT,
  );
  const next = await store("next");
  await waitUntil(
    () => page.evaluate(() => window.events),
    (events) => events.includes(next),
    `the page to receive "${next}"`,
    EVENT_TIMEOUT,
  );
  expect(await page.evaluate(() => window.failures)).toEqual([]);
}

describe("a page of another origin, CORS_ORIGINS unset", () => {
  test(
    "fetch POST with Authorization: preflight answered, the data read",
    async () => {
      const { page, problems } = await openPage();
      try {
        const before = await preflightsAnswered();
        const answer = await fetchFromPage(page, ctx.service.graphqlUrl);
        expect(answer).toEqual({ status: 200, body: { data: { p2000Regions: [{ number: "01" }, { number: "02" }] } } });
        expect(await preflightsAnswered()).toBe(before + 1);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    TEST_TIMEOUT,
  );

  test(
    "the graphql-ws client receives a new message over the WebSocket",
    async () => {
      const { page, problems } = await openPage();
      try {
        await subscribeInPage(page, "graphqlWs", {
          url: ctx.service.graphqlUrl.replace(/^http/, "ws"),
          connectionParams: { authorization: `Bearer ${token}` },
        });
        await receiveOne(page);
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    TEST_TIMEOUT,
  );

  test.each([
    ["distinct connections", false],
    ["single connection", true],
  ])(
    "the graphql-sse client receives a new message over SSE on /graphql, %s mode",
    async (_mode, singleConnection) => {
      const { page, problems } = await openPage();
      try {
        await subscribeInPage(page, "graphqlSse", {
          url: ctx.service.graphqlUrl,
          headers: { authorization: `Bearer ${token}` },
          singleConnection,
        });
        await receiveOne(page);
        // Checked before the page closes: closing it cuts its stream (and the client's requests) short.
        expect(problems).toEqual([]);
      } finally {
        await page.close();
      }
    },
    TEST_TIMEOUT,
  );
});

describe("a page of another origin, CORS_ORIGINS naming a different one", () => {
  let narrow: TestService;
  beforeAll(async () => {
    narrow = await startTestService(ctx.db, { processRole: "api", http: { corsOrigins: ["https://app.example.org"] } });
  });
  afterAll(async () => {
    await narrow?.stop();
  });

  test(
    "the browser keeps the answer from the page: fetch fails, and says CORS",
    async () => {
      const { page, problems } = await openPage();
      try {
        expect(await fetchFromPage(page, narrow.graphqlUrl)).toBe("TypeError: Failed to fetch");
        expect(problems.join("\n")).toContain("has been blocked by CORS policy");
      } finally {
        await page.close();
      }
    },
    TEST_TIMEOUT,
  );
});
