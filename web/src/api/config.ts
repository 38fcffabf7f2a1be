// What the service tells the page about itself (GET /web/config.json, lib/web/web-routes.ts): where
// the API is, the credential a public page reads with, and the base map to draw.
export interface WebConfig {
  /** The GraphQL endpoint, for queries (HTTP) and subscriptions (graphql-ws over WebSocket). */
  graphqlPath: string;
  /** The web-client API token the public page reads with; null when the map is for signed-in users only. */
  apiToken: string | null;
  /** True when the page must be used signed in (WEB_REQUIRE_SIGN_IN). */
  requireSignIn: boolean;
  /** A MapLibre style URL (MAP_STYLE_URL); it overrides the tiles. */
  mapStyleUrl: string | null;
  /**
   * A raster tile URL template (MAP_TILE_URL; PDOK's BRT-Achtergrondkaart unless set), drawn when the
   * browser can reach it; null, or tiles that do not load, draw the offline map (the shipped
   * boundaries with place names).
   */
  mapTileUrl: string | null;
  /** What the tiles' licence asks to show, as HTML (only its text and http(s) links are shown). */
  mapTileAttribution: string | null;
}

export async function loadConfig(): Promise<WebConfig> {
  const response = await fetch("/web/config.json", { headers: { accept: "application/json" } });
  if (!response.ok) throw new Error(`The service answered ${response.status} for its configuration.`);
  return (await response.json()) as WebConfig;
}
