// Geometry for the monitor-area tests, written here on the GeoJSON files themselves so that the
// expectations do not come from the database's polygons: a point-in-ring test, the boundary files'
// features, and points either side of a ring's edges.
import fs from "node:fs";
import path from "node:path";
import { ROOT_DIR } from "../../lib/paths.ts";

/** A GeoJSON linear ring: [longitude, latitude] points, the first repeated as the last. */
export type Ring = number[][];
export type Feature = { properties: Record<string, string>; geometry: { coordinates: Ring[][] } };

/** Ray casting on a GeoJSON ring (longitude, latitude): independent of the database's polygons. */
export function inRing(ring: Ring, [x, y]: number[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Inside a MultiPolygon: in a part's outer ring and none of that part's holes. */
export function inFeature(feature: Feature, point: number[]): boolean {
  return feature.geometry.coordinates.some(
    ([outer, ...holes]) => inRing(outer, point) && !holes.some((hole) => inRing(hole, point)),
  );
}

/** A feature of one of the boundary files in data/, by its code. */
export function feature(file: string, code: string): Feature {
  const { features } = JSON.parse(fs.readFileSync(path.join(ROOT_DIR, "data", file), "utf8")) as {
    features: Feature[];
  };
  return features.find((f) => f.properties.code === code)!;
}

/** Points about 40 m either side of the middle of a ring's edges (every `every`th, of 70 m or more). */
export function acrossEdges(ring: Ring, every: number): number[][] {
  const points: number[][] = [];
  for (let i = 0; i + 1 < ring.length; i += every) {
    const [[x1, y1], [x2, y2]] = [ring[i], ring[i + 1]];
    const length = Math.hypot(x2 - x1, y2 - y1);
    if (length < 0.001) continue;
    const [nx, ny] = [-(y2 - y1) / length, (x2 - x1) / length];
    const [mx, my] = [(x1 + x2) / 2, (y1 + y2) / 2];
    for (const side of [1, -1]) points.push([mx + side * nx * 0.0006, my + side * ny * 0.0004]);
  }
  return points;
}

/** Great-circle distance in km (the service's earth: 6371.0088 km). */
export function distanceKm([lon1, lat1]: number[], [lon2, lat2]: number[]): number {
  const rad = Math.PI / 180;
  const a =
    Math.sin(((lat2 - lat1) * rad) / 2) ** 2 +
    Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(((lon2 - lon1) * rad) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.min(1, Math.sqrt(a)));
}
