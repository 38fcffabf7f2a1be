// The sign of a place's incidents that share its centre (incidents-layer.ts): a disc with their
// number, its ring coloured by the disciplines' shares, outlined in white when one of them is
// urgent (A1/P1). It is drawn on the incidents' own canvas, under the incidents placed on their
// streets (which stay in sight around it), and takes clicks there; over it lies a transparent HTML
// button of its size for the keyboard and screen readers (focusable, Enter or Space, named "3
// incidents in Schiedam, …"; the pointer passes through it). Either opens a list of those
// incidents, newest first, each a button that opens the incident's panel; Escape or × closes the
// list and gives the focus back to the button.
import L from "leaflet";
import { h } from "../../dom.ts";
import { t } from "../../i18n.ts";
import type { Incident } from "../incidents.ts";
import { colourOf, incidentLines } from "../incident-words.ts";

export interface ClusterMarker {
  /** The disc, on the incidents' canvas. */
  sign: L.CircleMarker;
  /** The button over it, in Leaflet's marker pane; the list opens from it. */
  marker: L.Marker;
  /** What the sign shows: it is made again only when this changes. */
  look: string;
  /** Its incidents as they are now, newest first (the list reads them when it opens). */
  members: Incident[];
}

/** The sign's radius in pixels: a little bigger for more incidents. */
export function clusterRadius(count: number): number {
  return Math.round(Math.min(20, 12 + 2 * Math.log2(count)));
}

export function clusterLook(incidents: Incident[]): string {
  return incidents
    .map((incident) => [incident.id, incident.urgencyRank, incident.exercise, incident.disciplineSlug].join(" "))
    .join("|");
}

/** Each discipline's share of the incidents, the biggest first. */
function sharesOf(incidents: Incident[]): Array<[colour: string, share: number]> {
  const counts = new Map<string, number>();
  for (const incident of incidents) counts.set(colourOf(incident), (counts.get(colourOf(incident)) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1]).map(([colour, count]) => [colour, count / incidents.length]);
}

/** What Leaflet's canvas renderer lends a path while it draws (its own, unexported fields). */
interface Drawing {
  _renderer: { _drawing: boolean; _ctx: CanvasRenderingContext2D };
  _point: L.Point;
  _radius: number;
  _empty(): boolean;
}

/** The disc on the canvas: drawn within its radius, so Leaflet's redraw of its bounds covers it. */
class ClusterSign extends L.CircleMarker {
  readonly #shares: Array<[string, number]>;
  readonly #count: number;
  readonly #urgent: boolean;

  constructor(at: L.LatLngExpression, incidents: Incident[], radius: number) {
    super(at, { pane: "signs", radius, stroke: false, fill: true, bubblingMouseEvents: false });
    this.#shares = sharesOf(incidents);
    this.#count = incidents.length;
    this.#urgent = incidents.some((incident) => !incident.exercise && incident.urgencyRank <= 1);
  }

  // Leaflet's canvas renderer calls this to draw the path (CircleMarker draws a circle here).
  _updatePath(): void {
    const self = this as unknown as Drawing;
    const renderer = self._renderer;
    if (!renderer._drawing || self._empty()) return;
    const context = renderer._ctx;
    const { x, y } = self._point;
    const radius = self._radius;
    const disc = (r: number, colour: string) => {
      context.beginPath();
      context.arc(x, y, r, 0, 2 * Math.PI);
      context.fillStyle = colour;
      context.fill();
    };
    disc(radius, "#24292f");
    if (this.#urgent) disc(radius - 1, "#ffffff");
    const ring = this.#urgent ? radius - 3.5 : radius - 1;
    let from = -Math.PI / 2;
    for (const [colour, share] of this.#shares) {
      const to = from + share * 2 * Math.PI;
      context.beginPath();
      context.moveTo(x, y);
      context.arc(x, y, ring, from, to);
      context.closePath();
      context.fillStyle = colour;
      context.fill();
      from = to;
    }
    disc(ring - 5, "#ffffff");
    context.fillStyle = "#1b1f24";
    context.font = '700 12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';
    context.textAlign = "center";
    context.textBaseline = "middle";
    context.fillText(String(this.#count), x, y + 0.5);
  }
}

const fill = (text: string, count: number, place: string | null) =>
  t(text)
    .replace("{count}", String(count))
    .replace("{place}", place ?? t("cluster.here"));

function list(cluster: ClusterMarker, choose: (id: string) => void): HTMLElement {
  const { members } = cluster;
  const place = members[0]?.city ?? null;
  const heading = h(
    "p",
    { class: "cluster-heading", id: "cluster-heading" },
    fill("cluster.heading", members.length, place),
  );
  return h(
    "div",
    { class: "cluster", role: "group", "aria-labelledby": heading.id },
    heading,
    h("p", { class: "cluster-note" }, t("cluster.note")),
    h(
      "ul",
      { class: "cluster-list" },
      ...members.map((incident) => {
        const dot = h("span", { class: "dot", "aria-hidden": "true" });
        dot.style.background = colourOf(incident);
        return h(
          "li",
          {},
          h(
            "button",
            { type: "button", class: "cluster-incident", "data-id": incident.id, onclick: () => choose(incident.id) },
            dot,
            // All at the same place: its name is the list's heading.
            incidentLines(incident, { place: false }),
          ),
        );
      }),
    ),
  );
}

export function clusterMarker(incidents: Incident[], onOpen: (id: string) => void): ClusterMarker {
  const [first] = incidents;
  const at: L.LatLngTuple = [first.latitude, first.longitude];
  const radius = clusterRadius(incidents.length);
  const sign = new ClusterSign(at, incidents, radius);
  // Not interactive: the pointer reaches the disc under it (Enter and Space are handled below).
  const marker = L.marker(at, {
    icon: L.divIcon({
      html: "",
      className: "incident-cluster-icon",
      iconSize: [2 * radius, 2 * radius],
      popupAnchor: [0, -radius],
    }),
    interactive: false,
    keyboard: true,
  });
  const cluster: ClusterMarker = { sign, marker, look: clusterLook(incidents), members: incidents };

  let choosing = false;
  const choose = (id: string) => {
    choosing = true;
    marker.closePopup();
    choosing = false;
    onOpen(id);
  };
  const content = () => {
    const element = list(cluster, choose);
    // Leaflet closes a popup on Escape only while the map itself has the focus.
    element.addEventListener("keydown", (event) => {
      if (event.key !== "Escape") return;
      event.stopPropagation();
      marker.closePopup();
    });
    return element;
  };
  marker.bindPopup(content, {
    className: "incident-cluster-popup",
    minWidth: 240,
    maxWidth: 340,
    autoPanPadding: [16, 16],
  });
  sign.on("click", () => marker.openPopup());
  // A pointer over the sign says what it holds, as a circle's tooltip does.
  sign.bindTooltip(() => fill("cluster.heading", cluster.members.length, first.city), {
    direction: "top",
    offset: [0, -radius],
    className: "incident-tooltip-box",
  });
  marker.on("add", () => {
    const element = marker.getElement();
    element?.setAttribute("aria-label", fill("cluster.label", incidents.length, first.city));
    element?.setAttribute("aria-expanded", "false");
    // A button is pressed with Enter and Space.
    element?.addEventListener("keydown", (event) => {
      if (event.key !== " " && event.key !== "Enter") return;
      event.preventDefault();
      marker.openPopup();
    });
  });
  marker.on("popupopen", (event) => {
    marker.getElement()?.setAttribute("aria-expanded", "true");
    const popup = event.popup.getElement();
    popup?.querySelector(".leaflet-popup-close-button")?.setAttribute("aria-label", t("panel.close"));
    popup?.querySelector<HTMLButtonElement>("button.cluster-incident")?.focus({ preventScroll: true });
  });
  marker.on("popupclose", () => {
    const element = marker.getElement();
    element?.setAttribute("aria-expanded", "false");
    // Closed by Escape or ×: back to the sign (choosing an incident moves to its panel instead).
    if (!choosing) element?.focus({ preventScroll: true });
  });
  return cluster;
}
