// The live map (issue 31, part 1): the screen puts the parts together — the base map, a layer per
// feed, the incident list, the filters kept in the URL, the AMBER banner, the legend and the
// incident panel — and keeps them live. Each feed is loaded once, then follows its subscription;
// when the live connection comes back after a loss, everything is fetched once more for what it
// missed.
//
// A filter change scrolls the list back to its newest incident, and a safety region chosen (or
// named in the URL) is what the map shows. Opening an incident adds a history entry (the URL with
// `incident=`): the browser's Back closes the panel and Forward opens it again, and closing it
// with × or Escape goes back in the history the same way. The panel opens where the person is: on
// a phone it takes the list's place in the page, its title at the top of the screen, and closing
// it returns to the same place in the list.
import "./map.css";
import "./texts.ts";
import type { Screen } from "../context.ts";
import { h, replaceChildren } from "../dom.ts";
import { language, t } from "../i18n.ts";
import { kindChoices } from "../incident-kinds.ts";
import { createAmberBanner } from "./amber-banner.ts";
import { createBaseMap, loadBoundaries, NETHERLANDS, type BaseMap } from "./base-map.ts";
import { WARNING_COLOURS } from "./colours.ts";
import { createFilters, type SafetyRegion } from "./filters.ts";
import { createIncidentList } from "./incident-list.ts";
import { createIncidentPanel } from "./incident-panel.ts";
import { IncidentStore, shown } from "./incidents.ts";
import { addLegend } from "./legend.ts";
import { addAircraftLayer } from "./layers/aircraft-layer.ts";
import type { FeedLayer } from "./layers/feed-layer.ts";
import { addIncidentsLayer, type IncidentsLayer } from "./layers/incidents-layer.ts";
import { addNlAlertLayer, type NlAlerts } from "./layers/nl-alert-layer.ts";
import { addTrafficLayer } from "./layers/traffic-layer.ts";
import { addWeatherLayer, type ProvinceWarning } from "./layers/weather-layer.ts";
import L from "leaflet";
import {
  feedOn,
  ownEntry,
  pushViewState,
  readViewState,
  writeViewState,
  type Feed,
  type ViewState,
} from "./view-state.ts";

export const mapScreen: Screen = (root, { api, config }) => {
  let state: ViewState = readViewState(location.search);
  let disposed = false;
  const stops: Array<() => void> = [];

  const problem = h("p", { class: "map-problem", role: "status" });
  const showProblem = (error: Error) => {
    if (!disposed) problem.textContent = `${t("error.load")}: ${error.message}`;
  };

  const store = new IncidentStore(api);
  const amber = createAmberBanner(api, showProblem);
  const list = createIncidentList((id) => openIncident(id));
  // Where the list was when the panel opened: the item opened and its place on the screen (a phone
  // scrolls the page, a wide screen the list), to find it there again when the panel closes.
  let anchor: { id: string; top: number } | null = null;
  const panel = createIncidentPanel(
    api,
    // Closed by × or Escape: the entry its opening added is left, as Back would.
    (id) => {
      const back = ownEntry();
      if (back) {
        state = { ...state, incident: null };
        render();
      } else update({ incident: null });
      afterClose(id);
      if (back) history.back();
    },
    showProblem,
  );
  const filtersSlot = h("div", { class: "filters-slot" });
  // A region named by the base map (createBaseMap's label).
  const mapElement = h("div", { class: "map" });
  const weatherNotes = h("ul", { class: "notes weather-notes" });
  const alertNotes = h("ul", { class: "notes alert-notes" });
  const notes = h(
    "div",
    { class: "map-notes" },
    h(
      "section",
      { "aria-labelledby": "weather-heading" },
      h("h2", { id: "weather-heading" }, t("weather.heading")),
      weatherNotes,
    ),
    h(
      "section",
      { "aria-labelledby": "alerts-heading" },
      h("h2", { id: "alerts-heading" }, t("alerts.heading")),
      alertNotes,
    ),
  );
  root.append(
    h(
      "div",
      { class: "map-screen" },
      h("div", { class: "map-top" }, h("h1", {}, t("map.heading")), filtersSlot),
      amber.element,
      problem,
      h("div", { class: "map-area" }, mapElement, notes),
      h("aside", { class: "map-side" }, panel.element, list.element),
    ),
  );

  let base: BaseMap | undefined;
  let regionShapes: GeoJSON.FeatureCollection | undefined;
  let incidentsLayer: IncidentsLayer | undefined;
  const feedLayers = new Map<Feed, FeedLayer>();

  function render(): void {
    const visible = store.all.filter((incident) => shown(incident, state));
    list.show(visible, state.incident);
    incidentsLayer?.show(visible, state.incident);
    incidentsLayer?.setVisible(feedOn(state, "incidents"));
    for (const [feed, layer] of feedLayers) layer.setVisible(feedOn(state, feed));
    alertNotes.parentElement!.hidden = !feedOn(state, "alerts");
    weatherNotes.parentElement!.hidden = !feedOn(state, "weather");
  }

  function update(next: Partial<ViewState>): void {
    const before = state;
    state = { ...state, ...next };
    writeViewState(state);
    render();
    const filtered = (["region", "disciplines", "categories", "urgency", "exercises"] as const).some(
      (key) => JSON.stringify(before[key]) !== JSON.stringify(state[key]),
    );
    // The list starts at the newest incident of what it holds now.
    if (filtered) list.scrollToTop();
    if (before.region !== state.region) showRegion();
  }

  /** The map shows the chosen safety region (its outline in the shipped boundaries), else the country. */
  function showRegion(): void {
    if (!base || !regionShapes) return;
    const shape = state.region
      ? regionShapes.features.find((f) => String(f.properties?.number) === state.region)
      : null;
    if (shape) base.fit(L.geoJSON(shape).getBounds(), { padding: [16, 16] });
    else base.fit(NETHERLANDS, { padding: [8, 8] });
  }

  function openIncident(id: string): void {
    if (state.incident === id) return panel.open(id, store.get(id));
    // One entry for the panel: opening another incident while one is open replaces it, so Back
    // (and ×) always returns to the map as it was before the first.
    if (state.incident && ownEntry()) update({ incident: id });
    else {
      remember(id);
      state = { ...state, incident: id };
      pushViewState(state);
      render();
    }
    showPanel(id);
  }

  /** Opens the panel where the person is, and the map on the incident. */
  function showPanel(id: string): void {
    panel.open(id, store.get(id));
    // On a phone the panel takes the list's place under the map: its title at the top of the screen.
    const top = panel.element.getBoundingClientRect().top - root.getBoundingClientRect().top;
    if (top < 0 || top > root.clientHeight / 3) root.scrollTop += top;
    const incident = store.get(id);
    if (incident && base) base.map.panTo([incident.latitude, incident.longitude], { duration: 0.4 });
  }

  /** Remembers where the incident's item is on the screen, if it is in sight (opened from the list). */
  function remember(id: string): void {
    const box = list.button(id)?.getBoundingClientRect();
    const screen = root.getBoundingClientRect();
    anchor = box && box.bottom > screen.top && box.top < screen.bottom ? { id, top: box.top } : null;
  }

  /**
   * The panel closed: the list is back where it was, its item where it was on the screen (the
   * items above it are laid out anew, content-visibility, so a remembered scroll offset would not
   * do), and the focus on the item; else the focus on the item (in sight) or the map.
   */
  function afterClose(id: string): void {
    const back = anchor && list.button(anchor.id) ? anchor : null;
    anchor = null;
    if (back) {
      const off = () => list.button(back.id)!.getBoundingClientRect().top - back.top;
      list.scrollBy(off());
      root.scrollTop += off();
    }
    if (!list.focus(id, { preventScroll: Boolean(back) })) base?.map.getContainer().focus({ preventScroll: true });
  }

  // Back and Forward within the map (the shell leaves the screen be, routes.ts ownHistory): the
  // entry's incident opens or closes; the filters stay as they are now.
  const followHistory = () => {
    const wanted = readViewState(location.search).incident;
    if (wanted === state.incident) return;
    const closing = state.incident;
    state = { ...state, incident: wanted };
    writeViewState(state);
    render();
    if (wanted) {
      if (!closing) remember(wanted);
      showPanel(wanted);
    } else if (closing && panel.openId) {
      panel.close({ quietly: true });
      afterClose(closing);
    }
  };
  window.addEventListener("popstate", followHistory);
  stops.push(() => window.removeEventListener("popstate", followHistory));

  const regionsOf = (collection: GeoJSON.FeatureCollection): SafetyRegion[] =>
    collection.features
      .map((feature) => ({ number: String(feature.properties?.number), name: String(feature.properties?.name) }))
      .sort((a, b) => a.number.localeCompare(b.number));

  const showWarnings = (warnings: ProvinceWarning[]) =>
    replaceChildren(
      weatherNotes,
      ...warnings.map((warning) => {
        const swatch = h("span", { class: "dot", "aria-hidden": "true" });
        swatch.style.background = WARNING_COLOURS[warning.level];
        return h("li", {}, swatch, `${warning.name}: ${t(`weather.level${warning.level}`)}`);
      }),
    );
  const showAlerts = (alerts: NlAlerts) =>
    replaceChildren(
      alertNotes,
      ...alerts.map((alert) => h("li", {}, (language === "en" && alert.messageEn) || alert.messageNl)),
    );

  async function reloadAll(): Promise<void> {
    await Promise.all([
      store.reload(),
      amber.reload(),
      panel.reload(),
      ...[...feedLayers.values()].map((layer) => layer.reload()),
    ]);
  }

  // Everything starts at once: the map, the boundaries, the incidents and the other feeds; the
  // feeds' layers are added once the boundaries are drawn (the weather colours the provinces).
  async function start(): Promise<void> {
    const boundaries = loadBoundaries();
    base = createBaseMap(mapElement, boundaries, config, t("map.label"));
    stops.push(
      store.onChange(render),
      api.onReconnect(() => void reloadAll().catch(showProblem)),
    );
    if (state.incident) {
      // A shared link to an incident: the map without it comes first in the history, so Back (or
      // ×) shows the map rather than leaving the site.
      if (!ownEntry()) {
        writeViewState({ ...state, incident: null });
        pushViewState(state);
      }
      panel.open(state.incident);
    }
    const layersLoaded = base.ready.then(({ provinces }) => {
      if (disposed || !base) return;
      feedLayers.set("weather", addWeatherLayer(base, provinces, api, showWarnings, showProblem));
      feedLayers.set("alerts", addNlAlertLayer(base, api, showAlerts, showProblem));
      feedLayers.set("traffic", addTrafficLayer(base, api, showProblem));
      incidentsLayer = addIncidentsLayer(base, openIncident);
      feedLayers.set("aircraft", addAircraftLayer(base, api, showProblem));
      addLegend(base.map);
      render();
      return Promise.all([...feedLayers.values()].map((layer) => layer.reload()));
    });
    // The kinds of incident are the service's list; without it the filters still come, without kinds.
    const kinds = kindChoices(api).catch(() => []);
    const filtersShown = Promise.all([boundaries, kinds]).then(([{ regions }, kindList]) => {
      if (disposed) return;
      regionShapes = regions;
      filtersSlot.append(createFilters(() => state, regionsOf(regions), kindList, update));
      // A link with a region shows that region.
      if (state.region) showRegion();
    });
    await Promise.all([store.start(showProblem), amber.reload(), layersLoaded, filtersShown]);
  }

  start().catch(showProblem);

  return () => {
    disposed = true;
    for (const stop of stops) stop();
    store.stop();
    amber.stop();
    for (const layer of feedLayers.values()) layer.stop();
    panel.close();
    base?.remove();
    root.replaceChildren();
  };
};
