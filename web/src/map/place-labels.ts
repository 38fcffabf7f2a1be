// The names of the places on the offline map (no tiles): the woonplaatsen of data/woonplaatsen.csv
// (CBS names, GeoNames points and populations; lib/web/web-build.ts writes them to
// /web/places-<hash>.json, the most populous first). The country shows its big cities, a closer
// view ever smaller places, and a name that would cover one already written is left out, so
// bigger places win. They are written on a canvas of their own (a label is no sign to click, and
// a screen reader has the map's name and the incident list), redrawn when the map has moved,
// hidden while it zooms.
import L from "leaflet";
// The URL of the place names the build makes from this file (lib/web/web-build.ts).
import placesUrl from "../../../data/woonplaatsen.csv";

/** [name, latitude, longitude, population (0 when unknown)], the most populous first. */
export type PlacePoint = readonly [name: string, latitude: number, longitude: number, population: number];

export async function loadPlaces(): Promise<PlacePoint[]> {
  const response = await fetch(placesUrl);
  if (!response.ok) throw new Error(`${placesUrl}: ${response.status}`);
  return (await response.json()) as PlacePoint[];
}

/** The smallest population named at a zoom (the country about 7, a city 11 and more). */
export function smallestNamed(zoom: number): number {
  if (zoom < 7.5) return 100_000;
  if (zoom < 8.5) return 40_000;
  if (zoom < 9.5) return 15_000;
  if (zoom < 10.5) return 4_000;
  if (zoom < 11.5) return 1_000;
  return 0;
}

export interface LabelColours {
  text: string;
  halo: string;
}

/** Cities from this many people on have their name a little bigger. */
const CITY = 100_000;
const FONT_FAMILY = 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

type Box = readonly [left: number, top: number, right: number, bottom: number];

export class PlaceLabels extends L.Layer {
  readonly #places: readonly PlacePoint[];
  #colours: LabelColours;
  readonly #onDrawn: () => void;
  #canvas: HTMLCanvasElement | undefined;
  readonly #widths = new Map<string, number>();

  constructor(places: readonly PlacePoint[], colours: LabelColours, pane: string, onDrawn: () => void) {
    super();
    L.Util.setOptions(this, { pane, interactive: false });
    this.#places = places;
    this.#colours = colours;
    this.#onDrawn = onDrawn;
  }

  override onAdd(): this {
    // leaflet-zoom-hide: hidden while Leaflet animates a zoom, drawn again at its end.
    this.#canvas = L.DomUtil.create("canvas", "place-labels leaflet-zoom-hide");
    this.getPane()!.appendChild(this.#canvas);
    this.#draw();
    return this;
  }

  override onRemove(): this {
    this.#canvas?.remove();
    this.#canvas = undefined;
    return this;
  }

  override getEvents(): { [name: string]: L.LeafletEventHandlerFn } {
    return { moveend: this.#draw, zoomend: this.#draw, resize: this.#draw, viewreset: this.#draw };
  }

  setColours(colours: LabelColours): void {
    this.#colours = colours;
    this.#draw();
  }

  readonly #draw = () => {
    const canvas = this.#canvas;
    const map = this._map as L.Map | undefined;
    if (!canvas || !map) return;
    const size = map.getSize();
    const ratio = window.devicePixelRatio || 1;
    L.DomUtil.setPosition(canvas, map.containerPointToLayerPoint([0, 0]));
    canvas.width = Math.round(size.x * ratio);
    canvas.height = Math.round(size.y * ratio);
    canvas.style.width = `${size.x}px`;
    canvas.style.height = `${size.y}px`;
    const context = canvas.getContext("2d");
    if (!context) return;
    context.scale(ratio, ratio);
    context.textAlign = "center";
    context.textBaseline = "alphabetic";
    context.lineJoin = "round";
    const smallest = smallestNamed(map.getZoom());
    const taken: Box[] = [];
    const written: string[] = [];
    for (const [name, latitude, longitude, population] of this.#places) {
      if (population < smallest) break;
      const at = map.latLngToContainerPoint([latitude, longitude]);
      if (at.x < -100 || at.y < -20 || at.x > size.x + 100 || at.y > size.y + 20) continue;
      const city = population >= CITY;
      const fontSize = city ? 13 : 12;
      context.font = `${city ? "600 " : ""}${fontSize}px ${FONT_FAMILY}`;
      const width = this.#width(context, name);
      const baseline = at.y - 5;
      const box: Box = [at.x - width / 2 - 3, baseline - fontSize - 1, at.x + width / 2 + 3, at.y + 3];
      if (taken.some((other) => box[0] < other[2] && box[2] > other[0] && box[1] < other[3] && box[3] > other[1]))
        continue;
      taken.push(box);
      written.push(name);
      context.fillStyle = this.#colours.text;
      context.beginPath();
      context.arc(at.x, at.y, city ? 2.5 : 2, 0, 2 * Math.PI);
      context.fill();
      context.strokeStyle = this.#colours.halo;
      context.lineWidth = 3;
      context.strokeText(name, at.x, baseline);
      context.fillText(name, at.x, baseline);
    }
    // What is written, on the canvas (which a screen reader skips): for the tests and the curious.
    canvas.dataset.names = written.join("|");
    this.#onDrawn();
  };

  #width(context: CanvasRenderingContext2D, name: string): number {
    const key = `${context.font}|${name}`;
    let width = this.#widths.get(key);
    if (width === undefined) {
      width = context.measureText(name).width;
      this.#widths.set(key, width);
    }
    return width;
  }
}
