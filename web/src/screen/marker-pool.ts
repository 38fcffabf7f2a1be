// A fixed set of circle markers, moved and recoloured to show what the screen shows now instead of
// made anew at each update: a screen runs for days, and Leaflet's layers made and dropped at every
// page would keep the garbage collector busy for nothing. Those not needed are off the map.
import L from "leaflet";
import type { BaseMap } from "../map/base-map.ts";

export interface PoolPoint {
  latitude: number;
  longitude: number;
  /** The fill, when it differs from the pool's own. */
  colour?: string;
}

export class MarkerPool {
  readonly #base: BaseMap;
  readonly #markers: L.CircleMarker[];
  readonly #fill: string | undefined;

  constructor(base: BaseMap, size: number, style: L.CircleMarkerOptions) {
    this.#base = base;
    this.#fill = style.fillColor;
    this.#markers = Array.from({ length: size }, () =>
      L.circleMarker([0, 0], { pane: "signs", interactive: false, ...style }),
    );
  }

  /** Shows these points (the first `size` of them), in order: the last drawn on top. */
  show(points: readonly PoolPoint[]): void {
    const { map } = this.#base;
    this.#markers.forEach((marker, i) => {
      const point = points[i];
      if (!point) return void marker.remove();
      marker.setLatLng([point.latitude, point.longitude]);
      const fillColor = point.colour ?? this.#fill;
      if (marker.options.fillColor !== fillColor) marker.setStyle({ fillColor });
      if (!map.hasLayer(marker)) marker.addTo(map);
    });
    this.#base.changed();
  }

  remove(): void {
    for (const marker of this.#markers) marker.remove();
  }
}
