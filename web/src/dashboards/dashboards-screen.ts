// The dashboards (issue 31, part 3): a period and a safety region to choose, kept in the URL's
// query (replaced, not pushed: changing a chart is not a step back), and one card per chart, each
// loading on its own so a slow or failing one does not hold up the others.
import "./dashboards.css";
import "./texts.ts";
import type { Screen } from "../context.ts";
import { h } from "../dom.ts";
import { t } from "../i18n.ts";
import { alertsPerDay, alertsPerDayText } from "./alerts-per-day.ts";
import { alertsPerRegion, alertsPerRegionText } from "./alerts-per-region.ts";
import { chartCard, type Card } from "./chart-card.ts";
import { onSchemeChange } from "./colours.ts";
import { flightsPerHelicopter, flightsText } from "./flights-per-helicopter.ts";
import { fill, formatLongDay } from "./format.ts";
import { hourByWeekday, hourByWeekdayText } from "./hour-by-weekday.ts";
import { addDays, PERIODS, readChoice, windowOf, writeChoice, type Choice } from "./period.ts";
import { loadRegions, type Region } from "./regions.ts";
import { urgencyMix, urgencyMixText } from "./urgency-mix.ts";
import { warningDays, warningDaysText } from "./warning-days.ts";

export const dashboardsScreen: Screen = (root, { api }) => {
  let choice: Choice = readChoice(location.search);
  let regions: Promise<Region[]> | undefined;
  // Fetched once for the screen; a failure is forgotten so a card's retry asks again.
  const regionList = () =>
    (regions ??= loadRegions(api).catch((error: unknown) => {
      regions = undefined;
      throw error;
    }));
  const chosenRegion = async (): Promise<Region | null> =>
    choice.region ? ((await regionList()).find((region) => region.number === choice.region) ?? null) : null;

  const periodSelect = h(
    "select",
    { id: "dash-period", name: "period" },
    ...PERIODS.map((period) =>
      h("option", { value: period, selected: period === choice.period }, t(`dash.period.${period}`)),
    ),
  );
  const regionSelect = h(
    "select",
    { id: "dash-region", name: "region" },
    h("option", { value: "" }, t("dash.region.all")),
  );
  const windowText = h("p", { class: "dash-window" });
  const controls = h(
    "form",
    { class: "dash-controls", "aria-label": t("dash.choice"), onsubmit: (event: Event) => event.preventDefault() },
    h("div", {}, h("label", { for: "dash-period" }, t("dash.period")), periodSelect),
    h("div", {}, h("label", { for: "dash-region" }, t("dash.region")), regionSelect),
  );

  const cards = {
    perDay: chartCard("alerts-per-day"),
    perRegion: chartCard("alerts-per-region"),
    hours: chartCard("hour-by-weekday"),
    urgency: chartCard("urgency-mix"),
    warnings: chartCard("warning-days"),
    flights: chartCard("flights-per-helicopter"),
  } satisfies Record<string, Card>;

  root.append(
    h("h1", {}, t("dash.title")),
    h("p", { class: "dash-intro" }, t("dash.intro")),
    controls,
    windowText,
    h("div", { class: "dash-grid" }, ...Object.values(cards).map((card) => card.element)),
  );

  function loadAll(): void {
    const window = windowOf(choice.period);
    windowText.textContent = fill("dash.window", {
      start: formatLongDay(window.startDate),
      end: formatLongDay(addDays(window.endDate, -1)),
    });
    // The texts name the region, known once the regions are in (if they fail, each card's load
    // fails the same way and offers its retry).
    void chosenRegion()
      .catch(() => null)
      .then((region) => {
        cards.perDay.load(alertsPerDayText(window, region), async () =>
          alertsPerDay(api, window, await chosenRegion()),
        );
        cards.perRegion.load(alertsPerRegionText(), async () => alertsPerRegion(api, window, await chosenRegion()));
        cards.hours.load(hourByWeekdayText(region), async () => hourByWeekday(api, window, await chosenRegion()));
        cards.urgency.load(urgencyMixText(region), async () => urgencyMix(api, window, await chosenRegion()));
      });
    cards.warnings.load(warningDaysText(), () => warningDays(api, window));
    cards.flights.load(flightsText(), () => flightsPerHelicopter(api));
  }

  function choose(next: Choice): void {
    choice = next;
    history.replaceState(null, "", location.pathname + writeChoice(location.search, choice));
    loadAll();
  }

  periodSelect.addEventListener("change", () => choose({ ...choice, period: periodSelect.value as Choice["period"] }));
  regionSelect.addEventListener("change", () => choose({ ...choice, region: regionSelect.value || null }));

  void regionList().then(
    (list) => {
      for (const region of list) {
        regionSelect.append(
          h("option", { value: region.number, selected: region.number === choice.region }, region.name),
        );
      }
    },
    // The cards that need the regions say the error and offer their retry.
    () => {},
  );
  // The URL gets the choice it shows (a default period written out), so the link is shareable as is.
  history.replaceState(null, "", location.pathname + writeChoice(location.search, choice));
  loadAll();

  const stopScheme = onSchemeChange(() => Object.values(cards).forEach((card) => card.redraw()));
  return () => {
    stopScheme();
    Object.values(cards).forEach((card) => card.destroy());
    root.replaceChildren();
  };
};
