// Active NL-Alert broadcast areas as red dashed polygons. The API gives each area as the source
// writes it, "lat,lon lat,lon …"; GeoJSON wants [lon, lat] rings, closed. The alerts' texts go to
// the screen, which lists them in HTML beside the map.
import type { Feature, FeatureCollection, Polygon } from "geojson";
import L from "leaflet";
import type { Api } from "../../api/client.ts";
import { readFragment, type ResultOf } from "../../api/graphql.ts";
import type { BaseMap } from "../base-map.ts";
import { NL_ALERT_COLOUR } from "../colours.ts";
import { NlAlertFields, NlAlertsQuery, NlAlertsSubscription } from "../queries.ts";
import { showLayer, type FeedLayer } from "./feed-layer.ts";

export type NlAlerts = ReadonlyArray<ResultOf<typeof NlAlertFields>>;

/** One area's ring in GeoJSON order, or null when the text is not a polygon. */
export function areaRing(area: string): Array<[number, number]> | null {
  const ring: Array<[number, number]> = [];
  for (const pair of area.trim().split(/\s+/)) {
    const [lat, lon] = pair.split(",").map(Number);
    if (!Number.isFinite(lat) || !Number.isFinite(lon)) return null;
    ring.push([lon, lat]);
  }
  if (ring.length < 3) return null;
  const [first, last] = [ring[0], ring[ring.length - 1]];
  if (first[0] !== last[0] || first[1] !== last[1]) ring.push(first);
  return ring;
}

export function addNlAlertLayer(
  base: BaseMap,
  api: Api,
  onAlerts: (alerts: NlAlerts) => void,
  onError: (error: Error) => void,
): FeedLayer {
  const { map } = base;
  const areas = L.geoJSON(undefined, {
    pane: "alerts",
    interactive: false,
    style: { color: NL_ALERT_COLOUR, weight: 2, dashArray: "6 3", fillColor: NL_ALERT_COLOUR, fillOpacity: 0.25 },
  }).addTo(map);
  const show = (alerts: NlAlerts) => {
    areas.clearLayers();
    const features: Feature<Polygon>[] = alerts.flatMap((alert) =>
      alert.areas.flatMap((area) => {
        const ring = area ? areaRing(area) : null;
        return ring
          ? [
              {
                type: "Feature" as const,
                geometry: { type: "Polygon" as const, coordinates: [ring] },
                properties: { uuid: alert.uuid },
              },
            ]
          : [];
      }),
    );
    const collection: FeatureCollection = { type: "FeatureCollection", features };
    areas.addData(collection);
    base.changed();
    onAlerts(alerts);
  };
  const unsubscribe = api.subscribe(
    NlAlertsSubscription,
    {},
    (data) => show(readFragment(NlAlertFields, data.nlAlerts)),
    onError,
  );
  const reload = async () => show(readFragment(NlAlertFields, (await api.request(NlAlertsQuery)).nlAlerts));
  return { setVisible: (visible) => showLayer(base, areas, visible), reload, stop: unsubscribe };
}
