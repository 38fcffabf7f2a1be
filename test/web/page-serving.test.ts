// The web application as the service serves it: its page for a browser's GET of any of its paths,
// its built files, its configuration, and a strict Content-Security-Policy on all of them; in
// Chromium, the app shell comes up under that policy without a reported problem.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import type { Browser } from "puppeteer-core";
import { launchBrowser, LAUNCH_TIMEOUT, newWatchedPage, screenshot, seriousAxeViolations } from "../helpers/browser.ts";
import { loadConfig, PDOK_TILE_ATTRIBUTION, PDOK_TILE_URL } from "../../lib/config.ts";
import { webContentSecurityPolicy } from "../../lib/web/web-routes.ts";
import { useTestService } from "../helpers/service.ts";

const ctx = useTestService();

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
      const html = await response.text();
      expect(html).toContain('<script type="module" src="/web/app.js"></script>');
      expect(html).not.toMatch(/<script>|<script type="module">/);
    }
  });

  test("the built script, stylesheet and boundaries are served; a missing file is a 404", async () => {
    const script = await fetch(new URL("/web/app.js", ctx.service.url));
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toMatch(/javascript/);
    expect(script.headers.get("etag")).toBeTruthy();
    expect((await fetch(new URL("/web/app.css", ctx.service.url))).status).toBe(200);
    const provinces = await fetch(new URL("/web/nl-provinces.geojson", ctx.service.url));
    expect(((await provinces.json()) as { features: unknown[] }).features).toHaveLength(12);
    expect((await fetch(new URL("/web/nothing.js", ctx.service.url))).status).toBe(404);
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
    expect(await ide.text()).not.toContain("/web/app.js");
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
});
