// Alerts per day (per week for a year) for the country or one safety region, from the daily
// roll-ups (p2000DayCountFacts): the counts p2000MessagesCount gives for whole days, in
// milliseconds. A region is one dimension's key; the roll-ups take no region argument, so its days
// are picked from the groups by region (a few thousand at most: 90 days, or a year by week).
import type { Api } from "../api/client.ts";
import { graphql } from "../api/graphql.ts";
import { cssColour } from "./colours.ts";
import { drawBarChart } from "./bar-chart.ts";
import type { CardText, ChartView } from "./chart-card.ts";
import { addDays, type Window } from "./period.ts";
import { dateKey, fill, formatDay, formatLongDay } from "./format.ts";
import { t } from "../i18n.ts";
import type { Region } from "./regions.ts";

const PER_DAY = graphql(`
  query DashboardAlertsPerDay($start: Date!, $end: Date!, $dimension: String!, $byWeek: Boolean!) {
    p2000DayCountFacts(dimension: $dimension, windowStart: $start, windowEnd: $end) {
      days: groupedAggregates(groupBy: [DAY, KEY]) @skip(if: $byWeek) {
        keys
        sum {
          messages
        }
      }
      weeks: groupedAggregates(groupBy: [WEEK, KEY]) @include(if: $byWeek) {
        keys
        sum {
          messages
        }
      }
    }
  }
`);

export function alertsPerDayText(window: Window, region: Region | null): CardText {
  return {
    title: t(window.byWeek ? "dash.perWeek.title" : "dash.perDay.title"),
    description: fill(window.byWeek ? "dash.perWeek.description" : "dash.perDay.description", {
      region: region?.name ?? t("dash.region.country"),
    }),
  };
}

export async function alertsPerDay(api: Api, window: Window, region: Region | null): Promise<ChartView | null> {
  const data = await api.request(PER_DAY, {
    start: window.startDate,
    end: window.endDate,
    // The country's count is the `total` dimension: a message with no region known counts there only.
    dimension: region ? "region" : "total",
    byWeek: window.byWeek,
  });
  const groups = (window.byWeek ? data.p2000DayCountFacts?.weeks : data.p2000DayCountFacts?.days) ?? [];
  const counts = new Map<string, number>();
  for (const group of groups) {
    if (region && group.keys?.[1] !== region.uuid) continue;
    const day = dateKey(group.keys?.[0]);
    counts.set(day, (counts.get(day) ?? 0) + Number(group.sum?.messages ?? 0));
  }
  if (counts.size === 0) return null;
  // Every day (week) of the window, zero ones included, so the axis is time and not just the busy days.
  const days: string[] = [];
  for (let day = firstBucket(window); day < window.endDate; day = addDays(day, window.byWeek ? 7 : 1)) days.push(day);
  const values = days.map((day) => counts.get(day) ?? 0);
  return {
    table: {
      head: [t(window.byWeek ? "dash.week" : "dash.day"), t("dash.alerts")],
      rows: days.map((day, i) => [formatLongDay(day), values[i]]),
    },
    draw: (box) =>
      drawBarChart(box, {
        name: alertsPerDayText(window, region).title,
        labels: days.map(formatDay),
        series: [{ label: t("dash.alerts"), values, colour: cssColour("--accent") }],
      }),
  };
}

/** The window's first day, or the Monday of its first week. */
function firstBucket(window: Window): string {
  if (!window.byWeek) return window.startDate;
  const weekday = (new Date(`${window.startDate}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(window.startDate, -weekday);
}
