// A local raster tile server for the browser tests of the base map (MAP_TILE_URL): real PNG tiles,
// 256 × 256 in the z/x/y layout of Web Mercator (as PDOK's BRT-Achtergrondkaart serves them),
// drawn here so they look like a map: the shipped provinces as land on water, and at closer zooms
// main roads and streets as a grid on the land. The PNGs are encoded with Node's zlib (a PNG is
// an 8-bit RGB image, each row filtered "none", deflated, in CRC-checked chunks).
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { crc32, deflateSync } from "node:zlib";

const SIZE = 256;
type Rgb = readonly [number, number, number];
/** The tiles' colours, apart from the offline map's (base-map colours.ts), so a test tells them apart. */
export const TILE_WATER: Rgb = [0xa5, 0xc8, 0xe6];
export const TILE_LAND: Rgb = [0xee, 0xea, 0xd8];
const STREET: Rgb = [0xff, 0xff, 0xff];
const STREET_EDGE: Rgb = [0xc9, 0xc3, 0xb4];
const MAIN_ROAD: Rgb = [0xf6, 0xc8, 0x6a];

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** An 8-bit RGB PNG of `rgb` (width × height × 3 bytes, rows top to bottom). */
export function encodePng(width: number, height: number, rgb: Uint8Array): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bits per sample
  header[9] = 2; // colour type: RGB
  const raw = Buffer.alloc((width * 3 + 1) * height);
  for (let y = 0; y < height; y++) {
    // Each row starts with its filter type, 0: none.
    raw.set(rgb.subarray(y * width * 3, (y + 1) * width * 3), y * (width * 3 + 1) + 1);
  }
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

type Ring = Array<[number, number]>;

/** The provinces' polygons (data/nl-provinces.geojson), each a list of rings of [longitude, latitude]. */
function loadLand(): Ring[][] {
  const file = path.join(import.meta.dirname, "..", "..", "data", "nl-provinces.geojson");
  const collection = JSON.parse(readFileSync(file, "utf8")) as {
    features: Array<{ geometry: { coordinates: Ring[][] } }>;
  };
  return collection.features.flatMap((feature) => feature.geometry.coordinates);
}

const latitudeAt = (y: number, zoom: number) => {
  const n = Math.PI - (2 * Math.PI * y) / (SIZE * 2 ** zoom);
  return (180 / Math.PI) * Math.atan(Math.sinh(n));
};
const longitudeAt = (x: number, zoom: number) => (x / (SIZE * 2 ** zoom)) * 360 - 180;

/** One tile: land and water by scanline over the provinces, then roads and streets as a grid on the land. */
export function drawTile(land: Ring[][], z: number, x: number, y: number): Buffer {
  const rgb = new Uint8Array(SIZE * SIZE * 3);
  const set = (px: number, py: number, colour: Rgb) => rgb.set(colour, (py * SIZE + px) * 3);
  const north = latitudeAt(y * SIZE, z);
  const south = latitudeAt((y + 1) * SIZE, z);
  const polygons = land.filter((rings) => rings[0].some(([, lat]) => lat >= south - 1 && lat <= north + 1));
  const isLand = new Uint8Array(SIZE * SIZE);
  for (let py = 0; py < SIZE; py++) {
    const latitude = latitudeAt(y * SIZE + py + 0.5, z);
    for (const rings of polygons) {
      const crossings: number[] = [];
      for (const ring of rings) {
        for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
          const [x1, y1] = ring[i];
          const [x2, y2] = ring[j];
          if (y1 > latitude !== y2 > latitude) crossings.push(x1 + ((latitude - y1) / (y2 - y1)) * (x2 - x1));
        }
      }
      crossings.sort((a, b) => a - b);
      for (let k = 0; k + 1 < crossings.length; k += 2) {
        for (let px = 0; px < SIZE; px++) {
          const longitude = longitudeAt(x * SIZE + px + 0.5, z);
          if (longitude >= crossings[k] && longitude < crossings[k + 1]) isLand[py * SIZE + px] = 1;
        }
      }
    }
  }
  // Streets every 120 m or so (96 pixels at zoom 16) and a main road every 24th, in world pixels.
  const street = 96 * 2 ** (z - 16);
  const road = street * 24;
  const on = (world: number, every: number, half: number) => {
    const offset = ((world % every) + every) % every;
    return offset < half || offset > every - half;
  };
  for (let py = 0; py < SIZE; py++) {
    for (let px = 0; px < SIZE; px++) {
      if (!isLand[py * SIZE + px]) {
        set(px, py, TILE_WATER);
        continue;
      }
      const wx = x * SIZE + px;
      const wy = y * SIZE + py;
      let colour = TILE_LAND;
      if (z >= 9 && (on(wx, road, 2) || on(wy, road, 2))) colour = MAIN_ROAD;
      else if (z >= 13 && (on(wx, street, 3) || on(wy, street, 3))) colour = STREET_EDGE;
      if (z >= 13 && colour !== MAIN_ROAD && (on(wx, street, 2) || on(wy, street, 2))) colour = STREET;
      set(px, py, colour);
    }
  }
  return encodePng(SIZE, SIZE, rgb);
}

export interface TileServer {
  /** The URL template the service hands to the page: `${url}/tiles/{z}/{x}/{y}.png`. */
  template: string;
  url: string;
  /** The tiles asked for, as "z/x/y". */
  requests: string[];
  stop(): Promise<void>;
}

export async function startTileServer(): Promise<TileServer> {
  const land = loadLand();
  const cache = new Map<string, Buffer>();
  const requests: string[] = [];
  const server: Server = createServer((request, response) => {
    const match = /^\/tiles\/(\d+)\/(\d+)\/(\d+)\.png$/.exec(request.url ?? "");
    const [z, x, y] = match ? match.slice(1).map(Number) : [];
    if (!match || z > 20 || x >= 2 ** z || y >= 2 ** z) {
      response.writeHead(404).end();
      return;
    }
    const key = `${z}/${x}/${y}`;
    requests.push(key);
    let png = cache.get(key);
    if (!png) cache.set(key, (png = drawTile(land, z, x, y)));
    response.writeHead(200, { "content-type": "image/png", "cache-control": "max-age=3600" }).end(png);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    template: `${url}/tiles/{z}/{x}/{y}.png`,
    requests,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
