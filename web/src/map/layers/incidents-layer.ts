// P2000 incidents as circles: the colour is the discipline, the size and outline the urgency (A1/P1
// biggest with a thick outline), an exercise grey and small (the map's legend, legend.ts, says so).
// The open incident gets a ring. A pointer over a circle shows its incident in words in Leaflet's
// tooltip. They share the map's top pane (`signs`) with the traffic incidents, which is the one
// that takes clicks.
//
// Where an incident is depends on how its position was found (its precision). One placed on its
// street, address, postcode or hectometre post is drawn apart at its own position. Those placed
// only at their place (precision 'place': the messages named no street the registers know) all
// sit on the place's centre; two or more there are one sign with their number (incident-cluster.ts),
// which opens as a list of them.
import L from "leaflet";
import type { BaseMap } from "../base-map.ts";
import { disciplineColour, EXERCISE_COLOUR } from "../colours.ts";
import type { Incident } from "../incidents.ts";
import { tooltipContent } from "../incident-words.ts";
import { clusterLook, clusterMarker, clusterRadius, type ClusterMarker } from "./incident-cluster.ts";
import { showLayer } from "./feed-layer.ts";

export interface IncidentsLayer {
  show(incidents: Incident[], selected: string | null): void;
  setVisible(visible: boolean): void;
}

/** The circle's radius by urgency rank (0 = A0, 1 = A1/P1 …), linear between these stops (and the legend's). */
const RADIUS_STOPS: ReadonlyArray<[number, number]> = [
  [0, 9],
  [1, 7.5],
  [2, 6],
  // B and P3 (rank 3) as small as an incident without urgency: three sizes people tell apart.
  [3, 4.5],
];

export function radiusFor(rank: number): number {
  const [first] = RADIUS_STOPS;
  if (rank <= first[0]) return first[1];
  for (let i = 1; i < RADIUS_STOPS.length; i++) {
    const [x0, y0] = RADIUS_STOPS[i - 1];
    const [x1, y1] = RADIUS_STOPS[i];
    if (rank <= x1) return y0 + ((rank - x0) / (x1 - x0)) * (y1 - y0);
  }
  return RADIUS_STOPS[RADIUS_STOPS.length - 1][1];
}

function marker(incident: Incident): L.CircleMarker {
  const urgent = incident.urgencyRank <= 1;
  return L.circleMarker([incident.latitude, incident.longitude], {
    pane: "signs",
    radius: radiusFor(incident.urgencyRank),
    fillColor: incident.exercise ? EXERCISE_COLOUR : disciplineColour(incident.disciplineSlug),
    fillOpacity: incident.exercise ? 0.6 : 0.95,
    color: urgent ? "#ffffff" : "#24292f",
    weight: urgent ? 2.5 : 1,
    opacity: incident.exercise ? 0.6 : 0.95,
  });
}

/** What a marker shows of its incident: a marker is made again only when this changes. */
const look = (incident: Incident) =>
  [incident.latitude, incident.longitude, incident.urgencyRank, incident.exercise, incident.disciplineSlug].join(" ");

/** Incidents placed at their place's centre, by that point; only points shared by two or more. */
export function sharedPlaces(incidents: Incident[]): Map<string, Incident[]> {
  const byPoint = new Map<string, Incident[]>();
  for (const incident of incidents) {
    if (incident.precision !== "place") continue;
    const key = `${incident.latitude.toFixed(5)} ${incident.longitude.toFixed(5)}`;
    const here = byPoint.get(key);
    if (here) here.push(incident);
    else byPoint.set(key, [incident]);
  }
  for (const [key, here] of byPoint) if (here.length < 2) byPoint.delete(key);
  return byPoint;
}

/** From this zoom on (a city), the places' signs lie under the incidents placed on streets. */
const SIGNS_UNDER_FROM_ZOOM = 11;

export function addIncidentsLayer(base: BaseMap, onOpen: (id: string) => void): IncidentsLayer {
  const { map } = base;
  const group = L.layerGroup().addTo(map);
  const ring = L.circleMarker([0, 0], {
    pane: "signs",
    interactive: false,
    radius: 14,
    fill: false,
    color: "#0969da",
    weight: 3,
    opacity: 1,
  });
  // The markers drawn, by incident; a live message or a new selection changes a few, not all 500.
  const drawn = new Map<string, { circle: L.CircleMarker; look: string }>();
  // The shared places' signs, by point.
  const clusters = new Map<string, ClusterMarker>();
  // The incidents as they are now, for the tooltips (a marker outlives changes it does not show).
  const current = new Map<string, Incident>();
  let shown: Incident[] = [];
  // Leaflet's canvas draws in the order layers were added: the incidents newest last, on top (the
  // list is newest first), and the ring over them all. The places' signs go under the incidents
  // from a city's zoom on (the incidents on streets near a place's centre stay in sight around
  // them), over them further out, where a city's incidents all overlap and the number says most.
  const signsOnTop = () => map.getZoom() < SIGNS_UNDER_FROM_ZOOM;
  let stackedOnTop = signsOnTop();
  const restack = () => {
    stackedOnTop = signsOnTop();
    if (!stackedOnTop) for (const cluster of clusters.values()) cluster.sign.bringToFront();
    for (let index = shown.length - 1; index >= 0; index--) drawn.get(shown[index].id)?.circle.bringToFront();
    if (stackedOnTop) for (const cluster of clusters.values()) cluster.sign.bringToFront();
    ring.bringToFront();
  };
  map.on("zoomend", () => {
    if (signsOnTop() !== stackedOnTop && map.hasLayer(group)) restack();
  });
  return {
    show(all, selected) {
      const shared = sharedPlaces(all);
      const inCluster = new Map<string, string>();
      for (const [key, here] of shared) for (const incident of here) inCluster.set(incident.id, key);
      for (const [key, cluster] of clusters) {
        const here = shared.get(key);
        if (here && cluster.look === clusterLook(here)) {
          cluster.members = here;
          continue;
        }
        group.removeLayer(cluster.sign).removeLayer(cluster.marker);
        clusters.delete(key);
      }
      let added = false;
      for (const [key, here] of shared) {
        if (clusters.has(key)) continue;
        const cluster = clusterMarker(here, onOpen);
        group.addLayer(cluster.sign).addLayer(cluster.marker);
        clusters.set(key, cluster);
        added = true;
      }

      const incidents = all.filter((incident) => !inCluster.has(incident.id));
      shown = incidents;
      current.clear();
      for (const incident of incidents) current.set(incident.id, incident);
      const wanted = new Set(incidents.map((incident) => incident.id));
      for (const [id, one] of drawn) {
        if (wanted.has(id)) continue;
        group.removeLayer(one.circle);
        drawn.delete(id);
      }
      for (const incident of incidents) {
        const one = drawn.get(incident.id);
        if (one?.look === look(incident)) continue;
        if (one) group.removeLayer(one.circle);
        const { id } = incident;
        const circle = marker(incident)
          .on("click", () => onOpen(id))
          .bindTooltip(() => tooltipContent(current.get(id) ?? incident), {
            direction: "top",
            offset: [0, -radiusFor(incident.urgencyRank)],
            className: "incident-tooltip-box",
          });
        group.addLayer(circle);
        drawn.set(incident.id, { circle, look: look(incident) });
        added = true;
      }
      // The open incident's ring: around its circle, or around the sign of the place it shares.
      const open = selected ? drawn.get(selected) : undefined;
      const openCluster = selected ? clusters.get(inCluster.get(selected) ?? "") : undefined;
      if (open) ring.setLatLng(open.circle.getLatLng()).setRadius(14).addTo(group);
      else if (openCluster)
        ring
          .setLatLng(openCluster.marker.getLatLng())
          .setRadius(clusterRadius(openCluster.members.length) + 5)
          .addTo(group);
      else group.removeLayer(ring);
      if (added || open || openCluster) restack();
      base.changed();
    },
    setVisible(visible) {
      if (showLayer(base, group, visible)) restack();
    },
  };
}
