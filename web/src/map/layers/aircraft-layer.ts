// Trauma and police helicopters moving live: the fleet from the `aircraft` query, then one
// aircraftLive subscription per helicopter. Each is an HTML marker (an arrow turned to its track,
// with its registration as text, since the map has no text layers) and a short track line of its
// last positions: for one in the air, first those of its active route (aircraftRoutes' path), then
// each live position.
import L from "leaflet";
import type { Api } from "../../api/client.ts";
import { readFragment, type ResultOf } from "../../api/graphql.ts";
import { h } from "../../dom.ts";
import { t } from "../../i18n.ts";
import type { BaseMap } from "../base-map.ts";
import { AIRCRAFT_COLOURS } from "../colours.ts";
import { ActiveRouteQuery, AircraftFields, AircraftSubscription, FleetQuery } from "../queries.ts";
import { showLayer, type FeedLayer } from "./feed-layer.ts";

type Aircraft = ResultOf<typeof AircraftFields>;

/** Positions kept per helicopter for its track line. */
const TRACK_POINTS = 30;

/**
 * Helicopters followed live: those seen most recently. The service caps the subscriptions one
 * credential holds (SUBSCRIPTIONS_PER_TOKEN, 20 by default) and the page's other feeds take six,
 * so a subscription for each of a large fleet would be refused.
 */
const MAX_FOLLOWED = 10;

interface Tracked {
  marker: L.Marker;
  element: HTMLElement;
  arrow: HTMLElement;
  /** The track's positions, [latitude, longitude] as Leaflet takes them. */
  track: Array<[number, number]>;
  line: L.Polyline;
  unsubscribe: () => void;
}

export function addAircraftLayer(base: BaseMap, api: Api, onError: (error: Error) => void): FeedLayer {
  const { map } = base;
  // The markers are HTML in Leaflet's marker pane; the tracks are lines on the canvas under them.
  const markers = L.layerGroup().addTo(map);
  const tracks = L.layerGroup().addTo(map);
  const tracked = new Map<string, Tracked>();

  const drawTrack = (one: Tracked) => {
    // How many points the track has, on its marker (the browser tests read it).
    one.element.dataset.trackPoints = String(one.track.length);
    one.line.setLatLngs(one.track.length > 1 ? one.track : []);
    base.changed();
  };

  const place = (aircraft: Aircraft) => {
    const one = tracked.get(aircraft.icao);
    if (!one || aircraft.latitude === null || aircraft.longitude === null) return;
    const at: [number, number] = [aircraft.latitude, aircraft.longitude];
    const last = one.track[one.track.length - 1];
    if (!last || last[0] !== at[0] || last[1] !== at[1]) one.track.push(at);
    if (one.track.length > TRACK_POINTS) one.track.splice(0, one.track.length - TRACK_POINTS);
    one.marker.setLatLng(at);
    // Rotation through element.style, which the page's policy allows (no inline style attribute).
    one.arrow.style.transform = `rotate(${aircraft.track ?? 0}deg)`;
    one.element.dataset.onGround = String(aircraft.onGround === true);
    one.element.title = `${aircraft.registration} (${t(`aircraft.${aircraft.kind}`)})${
      aircraft.altitudeFt !== null && !aircraft.onGround ? `, ${aircraft.altitudeFt} ft` : ""
    }`;
    one.marker.addTo(markers);
    drawTrack(one);
  };

  /** The active route's last points before the live ones (path: [[longitude, latitude, altitudeFt, seconds], …]). */
  const drawRoute = async (icao: string) => {
    const { aircraftRoutes } = await api.request(ActiveRouteQuery, { icao });
    const one = tracked.get(icao);
    if (!one || !aircraftRoutes[0]) return;
    const flown = (JSON.parse(aircraftRoutes[0].path) as number[][]).map(
      ([longitude, latitude]) => [latitude, longitude] as [number, number],
    );
    const live = one.track.filter(([x, y]) => !flown.some(([fx, fy]) => fx === x && fy === y));
    one.track = [...flown, ...live].slice(-TRACK_POINTS);
    drawTrack(one);
  };

  const follow = (aircraft: Aircraft) => {
    if (!tracked.has(aircraft.icao)) {
      const colour = AIRCRAFT_COLOURS[aircraft.kind] ?? "#888";
      const arrow = h("span", { class: "aircraft-arrow", "aria-hidden": "true" }, "▲");
      arrow.style.color = colour;
      const element = h("div", { class: "aircraft-marker", role: "img" }, arrow, h("span", {}, aircraft.registration));
      element.dataset.colour = colour;
      element.setAttribute("aria-label", `${t(`aircraft.${aircraft.kind}`)} ${aircraft.registration}`);
      tracked.set(aircraft.icao, {
        // Centred on its position by map.css; the icon's size is the element's own.
        marker: L.marker([0, 0], {
          icon: L.divIcon({ html: element, className: "aircraft-icon", iconSize: undefined }),
          interactive: false,
          keyboard: false,
        }),
        element,
        arrow,
        track: [],
        line: L.polyline([], { pane: "tracks", interactive: false, color: colour, weight: 2.5, opacity: 0.8 }).addTo(
          tracks,
        ),
        unsubscribe: api.subscribe(
          AircraftSubscription,
          { icao: aircraft.icao },
          (data) => {
            if (data.aircraftLive) place(readFragment(AircraftFields, data.aircraftLive));
          },
          onError,
        ),
      });
      if (aircraft.onGround === false) drawRoute(aircraft.icao).catch(onError);
    }
    place(aircraft);
  };

  const reload = async () => {
    const { aircraft } = await api.request(FleetQuery);
    const seen = readFragment(AircraftFields, aircraft)
      .filter((one) => one.lastSeenAt !== null && one.latitude !== null)
      .sort((a, b) => b.lastSeenAt!.localeCompare(a.lastSeenAt!));
    for (const one of seen.slice(0, MAX_FOLLOWED)) follow(one);
  };
  return {
    setVisible(visible) {
      showLayer(base, markers, visible);
      showLayer(base, tracks, visible);
    },
    reload,
    stop() {
      for (const one of tracked.values()) one.unsubscribe();
      markers.clearLayers();
      tracks.clearLayers();
      tracked.clear();
    },
  };
}
