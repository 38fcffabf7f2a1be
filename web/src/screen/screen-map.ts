// The screen's one map, made once and kept for the page's life (idle and alarm show it in turn):
// the station, its monitors' circles and their recent matches when idle; the station, the
// incident and the straight line between them in an alarm (the service has no routing data, and
// the alarm view says the line is a straight one). The live map's weather and NL-Alert layers
// colour the provinces and draw the alerts' areas; traffic is the station's own (nearby-traffic.ts).
// The map is fitted only when what it should frame changes, so it stands still between pages.
import L from "leaflet";
import type { WebConfig } from "../api/config.ts";
import { h } from "../dom.ts";
import { t } from "../i18n.ts";
import { circleRing, CIRCLE_STYLE } from "../console/monitors/circle-map.ts";
import { createBaseMap, loadBoundaries, NETHERLANDS, type BaseMap, type Boundaries } from "../map/base-map.ts";
import { disciplineColour } from "../map/colours.ts";
import type { Point } from "./area.ts";
import type { Match, ScreenData } from "./alarm-state.ts";
import { MarkerPool } from "./marker-pool.ts";
import "./screen-texts.ts";

const STATION_COLOUR = "#111111";
/** Without monitor circles, the idle map shows this far around the station. */
const IDLE_KM = 10;
/** The alarm's map shows at least this far around the incident. */
const ALARM_KM = 5;

export interface ScreenMap {
  element: HTMLElement;
  base: BaseMap;
  ready: Promise<Boundaries>;
  /** The idle map: the station, its monitors' circles and the recent matches. */
  showIdle(screen: ScreenData): void;
  /** The alarm's map: the station, the incident and the line between them. */
  showAlarm(screen: ScreenData, match: Match): void;
  remove(): void;
}

export function stationOf(screen: ScreenData): Point | null {
  return screen.latitude === null || screen.longitude === null
    ? null
    : { latitude: screen.latitude, longitude: screen.longitude };
}

export function createScreenMap(config: WebConfig): ScreenMap {
  const element = h("div", { class: "map screen-map" });
  const base = createBaseMap(element, loadBoundaries(), config, t("screen.map"));
  const { map } = base;
  const station = L.circleMarker([0, 0], {
    pane: "signs",
    interactive: false,
    radius: 10,
    fillColor: "#ffffff",
    fillOpacity: 1,
    color: STATION_COLOUR,
    weight: 5,
  });
  const circles = L.layerGroup().addTo(map);
  let circlesDrawn = "";
  const matches = new MarkerPool(base, 10, { radius: 8, fillOpacity: 1, color: "#ffffff", weight: 2, opacity: 1 });
  const incident = new MarkerPool(base, 1, { radius: 14, fillOpacity: 1, color: "#ffffff", weight: 4, opacity: 1 });
  const route = L.polyline([], {
    pane: "signs",
    interactive: false,
    color: STATION_COLOUR,
    weight: 5,
    dashArray: "12 8",
  });
  /** What the map was last fitted to: fitted again only when this changes. */
  let framed = "";

  const frame = (key: string, bounds: L.LatLngBounds | null, options: L.FitBoundsOptions) => {
    if (key === framed) return;
    framed = key;
    base.fit(bounds ?? L.latLngBounds(NETHERLANDS), options);
  };

  const placeStation = (screen: ScreenData): Point | null => {
    const here = stationOf(screen);
    if (here) station.setLatLng([here.latitude, here.longitude]).addTo(map);
    else station.remove();
    return here;
  };

  const drawCircles = (screen: ScreenData): L.LatLngBounds | null => {
    const rings = screen.monitors.flatMap((monitor) =>
      monitor.latitude !== null && monitor.longitude !== null && monitor.radius
        ? [circleRing({ latitude: monitor.latitude, longitude: monitor.longitude }, monitor.radius)]
        : [],
    );
    // Redrawn only when the monitors change (the console's settings), not at every page.
    const key = JSON.stringify(rings);
    if (key !== circlesDrawn) {
      circlesDrawn = key;
      circles.clearLayers();
      for (const ring of rings) L.polygon(ring, CIRCLE_STYLE).addTo(circles);
    }
    return rings.length ? L.latLngBounds(rings.flat()) : null;
  };

  return {
    element,
    base,
    ready: base.ready,
    showIdle(screen) {
      const here = placeStation(screen);
      route.remove();
      incident.show([]);
      if (!map.hasLayer(circles)) circles.addTo(map);
      const circleBounds = drawCircles(screen);
      matches.show(
        screen.matches.flatMap((match) =>
          match.latitude === null || match.longitude === null
            ? []
            : [
                {
                  latitude: match.latitude,
                  longitude: match.longitude,
                  colour: disciplineColour(match.discipline?.toLowerCase()),
                },
              ],
        ),
      );
      const bounds = circleBounds ?? (here ? L.latLngBounds(circleRing(here, IDLE_KM)) : null);
      frame(`idle ${circlesDrawn} ${here?.latitude} ${here?.longitude}`, bounds, { padding: [24, 24] });
    },
    showAlarm(screen, match) {
      const here = placeStation(screen);
      circles.remove();
      matches.show([]);
      const there =
        match.latitude === null || match.longitude === null
          ? null
          : { latitude: match.latitude, longitude: match.longitude };
      incident.show(there ? [{ ...there, colour: disciplineColour(match.discipline?.toLowerCase()) }] : []);
      if (here && there)
        route
          .setLatLngs([
            [here.latitude, here.longitude],
            [there.latitude, there.longitude],
          ])
          .addTo(map);
      else route.remove();
      // The station and the incident, with at least ALARM_KM around the incident, so the places
      // near it are named on the map however close it is to the station.
      const points = [here, there].filter((point): point is Point => point !== null);
      const bounds = points.length
        ? L.latLngBounds([
            ...points.map((point): L.LatLngTuple => [point.latitude, point.longitude]),
            ...(there ? circleRing(there, ALARM_KM) : []),
          ])
        : null;
      frame(`alarm ${match.incidentUuid} ${here?.latitude} ${there?.latitude}`, bounds, {
        padding: [40, 40],
      });
      base.changed();
    },
    remove() {
      base.remove();
    },
  };
}
