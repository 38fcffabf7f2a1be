// P2000 incidents as circles: the colour is the discipline, the size and outline the urgency (A1/P1
// biggest with a thick outline), an exercise grey and small. The open incident gets a ring.
import type { GeoJSONSource, Map as MapLibreMap } from "maplibre-gl";
import { DISCIPLINE_COLOURS, EXERCISE_COLOUR, OTHER_DISCIPLINE_COLOUR } from "../colours.ts";
import type { Incident } from "../incidents.ts";
import { point, setLayersVisible } from "./feed-layer.ts";

const LAYERS = ["incidents", "incident-selected"] as const;

export interface IncidentsLayer {
  show(incidents: Incident[], selected: string | null): void;
  setVisible(visible: boolean): void;
}

export function addIncidentsLayer(map: MapLibreMap, onOpen: (id: string) => void): IncidentsLayer {
  map.addSource("incidents", { type: "geojson", data: { type: "FeatureCollection", features: [] } });
  const colourByDiscipline = [
    "match",
    ["get", "discipline"],
    ...Object.entries(DISCIPLINE_COLOURS).flat(),
    OTHER_DISCIPLINE_COLOUR,
  ] as unknown as string;
  map.addLayer({
    id: "incidents",
    type: "circle",
    source: "incidents",
    // Newest drawn last, on top.
    layout: { "circle-sort-key": ["get", "order"] },
    paint: {
      "circle-color": ["case", ["get", "exercise"], EXERCISE_COLOUR, colourByDiscipline],
      "circle-radius": ["interpolate", ["linear"], ["get", "rank"], 0, 9, 1, 7.5, 2, 6, 9, 4.5],
      "circle-stroke-width": ["case", ["<=", ["get", "rank"], 1], 2.5, 1],
      "circle-stroke-color": ["case", ["<=", ["get", "rank"], 1], "#ffffff", "#24292f"],
      "circle-opacity": ["case", ["get", "exercise"], 0.6, 0.95],
    },
  });
  map.addLayer({
    id: "incident-selected",
    type: "circle",
    source: "incidents",
    filter: ["==", ["get", "id"], ""],
    paint: {
      "circle-radius": 14,
      "circle-color": "rgba(0,0,0,0)",
      "circle-stroke-width": 3,
      "circle-stroke-color": "#0969da",
    },
  });
  map.on("click", "incidents", (event) => {
    const id = event.features?.[0]?.properties?.id;
    if (typeof id === "string") onOpen(id);
  });
  map.on("mouseenter", "incidents", () => (map.getCanvas().style.cursor = "pointer"));
  map.on("mouseleave", "incidents", () => (map.getCanvas().style.cursor = ""));
  return {
    show(incidents, selected) {
      const count = incidents.length;
      void (map.getSource("incidents") as GeoJSONSource).setData({
        type: "FeatureCollection",
        features: incidents.map((incident, index) =>
          point(incident.longitude, incident.latitude, {
            id: incident.id,
            discipline: incident.disciplineSlug ?? "",
            rank: incident.urgencyRank,
            exercise: incident.exercise,
            order: count - index,
          }),
        ),
      });
      map.setFilter("incident-selected", ["==", ["get", "id"], selected ?? ""]);
    },
    setVisible: (visible) => setLayersVisible(map, LAYERS, visible),
  };
}
