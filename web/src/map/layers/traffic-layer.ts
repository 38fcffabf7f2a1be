// Active traffic incidents (the road authority's DATEX II feed) as small circles in one colour, in
// the map's top pane under the P2000 incidents (drawn, and clicked, first); a click tells what and
// where in a popup.
import L from "leaflet";
import type { Api } from "../../api/client.ts";
import { readFragment, type ResultOf } from "../../api/graphql.ts";
import { h } from "../../dom.ts";
import { t } from "../../i18n.ts";
import type { BaseMap } from "../base-map.ts";
import { TRAFFIC_COLOUR } from "../colours.ts";
import { TrafficFields, TrafficQuery, TrafficSubscription } from "../queries.ts";
import { showLayer, type FeedLayer } from "./feed-layer.ts";

type Incidents = ReadonlyArray<ResultOf<typeof TrafficFields>>;

export function addTrafficLayer(base: BaseMap, api: Api, onError: (error: Error) => void): FeedLayer {
  const { map } = base;
  const group = L.layerGroup().addTo(map);
  // Leaflet's canvas draws in the order layers were added: the traffic's circles go to the back.
  const underIncidents = () => group.eachLayer((marker) => (marker as L.CircleMarker).bringToBack());
  const show = (incidents: Incidents) => {
    group.clearLayers();
    for (const incident of incidents) {
      const { latitude, longitude } = incident;
      if (latitude === null || longitude === null) continue;
      const text = [t(`traffic.${incident.type}`), incident.roadNumber].filter(Boolean).join(" ");
      L.circleMarker([latitude, longitude], {
        pane: "signs",
        radius: 5,
        fillColor: TRAFFIC_COLOUR,
        fillOpacity: 1,
        color: "#ffffff",
        weight: 2,
        opacity: 1,
      })
        // The popup's content as a node, so the feed's text is never read as HTML.
        .bindPopup(() => h("span", {}, text))
        .addTo(group);
    }
    underIncidents();
    base.changed();
  };
  const unsubscribe = api.subscribe(
    TrafficSubscription,
    {},
    (data) => show(readFragment(TrafficFields, data.trafficIncidents)),
    onError,
  );
  const reload = async () => show(readFragment(TrafficFields, (await api.request(TrafficQuery)).trafficIncidents));
  const setVisible = (visible: boolean) => {
    if (showLayer(base, group, visible)) underIncidents();
  };
  return { setVisible, reload, stop: unsubscribe };
}
