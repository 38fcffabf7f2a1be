// A P2000 monitor's areas, query.areas (docs/monitors.md#areas-the-places-a-monitor-listens-to): a
// circle, a drawn polygon or a named area (gemeente, woonplaats, postcode area, province, safety
// region). What one is, the one value a pick list holds for it, what it is called in the reader's
// language, and which of them the console can draw on a map.
import { formatNumber, t } from "../../i18n.ts";

export interface Area {
  type: string;
  /** A named area's code (GM0363, WP1602, 1012, noord-holland, 13) and name, as the API stores it. */
  code?: string;
  name?: string;
  /** A circle's centre and radius in km. */
  latitude?: number;
  longitude?: number;
  radius?: number;
  /** A polygon's one ring, GeoJSON's [[[longitude, latitude], …]], closed. */
  coordinates?: number[][][];
}

/**
 * The named areas whose outline the page has: provinces and safety regions are the shipped
 * boundaries the base map draws (data/nl-provinces.geojson, data/safety-regions.geojson, the same
 * files the service loads them from). Gemeenten, woonplaatsen and postcode areas have no outline in
 * the API (AreaChoice is a name and a code), so they are listed by name, not drawn.
 */
const DRAWN_TYPES: ReadonlySet<string> = new Set(["circle", "polygon", "province", "region"]);

export function isDrawn(area: Area): boolean {
  return DRAWN_TYPES.has(area.type);
}

/** A saved query's areas (anything else is no area). */
export function areasOf(value: unknown): Area[] {
  return Array.isArray(value)
    ? value.filter((area): area is Area => typeof area === "object" && area !== null && "type" in area)
    : [];
}

/** An area as a pick list's value: its JSON, the fields in one order, so one area is one value. */
export function areaValue(area: Area): string {
  if (area.type === "circle")
    return JSON.stringify({ type: "circle", latitude: area.latitude, longitude: area.longitude, radius: area.radius });
  if (area.type === "polygon") return JSON.stringify({ type: "polygon", coordinates: area.coordinates });
  return JSON.stringify({ type: area.type, code: area.code });
}

/** The points a person drew: a closed ring repeats its first point as its last. */
function polygonPoints(area: Area): number {
  return Math.max(0, (area.coordinates?.[0]?.length ?? 1) - 1);
}

/** What an area is called in the list: "Gemeente: Oss", "Within 1 km of Kerkstraat 1, Oss", "Drawn area (5 points)". */
export function areaLabel(area: Area, place?: string): string {
  if (area.type === "circle")
    return t("monitors.area.circle")
      .replace("{radius}", formatNumber(area.radius ?? 0))
      .replace("{place}", place ?? `${area.latitude?.toFixed(4)}, ${area.longitude?.toFixed(4)}`);
  if (area.type === "polygon") return t("monitors.area.polygon").replace("{points}", String(polygonPoints(area)));
  return `${t(`monitors.area.${area.type}`)}: ${area.name ?? area.code}`;
}
