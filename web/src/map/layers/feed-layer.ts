// What the map screen asks of each live feed's layer: switch it on or off, fetch its state again
// (after the live connection was lost) and take it down.
import type L from "leaflet";
import type { BaseMap } from "../base-map.ts";

export interface FeedLayer {
  setVisible(visible: boolean): void;
  reload(): Promise<void>;
  stop(): void;
}

/**
 * A layer on the map or off it (Leaflet keeps it, with what it draws, while it is off). Whether it
 * was put on the map now: its canvas then draws it in the order its parts were made.
 */
export function showLayer(base: BaseMap, layer: L.Layer, visible: boolean): boolean {
  if (visible === base.map.hasLayer(layer)) return false;
  if (visible) layer.addTo(base.map);
  else layer.remove();
  base.changed();
  return visible;
}
