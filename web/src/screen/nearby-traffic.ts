// The traffic incidents on the roads around the station: the live map's query and subscription
// (every active incident in the country), kept to those within AREA_KM of the station (area.ts),
// drawn as the live map draws traffic (its colour, under the incidents) and handed to the idle
// view for its list. Markers are kept and moved, not made again, for a screen that runs for days.
import type { Api } from "../api/client.ts";
import { readFragment, type ResultOf } from "../api/graphql.ts";
import type { BaseMap } from "../map/base-map.ts";
import { TRAFFIC_COLOUR } from "../map/colours.ts";
import { TrafficFields, TrafficQuery, TrafficSubscription } from "../map/queries.ts";
import { distanceKm, nearby, type Point } from "./area.ts";
import { MarkerPool } from "./marker-pool.ts";

export type TrafficIncident = ResultOf<typeof TrafficFields>;

/** At most this many listed and drawn: a screen has room for a few, the nearest. */
const SHOWN = 8;

export function addNearbyTraffic(
  base: BaseMap,
  api: Api,
  station: () => Point | null,
  onList: (incidents: TrafficIncident[]) => void,
  onError: (error: Error) => void,
): { reload(): Promise<void>; refilter(): void; stop(): void } {
  const markers = new MarkerPool(base, SHOWN, {
    radius: 7,
    fillColor: TRAFFIC_COLOUR,
    fillOpacity: 1,
    color: "#ffffff",
    weight: 2,
    opacity: 1,
  });
  let all: readonly TrafficIncident[] = [];
  const show = () => {
    const here = station();
    const near = here
      ? all
          .filter((incident) => nearby(here, incident))
          .map((incident) => ({
            incident,
            km: distanceKm(here, { latitude: incident.latitude!, longitude: incident.longitude! }),
          }))
          .sort((a, b) => a.km - b.km)
          .slice(0, SHOWN)
          .map(({ incident }) => incident)
      : [];
    markers.show(near.map((incident) => ({ latitude: incident.latitude!, longitude: incident.longitude! })));
    onList(near);
  };
  const take = (incidents: readonly TrafficIncident[]) => {
    all = incidents;
    show();
  };
  const unsubscribe = api.subscribe(
    TrafficSubscription,
    {},
    (data) => take(readFragment(TrafficFields, data.trafficIncidents)),
    onError,
  );
  return {
    reload: async () => take(readFragment(TrafficFields, (await api.request(TrafficQuery)).trafficIncidents)),
    refilter: show,
    stop: () => {
      unsubscribe();
      markers.remove();
    },
  };
}
