// The open data is for pages of any origin (a browser's GIS client, DuckDB in a page, a calendar web
// app), whatever CORS_ORIGINS narrows for the API: /ogc, /archive/ and /calendars/ answer any
// Origin with Access-Control-Allow-Origin: * and their preflights with 204 (Range allowed, for a
// Parquet reader in a page), while /graphql keeps to
// its list and a share page (a page people open, not data a script reads) sends no CORS at all.
import { expect, test } from "@jest/globals";
import { FEEDS_OFF, useTestService } from "../helpers/service.ts";

const ctx = useTestService(() => ({
  feeds: FEEDS_OFF,
  processRole: "api",
  http: { corsOrigins: ["https://app.example.org"] },
}));
const ORIGIN = "https://gis.example.net";

test("open data answers any origin; the API keeps to CORS_ORIGINS; share pages send none", async () => {
  for (const path of ["/ogc", "/ogc/collections", "/calendars/netherlands.ics", "/archive/index.json"]) {
    const response = await fetch(ctx.service.url + path, { headers: { origin: ORIGIN } });
    expect([path, response.headers.get("access-control-allow-origin")]).toEqual([path, "*"]);
    const preflight = await fetch(ctx.service.url + path, {
      method: "OPTIONS",
      headers: { origin: ORIGIN, "access-control-request-method": "GET", "access-control-request-headers": "range" },
    });
    expect([path, preflight.status, preflight.headers.get("access-control-allow-methods")]).toEqual([
      path,
      204,
      "GET, HEAD, OPTIONS",
    ]);
    // A Parquet reader in a page asks for the file's end (Range) and reads where it landed.
    expect(preflight.headers.get("access-control-allow-headers")).toContain("Range");
    expect(response.headers.get("access-control-expose-headers")).toContain("Content-Range");
  }
  const api = await fetch(ctx.service.url + "/graphql", {
    method: "OPTIONS",
    headers: { origin: ORIGIN, "access-control-request-method": "POST" },
  });
  expect(api.status).toBe(403);
  const page = await fetch(ctx.service.url + "/incidents/AZLs-uAIdu2Ku1r7XmfcRw", { headers: { origin: ORIGIN } });
  expect(page.headers.get("access-control-allow-origin")).toBeNull();
});
