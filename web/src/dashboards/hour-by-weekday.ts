// Alerts per hour of the day by weekday, from the message facts (the roll-ups hold days, not hours):
// grouped by Amsterdam day and hour, with the region's number when one is chosen (the facts take no
// region argument), and summed here into the week's 7 × 24 cells.
import type { Api } from "../api/client.ts";
import { graphql } from "../api/graphql.ts";
import { t } from "../i18n.ts";
import type { CardText, ChartView } from "./chart-card.ts";
import { dateKey, fill, weekdayNames, weekdayOf } from "./format.ts";
import { drawHeatGrid } from "./heat-grid.ts";
import type { Window } from "./period.ts";
import type { Region } from "./regions.ts";

const HOURS = graphql(`
  query DashboardHourByWeekday($start: DateTime!, $end: DateTime!, $byRegion: Boolean!) {
    p2000MessageFacts(windowStart: $start, windowEnd: $end) {
      all: groupedAggregates(groupBy: [SENT_DAY, SENT_HOUR_OF_DAY]) @skip(if: $byRegion) {
        keys
        distinctCount {
          uuid
        }
      }
      byRegion: groupedAggregates(groupBy: [SENT_DAY, SENT_HOUR_OF_DAY, REGION_NUMBER]) @include(if: $byRegion) {
        keys
        distinctCount {
          uuid
        }
      }
    }
  }
`);

export function hourByWeekdayText(region: Region | null): CardText {
  return {
    title: t("dash.hours.title"),
    description: fill("dash.hours.description", { region: region?.name ?? t("dash.region.country") }),
  };
}

export async function hourByWeekday(api: Api, window: Window, region: Region | null): Promise<ChartView | null> {
  const data = await api.request(HOURS, { start: window.start, end: window.end, byRegion: region !== null });
  const facts = data.p2000MessageFacts;
  const groups = (region ? facts?.byRegion : facts?.all) ?? [];
  // cells[hour][weekday]
  const cells = Array.from({ length: 24 }, () => new Array<number>(7).fill(0));
  let any = false;
  for (const group of groups) {
    const [day, hour, number] = group.keys ?? [];
    if (region && number !== region.number) continue;
    cells[Number(hour)][weekdayOf(dateKey(day))] += Number(group.distinctCount?.uuid ?? 0);
    any = true;
  }
  if (!any) return null;
  const weekdays = weekdayNames();
  const hourName = (hour: number) => `${String(hour).padStart(2, "0")}:00`;
  return {
    table: {
      head: [t("dash.hour"), ...weekdays],
      rows: cells.map((values, hour) => [hourName(hour), ...values]),
    },
    draw: (box) =>
      // Hours down and weekdays across: seven columns fit a phone, twenty-four would not.
      drawHeatGrid(box, {
        caption: t("dash.hours.title"),
        corner: t("dash.hour"),
        columns: weekdays,
        rows: cells.map((values, hour) => ({ name: hourName(hour), values })),
        colourVariable: "--accent",
      }),
  };
}
