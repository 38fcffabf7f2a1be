// What the map screen asks of each live feed's layer: switch it on or off, fetch its state again
// (after the live connection was lost) and take it down.
import type { Map as MapLibreMap } from "maplibre-gl";

export interface FeedLayer {
  setVisible(visible: boolean): void;
  reload(): Promise<void>;
  stop(): void;
}

export function setLayersVisible(map: MapLibreMap, ids: readonly string[], visible: boolean): void {
  for (const id of ids) map.setLayoutProperty(id, "visibility", visible ? "visible" : "none");
}

/** A GeoJSON point feature from a latitude and longitude. */
export function point<P extends Record<string, unknown>>(longitude: number, latitude: number, properties: P) {
  return {
    type: "Feature" as const,
    geometry: { type: "Point" as const, coordinates: [longitude, latitude] },
    properties,
  };
}
