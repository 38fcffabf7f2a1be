// The sign of a place's incidents that share its centre (incidents-layer.ts): a disc with their
// number, its ring coloured by the disciplines' shares, outlined in white when one of them is
// urgent (A1/P1). It is a button (an HTML marker: focusable, Enter or Space) that opens a list of
// those incidents, newest first, each a button that opens the incident's panel; Escape or × closes
// the list and gives the focus back to the sign.
import L from "leaflet";
import { h } from "../../dom.ts";
import { formatDateTime, t } from "../../i18n.ts";
import { disciplineColour, EXERCISE_COLOUR } from "../colours.ts";
import type { Incident } from "../incidents.ts";

export interface ClusterMarker {
  marker: L.Marker;
  /** What the sign shows: it is made again only when this changes. */
  look: string;
  /** Its incidents as they are now, newest first (the list reads them when it opens). */
  members: Incident[];
}

/** The sign's radius in pixels: a little bigger for more incidents. */
export function clusterRadius(count: number): number {
  return Math.min(20, 12 + 2 * Math.log2(count));
}

export function clusterLook(incidents: Incident[]): string {
  return incidents
    .map((incident) => [incident.id, incident.urgencyRank, incident.exercise, incident.disciplineSlug].join(" "))
    .join("|");
}

const colourOf = (incident: Incident) =>
  incident.exercise ? EXERCISE_COLOUR : disciplineColour(incident.disciplineSlug);

/** Each discipline's share of the incidents as a ring, the biggest share first from the top. */
function ringOf(incidents: Incident[]): string {
  const counts = new Map<string, number>();
  for (const incident of incidents) counts.set(colourOf(incident), (counts.get(colourOf(incident)) ?? 0) + 1);
  let from = 0;
  const stops = [...counts]
    .sort((a, b) => b[1] - a[1])
    .map(([colour, count]) => {
      const to = from + (count / incidents.length) * 360;
      const stop = `${colour} ${from.toFixed(1)}deg ${to.toFixed(1)}deg`;
      from = to;
      return stop;
    });
  return `conic-gradient(${stops.join(", ")})`;
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
        const badge = incident.exercise ? t("map.exercise") : (incident.urgencyCode ?? incident.disciplineName);
        return h(
          "li",
          {},
          h(
            "button",
            { type: "button", class: "cluster-incident", "data-id": incident.id, onclick: () => choose(incident.id) },
            dot,
            h(
              "span",
              { class: "incident-text" },
              h(
                "span",
                { class: "incident-title" },
                badge ? h("span", { class: "badge" }, badge) : null,
                incident.title,
              ),
              h("span", { class: "incident-meta" }, formatDateTime(incident.at)),
            ),
          ),
        );
      }),
    ),
  );
}

export function clusterMarker(incidents: Incident[], onOpen: (id: string) => void): ClusterMarker {
  const [first] = incidents;
  const radius = clusterRadius(incidents.length);
  const urgent = incidents.some((incident) => !incident.exercise && incident.urgencyRank <= 1);
  const sign = h(
    "span",
    { class: urgent ? "incident-cluster urgent" : "incident-cluster" },
    h("span", { class: "incident-cluster-count", "aria-hidden": "true" }, String(incidents.length)),
  );
  // Through element.style, which the page's policy allows (no inline style attribute).
  sign.style.background = ringOf(incidents);
  sign.style.width = sign.style.height = `${2 * radius}px`;
  const marker = L.marker([first.latitude, first.longitude], {
    icon: L.divIcon({ html: sign, className: "incident-cluster-icon", iconSize: [2 * radius, 2 * radius] }),
    keyboard: true,
    riseOnHover: true,
    // Above a helicopter's marker that happens to be there: the sign is what can be clicked.
    zIndexOffset: 500,
  });
  const cluster: ClusterMarker = { marker, look: clusterLook(incidents), members: incidents };

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
  marker.on("add", () => {
    const element = marker.getElement();
    element?.setAttribute("aria-label", fill("cluster.label", incidents.length, first.city));
    element?.setAttribute("aria-expanded", "false");
    // Leaflet presses it with Enter; a button is pressed with Space too.
    element?.addEventListener("keydown", (event) => {
      if (event.key !== " ") return;
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
