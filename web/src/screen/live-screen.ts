// The paired screen: its own API client with the screen's credential, the stationScreen
// subscription (the whole screen again at every match, answer or change of settings), and the
// idle and alarm views around one map. Never dark: the API client reconnects by itself (forever,
// with back-off), the banner says since when the screen is offline, and at every reconnect the
// screen and the feeds are fetched again, so a match made meanwhile appears. A credential the
// service no longer takes (the screen was removed in the console) sends the screen back to
// pairing. One timer for the clock, the elapsed time and the alarm's end; nothing is added per
// update, so the page's memory stays flat over days.
import { Api, ApiError } from "../api/client.ts";
import type { WebConfig } from "../api/config.ts";
import { readFragment } from "../api/graphql.ts";
import { h } from "../dom.ts";
import { language, t } from "../i18n.ts";
import { addNlAlertLayer, type NlAlerts } from "../map/layers/nl-alert-layer.ts";
import { addWeatherLayer, type ProvinceWarning } from "../map/layers/weather-layer.ts";
import type { FeatureCollection } from "geojson";
import { alarmColours, alarmKey, currentAlarm, type Match, type ScreenData } from "./alarm-state.ts";
import { alarmView } from "./alarm-view.ts";
import { alertReaches, provinceOf } from "./area.ts";
import { idleView } from "./idle-view.ts";
import { addNearbyTraffic } from "./nearby-traffic.ts";
import { offlineBanner } from "./offline-banner.ts";
import { createScreenMap, stationOf } from "./screen-map.ts";
import { ScreenFields, ScreenQuery, ScreenSubscription } from "./screen-queries.ts";
import { timeOfDay } from "./screen-texts.ts";
import { alarmSound } from "./sound.ts";

const TICK_MS = 1000;

export function liveScreen(root: HTMLElement, config: WebConfig, token: string, onRevoked: () => void): () => void {
  const api = new Api(config.graphqlPath, token);
  let stopped = false;
  let screen: ScreenData | null = null;
  /** The alarm shown now, the one "back to idle" set aside, and the last one that sounded. */
  let shownAlarm: Match | null = null;
  let setAside: string | null = null;
  let sounded: string | null = null;
  /** The alarm's incident and its first matched page's time: the elapsed time counts from it (after a reload too). */
  let started: { incident: string; at: number } | null = null;
  let provinces: FeatureCollection | null = null;
  let warnings: ProvinceWarning[] = [];
  let alerts: NlAlerts = [];
  let traffic: ReturnType<typeof addNearbyTraffic> | undefined;

  const name = h("h1", { class: "screen-name" }, t("screen.title"));
  const clock = h("p", { class: "screen-clock" });
  const problem = h("p", { class: "screen-problem", role: "status", hidden: true });
  const noPlace = h("p", { class: "screen-no-place", hidden: true }, t("screen.noPlace"));
  const offline = offlineBanner();
  const sound = alarmSound();
  const map = createScreenMap(config);
  const idle = idleView();
  const alarm = alarmView(() => {
    if (shownAlarm) setAside = alarmKey(shownAlarm);
    render();
  });
  const shell = h(
    "div",
    { class: "station-screen", "data-mode": "idle" },
    h("header", { class: "screen-top" }, name, clock),
    offline.element,
    sound.note,
    problem,
    h(
      "div",
      { class: "screen-body" },
      h("div", { class: "screen-map-area" }, map.element, noPlace),
      h("div", { class: "screen-side" }, idle.element, alarm.element),
    ),
  );
  root.replaceChildren(shell);

  const revoked = () => {
    if (stopped) return;
    stop();
    onRevoked();
  };
  const showProblem = (error: Error) => {
    if (stopped) return;
    if (error instanceof ApiError && error.code === "UNAUTHENTICATED") return revoked();
    // A lost socket is the offline banner's to say.
    if (error instanceof ApiError && error.code === "NETWORK_ERROR") return;
    problem.textContent = t("screen.problem").replace("{reason}", error.message);
    problem.hidden = false;
  };

  const showFeeds = () => {
    const station = screen && stationOf(screen);
    const province = station && provinces ? provinceOf(station, provinces) : null;
    idle.showWarnings(province, warnings);
    idle.showAlerts(station ? alerts.filter((alert) => alertReaches(station, alert.areas)) : []);
    traffic?.refilter();
  };

  function render(): void {
    if (!screen || stopped) return;
    const now = Date.now();
    const match = currentAlarm(screen, now, setAside);
    shownAlarm = match;
    idle.showScreen(screen);
    noPlace.hidden = stationOf(screen) !== null;
    // The layout first (the alarm gives the map another width), then the map fitted to it.
    shell.dataset.mode = match ? "alarm" : "idle";
    idle.element.hidden = match !== null;
    alarm.element.hidden = match === null;
    if (match) {
      if (started?.incident !== match.incidentUuid)
        started = { incident: match.incidentUuid, at: Date.parse(match.sended) };
      const key = alarmKey(match);
      if (key !== sounded) {
        sounded = key;
        sound.alarm();
      }
      const colours = alarmColours(match);
      shell.style.setProperty("--alarm-bg", colours.background);
      shell.style.setProperty("--alarm-fg", colours.text);
      alarm.show(screen, match, started.at);
      alarm.tick(now);
      map.showAlarm(screen, match);
    } else {
      started = null;
      sound.idle();
      map.showIdle(screen);
    }
  }

  const take = (data: ScreenData) => {
    if (stopped) return;
    const moved = screen?.latitude !== data.latitude || screen?.longitude !== data.longitude;
    screen = data;
    problem.hidden = true;
    name.textContent = data.name;
    document.title = `${data.name} · ${t("screen.title")}`;
    render();
    if (moved) showFeeds();
  };

  const tick = () => {
    const now = Date.now();
    // Written when the minute changes only: a text node made every second is garbage for nothing.
    const time = timeOfDay(now);
    const newMinute = clock.textContent !== time;
    if (newMinute) clock.textContent = time;
    if (!screen) return;
    // What holds until a time (the crew's availability) is looked at again each minute.
    if (newMinute) idle.showScreen(screen);
    const match = currentAlarm(screen, now, setAside);
    // The alarm's end (alarmMinutes after its last page) comes by the clock, not by an event.
    if ((match && alarmKey(match)) !== (shownAlarm && alarmKey(shownAlarm))) render();
    else if (match) alarm.tick(now);
  };
  const timer = setInterval(tick, TICK_MS);
  tick();

  const fetchScreen = async () =>
    take(readFragment(ScreenFields, (await api.request(ScreenQuery, { language })).stationScreen));
  // Subscribed first, then fetched, so that nothing that happens in between is missed.
  const unsubscribe = api.subscribe(
    ScreenSubscription,
    { language },
    (data) => take(readFragment(ScreenFields, data.stationScreen)),
    showProblem,
  );
  void fetchScreen().catch(showProblem);

  const layers = map.ready.then((boundaries) => {
    if (stopped) return [];
    provinces = boundaries.provinces;
    const weather = addWeatherLayer(
      map.base,
      boundaries.provinces,
      api,
      (found) => {
        warnings = found;
        showFeeds();
      },
      showProblem,
    );
    const nlAlerts = addNlAlertLayer(
      map.base,
      api,
      (found) => {
        alerts = found;
        showFeeds();
      },
      showProblem,
    );
    traffic = addNearbyTraffic(map.base, api, () => screen && stationOf(screen), idle.showTraffic, showProblem);
    const all = [weather, nlAlerts, traffic];
    void Promise.all(all.map((layer) => layer.reload())).catch(showProblem);
    return all;
  });

  const stopState = api.onState((state) => offline.show(state));
  const stopReconnect = api.onReconnect(() => {
    void fetchScreen().catch(showProblem);
    void layers.then((all) => Promise.all(all.map((layer) => layer.reload()))).catch(showProblem);
  });
  api.onUnauthenticated(revoked);

  function stop(): void {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    unsubscribe();
    stopState();
    stopReconnect();
    void layers.then((all) => all.forEach((layer) => layer.stop()));
    sound.stop();
    map.remove();
  }
  return stop;
}
