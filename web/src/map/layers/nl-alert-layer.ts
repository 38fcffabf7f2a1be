// Active NL-Alert broadcast areas as red hatched-looking polygons. The API gives each area as the
// source writes it, "lat,lon lat,lon …"; GeoJSON wants [lon, lat] rings, closed. The alerts' texts
// go to the screen, which lists them in HTML beside the map.
import type { GeoJSONSource, Map as MapLibreMap } from "maplibre-gl";
import type { Api } from "../../api/client.ts";
import { readFragment, type ResultOf } from "../../api/graphql.ts";
import { NL_ALERT_COLOUR } from "../colours.ts";
import { NlAlertFields, NlAlertsQuery, NlAlertsSubscription } from "../queries.ts";
import { setLayersVisible, type FeedLayer } from "./feed-layer.ts";

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

const LAYERS = ["nl-alerts-fill", "nl-alerts-line"] as const;

export function addNlAlertLayer(
  map: MapLibreMap,
  api: Api,
  onAlerts: (alerts: NlAlerts) => void,
  onError: (error: Error) => void,
): FeedLayer {
  map.addSource("nl-alerts", { type: "geojson", data: { type: "FeatureCollection", features: [] } });
  map.addLayer({
    id: "nl-alerts-fill",
    type: "fill",
    source: "nl-alerts",
    paint: { "fill-color": NL_ALERT_COLOUR, "fill-opacity": 0.25 },
  });
  map.addLayer({
    id: "nl-alerts-line",
    type: "line",
    source: "nl-alerts",
    paint: { "line-color": NL_ALERT_COLOUR, "line-width": 2, "line-dasharray": [2, 1] },
  });
  const show = (alerts: NlAlerts) => {
    void (map.getSource("nl-alerts") as GeoJSONSource).setData({
      type: "FeatureCollection",
      features: alerts.flatMap((alert) =>
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
      ),
    });
    onAlerts(alerts);
  };
  const unsubscribe = api.subscribe(
    NlAlertsSubscription,
    {},
    (data) => show(readFragment(NlAlertFields, data.nlAlerts)),
    onError,
  );
  const reload = async () => show(readFragment(NlAlertFields, (await api.request(NlAlertsQuery)).nlAlerts));
  return { setVisible: (visible) => setLayersVisible(map, LAYERS, visible), reload, stop: unsubscribe };
}
