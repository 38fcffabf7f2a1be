// Flights per helicopter from aircraftStatistics, the statistics operation of the fleet: every
// tracked trauma and police helicopter with its flights and flight hours over its own fixed window
// (the last 365 days), which is why this chart does not follow the chosen period.
import type { Api } from "../api/client.ts";
import { graphql } from "../api/graphql.ts";
import { t } from "../i18n.ts";
import { drawBarChart } from "./bar-chart.ts";
import type { CardText, ChartView } from "./chart-card.ts";
import { cssColour } from "./colours.ts";
import { fill } from "./format.ts";

const FLIGHTS = graphql(`
  query DashboardFlights {
    aircraftStatistics {
      registration
      kind
      flights
      flightHours
      windowDays
    }
  }
`);

export function flightsText(days = 365): CardText {
  return { title: t("dash.flights.title"), description: fill("dash.flights.description", { days }) };
}

export async function flightsPerHelicopter(api: Api): Promise<ChartView | null> {
  const data = await api.request(FLIGHTS, {});
  const flown = data.aircraftStatistics
    .filter((aircraft) => aircraft.flights > 0)
    .sort((a, b) => b.flights - a.flights || a.registration.localeCompare(b.registration));
  if (flown.length === 0) return null;
  const kind = (value: string) => (value === "trauma" || value === "police" ? t(`dash.kind.${value}`) : value);
  return {
    table: {
      head: [t("dash.aircraft"), t("dash.kind"), t("dash.flights"), t("dash.hours")],
      rows: flown.map((a) => [a.registration, kind(a.kind), a.flights, a.flightHours]),
    },
    draw: (box) =>
      // Trauma and police as two stacked series: each bar is one of them, and the legend says which colour is which.
      drawBarChart(box, {
        name: t("dash.flights.title"),
        horizontal: true,
        stacked: true,
        labels: flown.map((a) => a.registration),
        series: (["trauma", "police"] as const).map((which) => ({
          label: t(`dash.kind.${which}`),
          values: flown.map((a) => (a.kind === which ? a.flights : 0)),
          colour: cssColour(which === "trauma" ? "--danger" : "--accent"),
        })),
      }),
  };
}
