// Each province filled with its KNMI warning colour (yellow, orange, red; nothing for none). The
// meteoRegions codes are the provinces' codes in nl-provinces.geojson, which the base map's source
// keys its features by, so the level is set as each feature's state. A list of the provinces with a
// warning is given to the screen for its HTML legend (the map has no text layers).
import type { Map as MapLibreMap } from "maplibre-gl";
import type { Api } from "../../api/client.ts";
import { readFragment, type ResultOf } from "../../api/graphql.ts";
import { WARNING_COLOURS } from "../colours.ts";
import { MeteoFields, MeteoQuery, MeteoSubscription } from "../queries.ts";
import { setLayersVisible, type FeedLayer } from "./feed-layer.ts";

type Regions = ReadonlyArray<ResultOf<typeof MeteoFields>>;
export interface ProvinceWarning {
  name: string;
  level: number;
}

export function addWeatherLayer(
  map: MapLibreMap,
  api: Api,
  onWarnings: (warnings: ProvinceWarning[]) => void,
  onError: (error: Error) => void,
): FeedLayer {
  const level = ["coalesce", ["feature-state", "level"], 0];
  map.addLayer(
    {
      id: "weather",
      type: "fill",
      source: "provinces",
      paint: {
        "fill-color": [
          "step",
          level,
          WARNING_COLOURS[0],
          1,
          WARNING_COLOURS[1],
          2,
          WARNING_COLOURS[2],
          3,
          WARNING_COLOURS[3],
        ],
        "fill-opacity": 0.45,
        // As the land under it: the boundary lines are the outline.
        "fill-antialias": false,
      } as never,
    },
    // Under the boundary lines, so they stay visible.
    "region-lines",
  );
  const show = (regions: Regions) => {
    const warnings: ProvinceWarning[] = [];
    for (const region of regions) {
      if (!region.code) continue;
      const value = Math.max(0, Math.min(3, region.statusCode ?? 0));
      map.setFeatureState({ source: "provinces", id: region.code }, { level: value });
      if (value > 0) warnings.push({ name: region.name ?? region.code, level: value });
    }
    onWarnings(warnings.sort((a, b) => b.level - a.level || a.name.localeCompare(b.name)));
  };
  const unsubscribe = api.subscribe(
    MeteoSubscription,
    {},
    (data) => show(readFragment(MeteoFields, data.meteoRegions)),
    onError,
  );
  const reload = async () => show(readFragment(MeteoFields, (await api.request(MeteoQuery)).meteoRegions));
  return { setVisible: (visible) => setLayersVisible(map, ["weather"], visible), reload, stop: unsubscribe };
}
