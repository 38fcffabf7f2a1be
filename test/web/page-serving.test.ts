// The web application as the service serves it: its page for a browser's GET of any of its paths,
// its built files, its configuration, and a strict Content-Security-Policy on all of them; in
// Chromium, the app shell comes up under that policy without a reported problem. The files the
// page loads are named by their content's hash and kept by browsers for a year, and sent
// precompressed (brotli, gzip) to a client that takes it (issue 44); the page itself is revalidated.
import http from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Browser, HTTPResponse } from "puppeteer-core";
import { launchBrowser, LAUNCH_TIMEOUT, newWatchedPage, screenshot, seriousAxeViolations } from "../helpers/browser.ts";
import { loadConfig, PDOK_TILE_ATTRIBUTION, PDOK_TILE_URL } from "../../lib/config.ts";
import { chooseEncoding, webContentSecurityPolicy } from "../../lib/web/web-routes.ts";
import { useTestService } from "../helpers/service.ts";

const ctx = useTestService();

const HASH = "[A-Z2-7]{8}";
const IMMUTABLE = "public, max-age=31536000, immutable";

/** A GET with exactly these headers, its body as sent (not decoded, unlike fetch). */
function rawGet(
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(new URL(path, ctx.service.url), { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status: response.statusCode!, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on("error", reject);
      })
      .on("error", reject);
  });
}

/** The page's hashed files: its script and stylesheet (from index.html), the data files its script fetches. */
async function builtFiles() {
  const html = (await rawGet("/", { accept: "text/html" })).body.toString();
  const script = new RegExp(`<script type="module" src="(/web/app-${HASH}\\.js)"></script>`).exec(html)?.[1];
  const stylesheet = new RegExp(`<link rel="stylesheet" href="(/web/app-${HASH}\\.css)" />`).exec(html)?.[1];
  expect({ script, stylesheet }).toEqual({ script: expect.any(String), stylesheet: expect.any(String) });
  const code = (await rawGet(script!)).body.toString();
  const named = (name: string, extension: string) => new RegExp(`/web/${name}-${HASH}\\.${extension}`).exec(code)?.[0];
  const data = {
    provinces: named("nl-provinces", "geojson"),
    regions: named("safety-regions", "geojson"),
    places: named("places", "json"),
  };
  expect(data).toEqual({ provinces: expect.any(String), regions: expect.any(String), places: expect.any(String) });
  return { script: script!, stylesheet: stylesheet!, ...(data as Record<keyof typeof data, string>) };
}

describe("the web application's files", () => {
  test("a browser's GET of / or another page path gets the page, under a policy without inline script", async () => {
    for (const path of ["/", "/dashboards", "/dashboards?region=17"]) {
      const response = await fetch(new URL(path, ctx.service.url), { headers: { accept: "text/html" } });
      expect(response.status).toBe(200);
      expect(response.headers.get("content-type")).toMatch(/^text\/html/);
      const policy = response.headers.get("content-security-policy")!;
      expect(policy).toContain("script-src 'self'");
      expect(policy).not.toMatch(/unsafe-inline|unsafe-eval/);
      expect(policy).toContain("frame-ancestors 'none'");
      // Revalidated: a new build's page names new files.
      expect(response.headers.get("cache-control")).toBe("no-cache");
      const html = await response.text();
      expect(html).toMatch(new RegExp(`<script type="module" src="/web/app-${HASH}\\.js"></script>`));
      expect(html).toMatch(new RegExp(`<link rel="stylesheet" href="/web/app-${HASH}\\.css" />`));
      expect(html).not.toMatch(/<script>|<script type="module">/);
    }
  });

  test("the built script, stylesheet and boundaries are served; a missing file is a 404", async () => {
    const files = await builtFiles();
    const script = await fetch(new URL(files.script, ctx.service.url));
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    expect(script.headers.get("etag")).toBeTruthy();
    expect((await fetch(new URL(files.stylesheet, ctx.service.url))).headers.get("content-type")).toMatch(/^text\/css/);
    const provinces = await fetch(new URL(files.provinces, ctx.service.url));
    expect(((await provinces.json()) as { features: unknown[] }).features).toHaveLength(12);
    const regions = await fetch(new URL(files.regions, ctx.service.url));
    expect(((await regions.json()) as { features: unknown[] }).features).toHaveLength(25);
    const places = (await (await fetch(new URL(files.places, ctx.service.url))).json()) as Array<[string, number]>;
    expect(places[0][0]).toBe("Amsterdam");
    expect((await fetch(new URL("/web/nothing.js", ctx.service.url))).status).toBe(404);
    // The old fixed names are gone: nothing can be served stale under them.
    for (const old of ["/web/app.js", "/web/app.css", "/web/nl-provinces.geojson", "/web/places.json"]) {
      expect({ old, status: (await fetch(new URL(old, ctx.service.url))).status }).toEqual({ old, status: 404 });
    }
  });

  test("the configuration says where the API is and which base map to draw", async () => {
    const response = await fetch(new URL("/web/config.json", ctx.service.url));
    expect(response.headers.get("cache-control")).toBe("no-store");
    const config = (await response.json()) as Record<string, unknown>;
    // The tests' environment turns the tiles off (test/global-setup.ts): the offline map.
    expect(config).toMatchObject({
      graphqlPath: "/graphql",
      mapStyleUrl: null,
      mapTileUrl: null,
      mapTileAttribution: null,
    });
  });

  /** loadConfig() with these environment variables set (undefined: unset), as they were afterwards. */
  function configWith(env: Record<string, string | undefined>) {
    const saved = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
    const set = (values: Record<string, string | undefined>) => {
      for (const [name, value] of Object.entries(values)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    };
    set(env);
    try {
      return loadConfig();
    } finally {
      set(saved);
    }
  }

  test("MAP_TILE_URL: PDOK's base map with Kadaster's attribution unless set; empty is none; its origin's images are let in", () => {
    const pdok = configWith({ MAP_TILE_URL: undefined, MAP_TILE_ATTRIBUTION: undefined }).web;
    expect(pdok).toMatchObject({ mapTileUrl: PDOK_TILE_URL, mapTileAttribution: PDOK_TILE_ATTRIBUTION });
    expect(webContentSecurityPolicy(pdok)).toContain("img-src 'self' data: blob: https://service.pdok.nl;");
    expect(webContentSecurityPolicy(pdok)).toContain("connect-src 'self';");
    // Another of PDOK's layers keeps Kadaster's attribution; another host has what the operator says.
    const grey = PDOK_TILE_URL.replace("/standaard/", "/grijs/");
    expect(configWith({ MAP_TILE_URL: grey, MAP_TILE_ATTRIBUTION: undefined }).web.mapTileAttribution).toBe(
      PDOK_TILE_ATTRIBUTION,
    );
    const own = configWith({
      MAP_TILE_URL: "https://{s}.tiles.example.org/base/{z}/{x}/{-y}.png",
      MAP_TILE_ATTRIBUTION: "© Example",
    }).web;
    expect(own).toMatchObject({ mapTileAttribution: "© Example" });
    expect(webContentSecurityPolicy(own)).toContain("img-src 'self' data: blob: https://*.tiles.example.org;");
    const none = configWith({ MAP_TILE_URL: "", MAP_TILE_ATTRIBUTION: undefined }).web;
    expect(none).toMatchObject({ mapTileUrl: undefined, mapTileAttribution: undefined });
    expect(webContentSecurityPolicy(none)).toContain("img-src 'self' data: blob:;");
    // A style overrides the tiles: they are not let in.
    const styled = configWith({ MAP_TILE_URL: undefined, MAP_STYLE_URL: "https://styles.example.org/base.json" }).web;
    expect(webContentSecurityPolicy(styled)).not.toContain("service.pdok.nl");
  });

  test.each([
    "service.pdok.nl/{z}/{x}/{y}.png",
    "ftp://tiles.example.org/{z}/{x}/{y}.png",
    "https://tiles.example.org/tile.png",
    "https://tiles.example.org/{z}/{x}.png",
  ])("MAP_TILE_URL %s is refused at start", (value) => {
    expect(() => configWith({ MAP_TILE_URL: value })).toThrow(
      /MAP_TILE_URL must be an http\(s\) URL template of raster tiles with \{z\}, \{x\} and \{y\}/,
    );
  });

  test.each(["tiles.example.org/style.json", "ftp://tiles.example.org/style.json", "javascript:alert(1)"])(
    "MAP_STYLE_URL %s is refused at start",
    (value) => {
      const saved = process.env.MAP_STYLE_URL;
      process.env.MAP_STYLE_URL = value;
      try {
        expect(() => loadConfig()).toThrow(/MAP_STYLE_URL must be an http\(s\) URL of a MapLibre style/);
      } finally {
        if (saved === undefined) delete process.env.MAP_STYLE_URL;
        else process.env.MAP_STYLE_URL = saved;
      }
    },
  );

  test("the API keeps its paths: GraphiQL and GraphQL are not the page", async () => {
    const ide = await fetch(new URL("/graphiql", ctx.service.url), { headers: { accept: "text/html" } });
    expect(await ide.text()).not.toMatch(/\/web\/app-/);
  });
});

describe("compressed and cached files", () => {
  test("each hashed file is immutable, and br and gzip decode to the plain file's bytes with its type", async () => {
    const files = await builtFiles();
    for (const [name, file] of Object.entries(files)) {
      const plain = await rawGet(file);
      expect({ name, status: plain.status, encoding: plain.headers["content-encoding"] }).toEqual({
        name,
        status: 200,
        encoding: undefined,
      });
      expect(plain.headers["cache-control"]).toBe(IMMUTABLE);
      expect(plain.headers.vary).toMatch(/accept-encoding/i);
      for (const [encoding, decode] of [
        ["br", brotliDecompressSync],
        ["gzip", gunzipSync],
      ] as const) {
        const packed = await rawGet(file, { "accept-encoding": encoding });
        expect({ name, encoding: packed.headers["content-encoding"] }).toEqual({ name, encoding });
        expect(packed.headers["content-type"]).toBe(plain.headers["content-type"]);
        expect(packed.headers["cache-control"]).toBe(IMMUTABLE);
        expect(packed.headers.vary).toMatch(/accept-encoding/i);
        expect(packed.headers["content-security-policy"]).toBe(plain.headers["content-security-policy"]);
        expect(packed.body.length).toBeLessThan(plain.body.length / 2);
        expect(decode(packed.body).equals(plain.body)).toBe(true);
      }
    }
  });

  test("a browser's usual Accept-Encoding gets brotli; without the header, the plain bytes", async () => {
    const { script, places } = await builtFiles();
    for (const file of [script, places]) {
      const plain = await rawGet(file);
      const chrome = await rawGet(file, { "accept-encoding": "gzip, deflate, br, zstd" });
      expect(chrome.headers["content-encoding"]).toBe("br");
      expect(brotliDecompressSync(chrome.body).equals(plain.body)).toBe(true);
      expect((await rawGet(file, { "accept-encoding": "br;q=0, gzip" })).headers["content-encoding"]).toBe("gzip");
      const identity = await rawGet(file, { "accept-encoding": "identity" });
      expect(identity.headers["content-encoding"]).toBeUndefined();
      expect(identity.body.equals(plain.body)).toBe(true);
      expect(plain.headers["content-length"]).toBe(String(plain.body.length));
    }
  });

  test("the choice of encoding follows the q-values, brotli first when equal", () => {
    const both = ["br", "gzip"] as const;
    expect(chooseEncoding(undefined, both)).toBeUndefined();
    expect(chooseEncoding("", both)).toBeUndefined();
    expect(chooseEncoding("gzip, br", both)).toBe("br");
    expect(chooseEncoding("gzip;q=1, br;q=0.5", both)).toBe("gzip");
    expect(chooseEncoding("*", both)).toBe("br");
    expect(chooseEncoding("*;q=0.5, br;q=0", both)).toBe("gzip");
    expect(chooseEncoding("deflate, identity", both)).toBeUndefined();
    expect(chooseEncoding("GZIP", ["gzip"])).toBe("gzip");
  });

  test("the page, its configuration and the fixed names are revalidated; a missing hashed name is not kept", async () => {
    for (const path of ["/", "/web/index.html"]) {
      const page = await rawGet(path, { accept: "text/html" });
      expect({ path, cacheControl: page.headers["cache-control"] }).toEqual({ path, cacheControl: "no-cache" });
    }
    expect((await rawGet("/web/config.json")).headers["cache-control"]).toBe("no-store");
    // MapLibre's worker keeps its name (it is looked for beside the chunk that starts it): compressed, revalidated.
    const worker = await rawGet("/web/maplibre-gl-worker.mjs", { "accept-encoding": "br" });
    expect(worker.headers["content-encoding"]).toBe("br");
    expect(worker.headers["cache-control"]).toBe("no-cache");
    expect(worker.headers.etag).toBeTruthy();
    const missing = await rawGet("/web/app-AAAAAAAA.js", { "accept-encoding": "br" });
    expect(missing.status).toBe(404);
    expect(missing.headers["cache-control"]).not.toBe(IMMUTABLE);
    // The twins are no address of their own.
    const { script } = await builtFiles();
    expect((await rawGet(`${script}.br`)).status).toBe(404);
    expect((await rawGet(`${script}.gz`)).status).toBe(404);
  });

  test("a revalidated file answers 304 to its ETag, per encoding", async () => {
    const first = await rawGet("/web/maplibre-gl.css", { "accept-encoding": "gzip" });
    const again = await rawGet("/web/maplibre-gl.css", {
      "accept-encoding": "gzip",
      "if-none-match": String(first.headers.etag),
    });
    expect(again.status).toBe(304);
  });
});

describe("the page in Chromium", () => {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  }, LAUNCH_TIMEOUT);
  afterAll(async () => {
    await browser?.close();
  });

  test("the shell comes up in Dutch for a Dutch browser, switches to English, with nothing reported", async () => {
    const { page, problems } = await newWatchedPage(browser!, { language: "nl-NL,nl;q=0.9" });
    await page.goto(new URL("/dashboards", ctx.service.url).href, { waitUntil: "load" });
    await page.locator("::-p-aria([name='Dashboards'][role='link'])").wait();
    expect(await page.$eval("html", (html) => html.lang)).toBe("nl");
    await page.locator("::-p-aria([name='English'][role='button'])").click();
    await page.locator("::-p-aria([name='Map'][role='link'])").wait();
    expect(new URL(page.url()).searchParams.get("lang")).toBe("en");
    expect(await page.$eval("html", (html) => html.lang)).toBe("en");
    await screenshot(page, "shell-english");
    expect(await seriousAxeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  test("the map loads its hashed files compressed, under the page's policy, and from the cache on the next visit", async () => {
    const { page, problems } = await newWatchedPage(browser!);
    const responses: HTTPResponse[] = [];
    page.on("response", (response) => responses.push(response));
    await page.goto(new URL("/", ctx.service.url).href, { waitUntil: "load" });
    await page.waitForSelector("[data-base-map='offline']");
    const fetched = (name: RegExp) => responses.find((response) => name.test(new URL(response.url()).pathname));
    const hashedFiles = [
      new RegExp(`^/web/app-${HASH}\\.js$`),
      new RegExp(`^/web/app-${HASH}\\.css$`),
      new RegExp(`^/web/nl-provinces-${HASH}\\.geojson$`),
      new RegExp(`^/web/safety-regions-${HASH}\\.geojson$`),
      new RegExp(`^/web/places-${HASH}\\.json$`),
    ];
    for (const name of hashedFiles) {
      const response = await waitForResponse(() => fetched(name), String(name));
      expect({
        name: String(name),
        status: response.status(),
        encoding: response.headers()["content-encoding"],
      }).toEqual({ name: String(name), status: 200, encoding: "br" });
    }
    // Back on the page: the hashed files come from the browser's cache, without a request.
    responses.length = 0;
    await page.goto(new URL("/?lang=en", ctx.service.url).href, { waitUntil: "load" });
    await page.waitForSelector("[data-base-map='offline']");
    // Each is waited for: the map asks for its boundaries and places some time after the script
    // (counting the responses at the script's arrival missed one on a busy machine).
    for (const name of hashedFiles) {
      const response = await waitForResponse(() => fetched(name), String(name));
      expect({ name: String(name), fromCache: response.fromCache() }).toEqual({ name: String(name), fromCache: true });
    }
    const hashed = responses.filter((response) => /\/web\/.*-[A-Z2-7]{8}\./.test(response.url()));
    expect(hashed.filter((response) => !response.fromCache()).map((response) => response.url())).toEqual([]);
    expect(problems).toEqual([]);
  });
});

/** The response `find` finds, once it has come (the page fetches the data files after its script). */
async function waitForResponse(find: () => HTTPResponse | undefined, what: string): Promise<HTTPResponse> {
  const until = Date.now() + 15_000;
  for (;;) {
    const found = find();
    if (found) return found;
    if (Date.now() > until) throw new Error(`no response for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
