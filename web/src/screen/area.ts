// What is "around the station", worked out in the browser from what the public feeds give: the
// feeds have no filter by place, and a screen shows a few dozen items at most. Pure, no DOM.
// - Traffic incidents: those whose point is within AREA_KM of the station.
// - NL-Alerts: those with a broadcast area that holds the station, or has a corner within AREA_KM
//   of it (an area is a polygon of a few dozen corners).
// - Weather warnings: the station's province (KNMI warns per province).
import type { Feature, FeatureCollection, MultiPolygon, Polygon, Position } from "geojson";
import { areaRing } from "../map/layers/nl-alert-layer.ts";

/** How far around the station traffic and NL-Alerts count as the station's. */
export const AREA_KM = 25;

const EARTH_RADIUS_KM = 6371.0088;

export interface Point {
  latitude: number;
  longitude: number;
}

/** The great-circle distance in kilometres (haversine). */
export function distanceKm(a: Point, b: Point): number {
  const rad = Math.PI / 180;
  const dLat = (b.latitude - a.latitude) * rad;
  const dLon = (b.longitude - a.longitude) * rad;
  const s = Math.sin(dLat / 2) ** 2 + Math.cos(a.latitude * rad) * Math.cos(b.latitude * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.min(1, Math.sqrt(s)));
}

/** Whether a point has a place and lies within AREA_KM of the station. */
export function nearby(station: Point, item: { latitude: number | null; longitude: number | null }): boolean {
  if (item.latitude === null || item.longitude === null) return false;
  return distanceKm(station, { latitude: item.latitude, longitude: item.longitude }) <= AREA_KM;
}

/** Ray casting over a ring of [longitude, latitude] positions. */
function inRing(point: Point, ring: readonly Position[]): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > point.latitude !== yj > point.latitude) {
      const x = ((xj - xi) * (point.latitude - yi)) / (yj - yi) + xi;
      if (point.longitude < x) inside = !inside;
    }
  }
  return inside;
}

/** A polygon's outer ring holds the point and none of its holes does. */
function inPolygon(point: Point, rings: readonly Position[][]): boolean {
  return inRing(point, rings[0]) && !rings.slice(1).some((hole) => inRing(point, hole));
}

/** The name of the province the point lies in, from the shipped boundaries; null at sea or abroad. */
export function provinceOf(point: Point, provinces: FeatureCollection): string | null {
  for (const feature of provinces.features as Array<Feature<Polygon | MultiPolygon>>) {
    const polygons =
      feature.geometry.type === "Polygon" ? [feature.geometry.coordinates] : feature.geometry.coordinates;
    if (polygons.some((rings) => inPolygon(point, rings))) return String(feature.properties?.name ?? "");
  }
  return null;
}

/** Whether an NL-Alert's broadcast areas ("lat,lon lat,lon …") reach the station's area. */
export function alertReaches(station: Point, areas: ReadonlyArray<string | null>): boolean {
  return areas.some((area) => {
    const ring = area ? areaRing(area) : null;
    if (!ring) return false;
    return (
      inRing(station, ring) ||
      ring.some(([longitude, latitude]) => distanceKm(station, { latitude, longitude }) <= AREA_KM)
    );
  });
}
