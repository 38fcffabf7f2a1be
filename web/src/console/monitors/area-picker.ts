// Where a P2000 monitor listens, as any number of areas (query.areas): a gemeente, woonplaats,
// postcode area, province or safety region found by typing its name or code (areaChoices); a circle
// of 1 or 3 km around an address or place typed (locationSuggestions: home, work); or an area drawn
// on the map (polygon-draw.ts). The picked areas are a pick list (unticking one takes it off) and
// are drawn on a map of their own under it, so a person sees where the monitor listens; the API's
// refusal of an area (a drawn one whose edges cross, or outside the Netherlands) is said under
// the list, as the drawing's own "fewer than 3 points" is.
import L from "leaflet";
import type { Api } from "../../api/client.ts";
import { h } from "../../dom.ts";
import { t } from "../../i18n.ts";
import { createBaseMap, loadBoundaries, type BaseSource, type Boundaries } from "../../map/base-map.ts";
import { drawAreas } from "./area-shapes.ts";
import { areaLabel, areasOf, areaValue, type Area } from "./areas.ts";
import type { Criterion } from "./criterion.ts";
import { AreaChoicesQuery, LocationSuggestionsQuery } from "./monitor-queries.ts";
import { pickList, type Choice } from "./pick-list.ts";
import { polygonDrawing } from "./polygon-draw.ts";

/** The areas' label, the same for every type with a place (the form's field, the monitor's page). */
export const AREAS_LABEL = "monitors.query.areas";

/** The radii, in km, offered around an address someone types (home, work). */
const ADDRESS_RADII = [1, 3];

/** The named areas and the circles around places that a typed text finds. */
async function searchAreas(api: Api, text: string): Promise<Choice[]> {
  const [named, places] = await Promise.all([
    api.request(AreaChoicesQuery, { search: text }).catch(() => null),
    api.request(LocationSuggestionsQuery, { search: text }).catch(() => null),
  ]);
  const areas = (named?.areaChoices ?? []).map((choice) => {
    const area = { type: choice.kind ?? "", code: choice.code ?? "", name: choice.name ?? undefined };
    const where =
      choice.municipalityName && choice.municipalityName !== choice.name ? ` (${choice.municipalityName})` : "";
    return { value: areaValue(area), label: areaLabel(area) + where };
  });
  const circles = (places?.locationSuggestions ?? []).flatMap((found) =>
    found.label && found.latitude !== null && found.longitude !== null
      ? ADDRESS_RADII.map((radius) => {
          const area = { type: "circle", latitude: found.latitude!, longitude: found.longitude!, radius };
          // "Oude Haven 3, Zierikzee": several places have an Oude Haven 3.
          const place = found.detail ? `${found.label}, ${found.detail}` : found.label!;
          return { value: areaValue(area), label: areaLabel(area, place) };
        })
      : [],
  );
  return [...areas, ...circles];
}

export function areasCriterion(api: Api, source: BaseSource): Criterion {
  const mapElement = h("div", { class: "map monitor-areas-map", id: "monitor-areas-map" });
  const base = createBaseMap(mapElement, loadBoundaries(), source, t("monitors.areas.mapLabel"));
  const shapes = L.layerGroup().addTo(base.map);
  let boundaries: Boundaries | null = null;
  let areas: Area[] = [];
  let removed = false;

  const drawing = polygonDrawing(base.map, {
    onFinish(ring) {
      const area: Area = { type: "polygon", coordinates: [ring] };
      list.add({ value: areaValue(area), label: areaLabel(area) });
    },
    onProblem: (message) => list.setError(message),
    changed: () => base.changed(),
  });
  /** Draws the picked areas; zooms to them, except while a person draws (the map stays where they are). */
  const show = () => {
    if (removed) return;
    const bounds = drawAreas(shapes, areas, boundaries);
    if (bounds && !drawing.drawing()) base.fit(bounds, { padding: [24, 24], maxZoom: 14 });
    base.changed();
  };
  void base.ready.then(
    (loaded) => {
      boundaries = loaded;
      show();
    },
    () => undefined,
  );

  // The drawing's callbacks above use the list: they run on clicks, once it is made.
  const list = pickList({
    id: "monitor-areas",
    label: t(AREAS_LABEL),
    hint: t("monitors.areasHint"),
    apiNames: ["query.areas"],
    search: (text) => searchAreas(api, text),
    extra: h(
      "div",
      { class: "monitor-areas-draw" },
      h("p", { class: "field-hint", id: "monitor-areas-draw-hint" }, t("monitors.draw.hint")),
      mapElement,
      drawing.element,
    ),
    onChange(values) {
      areas = values.map((value) => JSON.parse(value) as Area);
      show();
    },
  });
  return {
    field: list,
    // `areas` is the list's values parsed (onChange keeps it so).
    read: () => (areas.length ? areas : undefined),
    fill: (value) => {
      const saved = areasOf(value);
      list.setValues(saved.map(areaValue), Object.fromEntries(saved.map((area) => [areaValue(area), areaLabel(area)])));
    },
    remove() {
      drawing.stop();
      // The boundaries may still be on their way: their arrival then draws nothing.
      removed = true;
      base.remove();
    },
  };
}
