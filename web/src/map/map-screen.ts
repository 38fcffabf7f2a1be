// The live map (issue 31, part 1): the screen puts the parts together — the base map, a layer per
// feed, the incident list, the filters kept in the URL, the AMBER banner and the incident panel —
// and keeps them live. Each feed is loaded once, then follows its subscription; when the live
// connection comes back after a loss, everything is fetched once more for what it missed.
import "./map.css";
import "./texts.ts";
import type { Screen } from "../context.ts";
import { h, replaceChildren } from "../dom.ts";
import { language, t } from "../i18n.ts";
import { createAmberBanner } from "./amber-banner.ts";
import { createBaseMap, loadBoundaries, type BaseMap } from "./base-map.ts";
import { WARNING_COLOURS } from "./colours.ts";
import { createFilters, type SafetyRegion } from "./filters.ts";
import { createIncidentList } from "./incident-list.ts";
import { createIncidentPanel } from "./incident-panel.ts";
import { IncidentStore, shown } from "./incidents.ts";
import { addAircraftLayer } from "./layers/aircraft-layer.ts";
import type { FeedLayer } from "./layers/feed-layer.ts";
import { addIncidentsLayer, type IncidentsLayer } from "./layers/incidents-layer.ts";
import { addNlAlertLayer, type NlAlerts } from "./layers/nl-alert-layer.ts";
import { addTrafficLayer } from "./layers/traffic-layer.ts";
import { addWeatherLayer, type ProvinceWarning } from "./layers/weather-layer.ts";
import { feedOn, readViewState, writeViewState, type Feed, type ViewState } from "./view-state.ts";

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
  const panel = createIncidentPanel(
    api,
    (id) => {
      update({ incident: null });
      if (!list.focus(id)) base?.map.getContainer().focus();
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
    state = { ...state, ...next };
    writeViewState(state);
    render();
  }

  function openIncident(id: string): void {
    update({ incident: id });
    panel.open(id);
    const incident = store.get(id);
    if (incident && base) base.map.panTo([incident.latitude, incident.longitude], { duration: 0.4 });
  }

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
    if (state.incident) panel.open(state.incident);
    const layersLoaded = base.ready.then(({ provinces }) => {
      if (disposed || !base) return;
      feedLayers.set("weather", addWeatherLayer(base, provinces, api, showWarnings, showProblem));
      feedLayers.set("alerts", addNlAlertLayer(base, api, showAlerts, showProblem));
      feedLayers.set("traffic", addTrafficLayer(base, api, showProblem));
      incidentsLayer = addIncidentsLayer(base, openIncident);
      feedLayers.set("aircraft", addAircraftLayer(base, api, showProblem));
      render();
      return Promise.all([...feedLayers.values()].map((layer) => layer.reload()));
    });
    const filtersShown = boundaries.then(({ regions }) => {
      if (!disposed) filtersSlot.append(createFilters(() => state, regionsOf(regions), update));
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
