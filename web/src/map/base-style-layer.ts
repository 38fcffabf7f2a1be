// A configured base map (MAP_STYLE_URL): the MapLibre style drawn as Leaflet's bottom layer by
// @maplibre/maplibre-gl-leaflet, which keeps MapLibre's view on Leaflet's. This file and MapLibre
// are a chunk of their own, loaded only when a style is configured (base-map.ts), so the offline
// map never fetches or compiles them, and so is MapLibre's stylesheet (copied beside app.js by
// bin/build-web.ts). The style's sources' attributions are shown in Leaflet's attribution control.
import L from "leaflet";
import { maplibreGL } from "@maplibre/maplibre-gl-leaflet";

/** MapLibre's stylesheet, once, before its map is made (MapLibre warns on a page without it). */
function loadMapLibreStylesheet(): Promise<void> {
  const href = "/web/maplibre-gl.css";
  if (document.querySelector(`link[href="${href}"]`)) return Promise.resolve();
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = href;
  const loaded = new Promise<void>((resolve, reject) => {
    link.addEventListener("load", () => resolve());
    link.addEventListener("error", () => reject(new Error(`${href}: not loaded`)));
  });
  document.head.append(link);
  return loaded;
}

/**
 * Adds the style under everything else; `onBusy` follows MapLibre's loading and idle. Returns its
 * removal.
 */
export async function addStyleLayer(
  map: L.Map,
  styleUrl: string,
  onBusy: (busy: boolean) => void,
): Promise<() => void> {
  await loadMapLibreStylesheet();
  const layer = maplibreGL({ style: styleUrl, interactive: false }).addTo(map);
  const glMap = layer.getMaplibreMap();
  const attribution = L.control.attribution({ prefix: false, position: "bottomright" }).addTo(map);
  glMap.on("dataloading", () => onBusy(true));
  glMap.on("idle", () => onBusy(false));
  glMap.once("load", () => {
    const sources = Object.values(glMap.getStyle().sources);
    for (const source of sources) {
      // The style's own text: the operator chose the style, as MapLibre's control would show it.
      if ("attribution" in source && source.attribution) attribution.addAttribution(source.attribution);
    }
  });
  return () => {
    attribution.remove();
    layer.remove();
  };
}
