// The share page's map image (`…/map.png`, og:image, docs/open-data.md#share-pages): 1200×630,
// the size link previews show large, drawn on the server from the boundaries the service ships
// (data/nl-provinces.geojson, data/municipalities.geojson, data/safety-regions.geojson) with the
// record's point or areas marked, and a small map of the whole country beside it. It has no
// words (no fonts to depend on): the page says them. Drawn as SVG, rasterised by resvg
// (@resvg/resvg-js, on the thread pool, not the event loop), and kept by what it shows: the same
// picture is never drawn twice while it is kept, whichever record asks for it.
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { renderAsync } from "@resvg/resvg-js";
import { ROOT_DIR } from "../../paths.ts";

export const IMAGE_WIDTH = 1200;
export const IMAGE_HEIGHT = 630;

/** What the image marks. */
export interface MapSubject {
  /** [longitude, latitude] of the place. */
  point?: [number, number];
  /** Areas (an NL-Alert's), rings of [longitude, latitude]. */
  areas?: Array<Array<[number, number]>>;
  /** A safety region ("01"–"25") shaded when there is no point. */
  regionNumber?: string;
  /** A province (nl_provinces code) shaded in the warning's colour. */
  provinceCode?: string;
  /** The weather warning's level: none, yellow, orange or red. */
  level?: string;
}

type Ring = Array<[number, number]>;
interface Shape {
  key: string;
  polygons: Ring[][];
  bbox: [number, number, number, number];
}

const COLOURS = {
  sea: "#cfe2ee",
  land: "#f6f3ec",
  province: "#8c8778",
  municipality: "#cfc8b8",
  marker: "#d7191c",
  area: "#d7191c",
  shaded: "#3b6fb6",
  levels: { none: "#9db8d6", yellow: "#ffd400", orange: "#ff8a00", red: "#e0001b" } as Record<string, string>,
};

/** The whole country, with a margin: the view when nothing narrower is known, and the inset's. */
const NETHERLANDS: [number, number, number, number] = [3.2, 50.7, 7.3, 53.6];
/** The width of a view around a point, in km: a town and its neighbours. */
const POINT_VIEW_KM = 36;

function shapesOf(file: string, keyOf: (properties: Record<string, string>) => string): Shape[] {
  const collection = JSON.parse(fs.readFileSync(path.join(ROOT_DIR, "data", file), "utf8")) as {
    features: Array<{ properties: Record<string, string>; geometry: { type: string; coordinates: unknown } }>;
  };
  return collection.features.map(({ properties, geometry }) => {
    const polygons = (geometry.type === "Polygon" ? [geometry.coordinates] : geometry.coordinates) as Ring[][];
    const points = polygons.flat(2);
    const lons = points.map((p) => p[0]);
    const lats = points.map((p) => p[1]);
    return {
      key: keyOf(properties),
      polygons,
      bbox: [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)],
    };
  });
}

/** The shipped boundaries, read once on the first image. */
let boundaries: { provinces: Shape[]; municipalities: Shape[]; regions: Shape[] } | undefined;
function shipped() {
  boundaries ??= {
    provinces: shapesOf("nl-provinces.geojson", (p) => p.code),
    municipalities: shapesOf("municipalities.geojson", (p) => p.code),
    regions: shapesOf("safety-regions.geojson", (p) => p.number),
  };
  return boundaries;
}

/** An equirectangular view (fine at the Netherlands' size) of a box fitted into a frame. */
interface View {
  bbox: [number, number, number, number];
  project(point: [number, number]): [number, number];
}

function viewOf(box: [number, number, number, number], width: number, height: number, x0 = 0, y0 = 0): View {
  const [west, south, east, north] = box;
  const cos = Math.cos((((south + north) / 2) * Math.PI) / 180);
  const centreLon = (west + east) / 2;
  const centreLat = (south + north) / 2;
  const scale = Math.min(width / ((east - west) * cos), height / (north - south));
  const halfLon = width / scale / cos / 2;
  const halfLat = height / scale / 2;
  return {
    bbox: [centreLon - halfLon, centreLat - halfLat, centreLon + halfLon, centreLat + halfLat],
    project: ([lon, lat]) => [
      x0 + width / 2 + (lon - centreLon) * cos * scale,
      y0 + height / 2 - (lat - centreLat) * scale,
    ],
  };
}

const round = (n: number) => Math.round(n * 10) / 10;
function pathOf(rings: Ring[], view: View): string {
  return rings.map((ring) => `M${ring.map((p) => view.project(p).map(round).join(" ")).join("L")}Z`).join("");
}

function overlaps(a: [number, number, number, number], b: [number, number, number, number]): boolean {
  return a[0] <= b[2] && b[0] <= a[2] && a[1] <= b[3] && b[1] <= a[3];
}

function shapesPath(shapes: Shape[], view: View): string {
  return shapes
    .filter((shape) => overlaps(shape.bbox, view.bbox))
    .map((shape) => shape.polygons.map((rings) => pathOf(rings, view)).join(""))
    .join("");
}

function boxAround(points: Array<[number, number]>, marginKm: number): [number, number, number, number] {
  const lons = points.map((p) => p[0]);
  const lats = points.map((p) => p[1]);
  const margin = marginKm / 111;
  return [
    Math.min(...lons) - margin,
    Math.min(...lats) - margin,
    Math.max(...lons) + margin,
    Math.max(...lats) + margin,
  ];
}

/** The box the image shows: around the point, the areas, the province or the region; else the country. */
function subjectBox(subject: MapSubject, shaded: Shape | undefined): [number, number, number, number] {
  if (subject.point) return boxAround([subject.point], POINT_VIEW_KM / 2 / 1.9);
  const areaPoints = (subject.areas ?? []).flat();
  if (areaPoints.length) return boxAround(areaPoints, 4);
  if (shaded) return boxAround(shaded.polygons.flat(2), 5);
  return NETHERLANDS;
}

/** The SVG of a subject's image. */
export function mapSvg(subject: MapSubject): string {
  const { provinces, municipalities, regions } = shipped();
  const shaded = subject.provinceCode
    ? provinces.find((p) => p.key === subject.provinceCode)
    : subject.point
      ? undefined
      : regions.find((r) => r.key === subject.regionNumber);
  const shadeColour = subject.provinceCode ? (COLOURS.levels[subject.level ?? ""] ?? COLOURS.shaded) : COLOURS.shaded;
  const box = subjectBox(subject, shaded);
  const view = viewOf(box, IMAGE_WIDTH, IMAGE_HEIGHT);
  const wide = view.bbox[2] - view.bbox[0] > 2.5;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" viewBox="0 0 ${IMAGE_WIDTH} ${IMAGE_HEIGHT}">`,
    `<rect width="100%" height="100%" fill="${COLOURS.sea}"/>`,
    `<path d="${shapesPath(provinces, view)}" fill="${COLOURS.land}" fill-rule="evenodd"/>`,
  ];
  if (shaded) {
    parts.push(
      `<path d="${shaded.polygons.map((rings) => pathOf(rings, view)).join("")}" fill="${shadeColour}" fill-opacity="0.55" fill-rule="evenodd"/>`,
    );
  }
  // Municipalities only where they can be told apart.
  if (!wide) {
    parts.push(
      `<path d="${shapesPath(municipalities, view)}" fill="none" stroke="${COLOURS.municipality}" stroke-width="1.2"/>`,
    );
  }
  parts.push(
    `<path d="${shapesPath(provinces, view)}" fill="none" stroke="${COLOURS.province}" stroke-width="${wide ? 1.5 : 2.5}" stroke-linejoin="round"/>`,
  );
  for (const ring of subject.areas ?? []) {
    parts.push(
      `<path d="${pathOf([ring], view)}" fill="${COLOURS.area}" fill-opacity="0.3" stroke="${COLOURS.area}" stroke-width="3"/>`,
    );
  }
  if (subject.point) {
    const [x, y] = view.project(subject.point).map(round);
    parts.push(
      `<circle cx="${x}" cy="${y}" r="46" fill="${COLOURS.marker}" fill-opacity="0.18"/>`,
      `<circle cx="${x}" cy="${y}" r="17" fill="${COLOURS.marker}" stroke="#ffffff" stroke-width="5"/>`,
    );
  }
  if (!wide) parts.push(inset(view, provinces));
  parts.push("</svg>");
  return parts.join("");
}

/** The country in the top right corner, the main view's box drawn on it. */
function inset(main: View, provinces: Shape[]): string {
  const width = 190;
  const height = 220;
  const x0 = IMAGE_WIDTH - width - 24;
  const y0 = 24;
  const country = viewOf(NETHERLANDS, width, height, x0, y0);
  const [west, south, east, north] = main.bbox;
  const [x1, y1] = country.project([west, north]);
  const [x2, y2] = country.project([east, south]);
  const size = Math.max(6, x2 - x1);
  const tall = Math.max(4, y2 - y1);
  return [
    `<rect x="${x0 - 8}" y="${y0 - 8}" width="${width + 16}" height="${height + 16}" rx="8" fill="#ffffff" fill-opacity="0.92" stroke="${COLOURS.province}"/>`,
    `<path d="${shapesPath(provinces, country)}" fill="${COLOURS.land}" stroke="${COLOURS.province}" stroke-width="0.8"/>`,
    `<rect x="${round(x1)}" y="${round(y1)}" width="${round(size)}" height="${round(tall)}" fill="${COLOURS.marker}" fill-opacity="0.35" stroke="${COLOURS.marker}" stroke-width="2"/>`,
  ].join("");
}

/** Drawn images kept, least recently used out, bounded by their bytes. */
const MAX_KEPT_BYTES = 32 * 1024 * 1024;
const kept = new Map<string, Buffer>();
let keptBytes = 0;
const drawing = new Map<string, Promise<Buffer>>();

/** The PNG of a subject: kept, or drawn once however many ask for it at the same time. */
export async function mapPng(subject: MapSubject): Promise<Buffer> {
  // The boundaries are the process's own: the subject alone says what is drawn.
  const key = createHash("sha256").update(JSON.stringify(subject)).digest("base64url");
  const hit = kept.get(key);
  if (hit) {
    kept.delete(key);
    kept.set(key, hit);
    return hit;
  }
  let pending = drawing.get(key);
  if (!pending) {
    pending = renderAsync(mapSvg(subject), { font: { loadSystemFonts: false } })
      .then((image) => image.asPng())
      .finally(() => drawing.delete(key));
    drawing.set(key, pending);
    const png = await pending;
    kept.set(key, png);
    keptBytes += png.length;
    for (const [oldest, image] of kept) {
      if (keptBytes <= MAX_KEPT_BYTES) break;
      kept.delete(oldest);
      keptBytes -= image.length;
    }
    return png;
  }
  return pending;
}
