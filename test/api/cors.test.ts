// CORS over plain HTTP (README, API rules): preflights of /graphql, its event stream alias and the
// account links answered 204 with the allow headers; Access-Control-Allow-Origin on every answer
// to an allowed origin, errors (401, 405, 429, 503) included, with Retry-After exposed; never
// Access-Control-Allow-Credentials; no CORS on the HTML pages and the ops routes; and with
// CORS_ORIGINS, only the listed origins, Vary: Origin, and a 403 to another origin's preflight.
// A real browser calling from another origin: test/api/cors-browser.test.ts.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { loadConfig } from "../../lib/config.ts";
import type { DatabaseAvailability } from "../../lib/db/availability.ts";
import { makeCors } from "../../lib/http/cors.ts";
import { makeUnavailableGuard } from "../../lib/http/unavailable-guard.ts";
import {
  errorOf,
  startTestService,
  useTestService,
  type GraphQLResponse,
  type TestService,
} from "../helpers/service.ts";

const ctx = useTestService();
const ORIGIN = "http://app.example.org";
const QUERY = JSON.stringify({ query: "{ __typename }" });

let token: string;
beforeAll(async () => {
  token = (await ctx.service.newToken({ name: "cors" })).secret;
});

/** A preflight as a browser sends it before a POST with Authorization and a JSON body. */
function preflight(url: string, origin = ORIGIN, method = "POST"): Promise<Response> {
  return fetch(url, {
    method: "OPTIONS",
    headers: {
      origin,
      "access-control-request-method": method,
      "access-control-request-headers": "authorization,content-type",
    },
  });
}

/** The CORS headers of an answer (and Vary), by lower-case name. */
function corsHeaders(response: Response): Record<string, string> {
  return Object.fromEntries(
    [...response.headers].filter(([name]) => name.startsWith("access-control-") || name === "vary"),
  );
}

const PREFLIGHT_HEADERS = {
  "access-control-allow-origin": "*",
  "access-control-allow-headers": "Authorization, Content-Type, Accept, x-graphql-event-stream-token",
  "access-control-expose-headers": "Retry-After",
  "access-control-max-age": "7200",
};

describe("CORS_ORIGINS unset: any origin", () => {
  test.each([
    ["/graphql", "GET, POST, PUT, DELETE, OPTIONS"],
    ["/graphql/stream", "GET, POST, PUT, DELETE, OPTIONS"],
    ["/auth/verify-email?token=x", "GET, OPTIONS"],
  ])("a preflight to %s gets 204 with the allow headers", async (path, methods) => {
    const answer = await preflight(`${ctx.service.url}${path}`);
    expect(answer.status).toBe(204);
    expect(corsHeaders(answer)).toEqual({ ...PREFLIGHT_HEADERS, "access-control-allow-methods": methods });
    expect(await answer.text()).toBe("");
  });

  test("an OPTIONS that is not a preflight gets 204 with Allow", async () => {
    const answer = await fetch(ctx.service.graphqlUrl, { method: "OPTIONS" });
    expect([answer.status, answer.headers.get("allow")]).toEqual([204, "GET, POST, PUT, DELETE, OPTIONS"]);
    expect(answer.headers.get("access-control-allow-methods")).toBeNull();
  });

  test.each([
    ["a query", 200, { method: "POST", body: QUERY, auth: true }],
    ["no API token", 401, { method: "POST", body: JSON.stringify({ query: "{ p2000MessagesCount }" }), auth: false }],
    ["a wrong method", 405, { method: "PATCH", body: QUERY, auth: true }],
    [
      "a subscription over plain HTTP",
      400,
      { method: "POST", body: JSON.stringify({ query: "subscription { meteoRegions { code } }" }), auth: true },
    ],
    [
      "the event stream without a token",
      401,
      {
        method: "POST",
        body: JSON.stringify({ query: "subscription { meteoRegions { code } }" }),
        auth: false,
        accept: "text/event-stream",
      },
    ],
  ] as const)("every answer carries Access-Control-Allow-Origin: %s (%i)", async (_what, status, request) => {
    const answer = await fetch(ctx.service.graphqlUrl, {
      method: request.method,
      headers: {
        origin: ORIGIN,
        "content-type": "application/json",
        accept: "accept" in request ? request.accept : "application/json",
        ...(request.auth ? { authorization: `Bearer ${token}` } : {}),
      },
      body: request.body,
    });
    expect(answer.status).toBe(status);
    expect(corsHeaders(answer)).toEqual({
      "access-control-allow-origin": "*",
      "access-control-expose-headers": "Retry-After",
    });
  });

  test("the account links carry it too; the HTML pages and the ops routes do not", async () => {
    const link = await fetch(`${ctx.service.url}/auth/verify-email?token=nonsense`, {
      headers: { origin: ORIGIN },
      redirect: "manual",
    });
    expect(link.status).toBe(303);
    expect(link.headers.get("access-control-allow-origin")).toBe("*");
    for (const path of ["/respond?token=x", "/graphiql", "/health", "/ready"]) {
      const answer = await fetch(`${ctx.service.url}${path}`, { headers: { origin: ORIGIN } });
      expect([path, corsHeaders(answer)]).toEqual([path, {}]);
    }
    const respondPreflight = await preflight(`${ctx.service.url}/respond`);
    expect(respondPreflight.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("errors before any routing", () => {
  let limited: TestService;
  beforeAll(async () => {
    limited = await startTestService(ctx.db, {
      processRole: "api",
      http: { requestBudgets: { perToken: 1_000_000, perAddress: 2, trustProxy: false } },
    });
  });
  afterAll(async () => {
    await limited?.stop();
  });

  test("a 429 carries Access-Control-Allow-Origin and exposes Retry-After; a preflight spends no budget", async () => {
    for (let i = 0; i < 5; i++) expect((await preflight(limited.graphqlUrl)).status).toBe(204);
    let answer: Response;
    do {
      answer = await fetch(limited.graphqlUrl, {
        method: "POST",
        headers: { origin: ORIGIN, "content-type": "application/json", authorization: `Bearer ${token}` },
        body: QUERY,
      });
    } while (answer.status === 200);
    expect(answer.status).toBe(429);
    expect(errorOf((await answer.json()) as GraphQLResponse["body"]).code).toBe("RATE_LIMITED");
    expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(corsHeaders(answer)).toEqual({
      "access-control-allow-origin": "*",
      "access-control-expose-headers": "Retry-After",
    });
    expect((await preflight(limited.graphqlUrl)).status).toBe(204);
  });

  test("a 503 of the outage guard carries them too (CORS goes first, as in service.ts)", async () => {
    const cors = makeCors({ origins: "*", routes: [{ path: "/graphql", methods: ["GET", "POST"] }] });
    const unavailable = makeUnavailableGuard({ isUp: false } as DatabaseAvailability);
    const server: Server = createServer((req, res) => {
      if (!cors(req, res) && !unavailable(req, res)) res.writeHead(500).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const answer = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`, {
        method: "POST",
        headers: { origin: ORIGIN },
      });
      expect([answer.status, answer.headers.get("retry-after")]).toEqual([503, "2"]);
      expect(corsHeaders(answer)).toEqual({
        "access-control-allow-origin": "*",
        "access-control-expose-headers": "Retry-After",
      });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });
});

describe("CORS_ORIGINS set: only the listed origins", () => {
  let narrow: TestService;
  beforeAll(async () => {
    narrow = await startTestService(ctx.db, {
      processRole: "api",
      http: { corsOrigins: [ORIGIN, "https://console.example.org:8443"] },
    });
  });
  afterAll(async () => {
    await narrow?.stop();
  });

  test("a listed origin gets itself back, with Vary: Origin", async () => {
    const answer = await preflight(narrow.graphqlUrl, "https://console.example.org:8443");
    expect(answer.status).toBe(204);
    expect(corsHeaders(answer)).toEqual({
      ...PREFLIGHT_HEADERS,
      "access-control-allow-origin": "https://console.example.org:8443",
      "access-control-allow-methods": "GET, POST, PUT, DELETE, OPTIONS",
      vary: "Origin",
    });
    const query = await fetch(narrow.graphqlUrl, {
      method: "POST",
      headers: { origin: ORIGIN, "content-type": "application/json", authorization: `Bearer ${token}` },
      body: QUERY,
    });
    expect(query.status).toBe(200);
    expect(corsHeaders(query)).toEqual({
      "access-control-allow-origin": ORIGIN,
      "access-control-expose-headers": "Retry-After",
      vary: "Origin",
    });
  });

  test("another origin's preflight is refused with 403; its requests and those without Origin get none", async () => {
    const refused = await preflight(narrow.graphqlUrl, "http://elsewhere.example.org");
    expect(refused.status).toBe(403);
    expect(corsHeaders(refused)).toEqual({ vary: "Origin" });
    expect(errorOf((await refused.json()) as GraphQLResponse["body"]).code).toBe("FORBIDDEN");
    for (const origin of ["http://elsewhere.example.org", undefined]) {
      const answer = await fetch(narrow.graphqlUrl, {
        method: "POST",
        headers: {
          ...(origin ? { origin } : {}),
          "content-type": "application/json",
          authorization: `Bearer ${token}`,
        },
        body: QUERY,
      });
      expect(answer.status).toBe(200); // served: it is the browser that keeps the answer from the page
      expect(corsHeaders(answer)).toEqual({ vary: "Origin" });
    }
  });
});

describe("the CORS_ORIGINS setting", () => {
  const withOrigins = (value: string | undefined) => {
    const saved = process.env.CORS_ORIGINS;
    if (value === undefined) delete process.env.CORS_ORIGINS;
    else process.env.CORS_ORIGINS = value;
    try {
      return loadConfig().http.corsOrigins;
    } finally {
      if (saved === undefined) delete process.env.CORS_ORIGINS;
      else process.env.CORS_ORIGINS = saved;
    }
  };

  test("unset, empty or * is any origin; a list is kept as browsers send origins", () => {
    expect([withOrigins(undefined), withOrigins(""), withOrigins(" * ")]).toEqual(["*", "*", "*"]);
    expect(withOrigins("https://App.Example.org/, http://localhost:3000,https://x.example.org:443")).toEqual([
      "https://app.example.org",
      "http://localhost:3000",
      "https://x.example.org",
    ]);
  });

  test.each(["app.example.org", "https://app.example.org/path", "ftp://app.example.org", "https://a.example.org,*"])(
    "%s is refused at start",
    (value) => {
      expect(() => withOrigins(value)).toThrow(/CORS_ORIGINS must be \* or comma-separated origins/);
    },
  );
});
