// Each province filled with its KNMI warning colour (yellow, orange, red; nothing for none). The
// meteoRegions codes are the provinces' codes in nl-provinces.geojson (property `code`), so each
// province's polygon is found by its code and given its level's colour. A list of the provinces
// with a warning is given to the screen for its HTML legend.
import type { FeatureCollection } from "geojson";
import L from "leaflet";
import type { Api } from "../../api/client.ts";
import { readFragment, type ResultOf } from "../../api/graphql.ts";
import type { BaseMap } from "../base-map.ts";
import { WARNING_COLOURS } from "../colours.ts";
import { MeteoFields, MeteoQuery, MeteoSubscription } from "../queries.ts";
import { showLayer, type FeedLayer } from "./feed-layer.ts";

type Regions = ReadonlyArray<ResultOf<typeof MeteoFields>>;
export interface ProvinceWarning {
  name: string;
  level: number;
}

export function addWeatherLayer(
  base: BaseMap,
  provinces: FeatureCollection,
  api: Api,
  onWarnings: (warnings: ProvinceWarning[]) => void,
  onError: (error: Error) => void,
): FeedLayer {
  const { map } = base;
  const byCode = new Map<string, L.Path>();
  // Under the boundary lines (its own pane), which are the outline, so it has none.
  const layer = L.geoJSON(provinces, {
    pane: "weather",
    interactive: false,
    style: { stroke: false, fillOpacity: 0 },
    onEachFeature: (feature, path) => byCode.set(String(feature.properties?.code), path as L.Path),
  }).addTo(map);
  const show = (regions: Regions) => {
    const warnings: ProvinceWarning[] = [];
    for (const region of regions) {
      if (!region.code) continue;
      const level = Math.max(0, Math.min(3, region.statusCode ?? 0));
      byCode.get(region.code)?.setStyle({ fillColor: WARNING_COLOURS[level], fillOpacity: level > 0 ? 0.45 : 0 });
      if (level > 0) warnings.push({ name: region.name ?? region.code, level });
    }
    base.changed();
    onWarnings(warnings.sort((a, b) => b.level - a.level || a.name.localeCompare(b.name)));
  };
  const unsubscribe = api.subscribe(
    MeteoSubscription,
    {},
    (data) => show(readFragment(MeteoFields, data.meteoRegions)),
    onError,
  );
  const reload = async () => show(readFragment(MeteoFields, (await api.request(MeteoQuery)).meteoRegions));
  return { setVisible: (visible) => showLayer(base, layer, visible), reload, stop: unsubscribe };
}
