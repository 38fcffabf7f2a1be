// Active traffic incidents (the road authority's DATEX II feed) as small squares-looking circles in
// one colour; a click tells what and where in a popup.
import { Popup, type GeoJSONSource, type Map as MapLibreMap } from "maplibre-gl";
import type { Api } from "../../api/client.ts";
import { readFragment, type ResultOf } from "../../api/graphql.ts";
import { TRAFFIC_COLOUR } from "../colours.ts";
import { TrafficFields, TrafficQuery, TrafficSubscription } from "../queries.ts";
import { t } from "../../i18n.ts";
import { point, setLayersVisible, type FeedLayer } from "./feed-layer.ts";

type Incidents = ReadonlyArray<ResultOf<typeof TrafficFields>>;

export function addTrafficLayer(map: MapLibreMap, api: Api, onError: (error: Error) => void): FeedLayer {
  map.addSource("traffic", { type: "geojson", data: { type: "FeatureCollection", features: [] } });
  map.addLayer({
    id: "traffic",
    type: "circle",
    source: "traffic",
    paint: {
      "circle-radius": 5,
      "circle-color": TRAFFIC_COLOUR,
      "circle-stroke-width": 2,
      "circle-stroke-color": "#ffffff",
    },
  });
  const show = (incidents: Incidents) => {
    void (map.getSource("traffic") as GeoJSONSource).setData({
      type: "FeatureCollection",
      features: incidents.flatMap((incident) => {
        const { latitude, longitude } = incident;
        if (latitude === null || longitude === null) return [];
        const kind = t(`traffic.${incident.type}`);
        return [point(longitude, latitude, { text: [kind, incident.roadNumber].filter(Boolean).join(" ") })];
      }),
    });
  };
  map.on("click", "traffic", (event) => {
    const feature = event.features?.[0];
    if (!feature || feature.geometry.type !== "Point") return;
    new Popup({ closeButton: true })
      .setLngLat(feature.geometry.coordinates as [number, number])
      .setText(String(feature.properties.text))
      .addTo(map);
  });
  const unsubscribe = api.subscribe(
    TrafficSubscription,
    {},
    (data) => show(readFragment(TrafficFields, data.trafficIncidents)),
    onError,
  );
  const reload = async () => show(readFragment(TrafficFields, (await api.request(TrafficQuery)).trafficIncidents));
  return { setVisible: (visible) => setLayersVisible(map, ["traffic"], visible), reload, stop: unsubscribe };
}
