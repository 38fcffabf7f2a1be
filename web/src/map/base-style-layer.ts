// A configured base map (MAP_STYLE_URL): the MapLibre style drawn as Leaflet's bottom layer by
// @maplibre/maplibre-gl-leaflet, which keeps MapLibre's view on Leaflet's. This file and MapLibre
// are a chunk of their own, loaded only when a style is configured (base-map.ts), so the offline
// map never fetches or compiles them, and so is MapLibre's stylesheet (copied beside app.js by
// bin/build-web.ts). The attributions of the style's sources are shown in Leaflet's attribution
// control, as MapLibre's own control would show them (text and http(s) links only: attribution.ts).
import L from "leaflet";
import { maplibreGL } from "@maplibre/maplibre-gl-leaflet";
import { safeAttribution } from "./attribution.ts";

const STYLESHEET = "/web/maplibre-gl.css";
let stylesheet: Promise<void> | undefined;

/** MapLibre's stylesheet, once per page, before its map is made (MapLibre warns on a page without it). */
function loadMapLibreStylesheet(): Promise<void> {
  stylesheet ??= new Promise<void>((resolve, reject) => {
    const link = document.createElement("link");
    link.rel = "stylesheet";
    link.href = STYLESHEET;
    link.addEventListener("load", () => resolve());
    link.addEventListener("error", () => reject(new Error(`${STYLESHEET}: not loaded`)));
    document.head.append(link);
  });
  return stylesheet;
}

interface StyleLayerOptions {
  /** Follows MapLibre's loading (true) and idle (false). */
  onBusy(busy: boolean): void;
  /** The style could not be loaded: the offline map is drawn instead. */
  onFailed(): void;
  /** The map was taken down meanwhile: nothing is added. */
  isStopped(): boolean;
}

/** Adds the style under everything else. Returns its removal. */
export async function addStyleLayer(map: L.Map, styleUrl: string, options: StyleLayerOptions): Promise<() => void> {
  await loadMapLibreStylesheet();
  if (options.isStopped()) return () => {};
  // attributionControl false: the layer's own attribution (the sources' text as it came) is not
  // given to Leaflet; the sanitised one below is.
  const layer = maplibreGL({ style: styleUrl, interactive: false, attributionControl: false }).addTo(map);
  const glMap = layer.getMaplibreMap();
  const attribution = L.control.attribution({ prefix: false, position: "bottomright" }).addTo(map);
  const shown = new Set<string>();
  // A source's attribution may come with its TileJSON, after the style: read on every source's metadata.
  const showAttributions = () => {
    for (const id of Object.keys(glMap.getStyle()?.sources ?? {})) {
      const text = glMap.getSource(id)?.attribution;
      if (!text || shown.has(text)) continue;
      shown.add(text);
      attribution.addAttribution(safeAttribution(text));
    }
  };
  glMap.on("sourcedata", (event) => {
    if (event.sourceDataType === "metadata") showAttributions();
  });
  glMap.on("load", showAttributions);
  glMap.on("dataloading", () => options.onBusy(true));
  glMap.on("idle", () => options.onBusy(false));
  // A style that cannot be loaded (not found, refused by CORS, not a style) never becomes idle:
  // the offline map is drawn instead, and the console says why.
  let failed = false;
  glMap.on("error", (event) => {
    if (glMap.isStyleLoaded() || failed) return;
    failed = true;
    console.error("The configured base map could not be loaded:", event.error);
    options.onFailed();
  });
  return () => {
    attribution.remove();
    layer.remove();
  };
}
