// Alerts per safety region over the period, from the daily roll-ups by region: every region, most
// first (the API orders them; equal counts by name), so the chosen one is seen among the others
// (highlighted) rather than alone.
import type { Api } from "../api/client.ts";
import { graphql } from "../api/graphql.ts";
import { t } from "../i18n.ts";
import { drawBarChart } from "./bar-chart.ts";
import type { CardText, ChartView } from "./chart-card.ts";
import { cssColour } from "./colours.ts";
import type { Window } from "./period.ts";
import type { Region } from "./regions.ts";

const PER_REGION = graphql(`
  query DashboardAlertsPerRegion($start: Date!, $end: Date!) {
    p2000DayCountFacts(dimension: "region", windowStart: $start, windowEnd: $end) {
      groupedAggregates(groupBy: [NAME, KEY], orderBy: [SUM_MESSAGES_DESC]) {
        keys
        sum {
          messages
        }
      }
    }
  }
`);

export function alertsPerRegionText(): CardText {
  return { title: t("dash.perRegion.title"), description: t("dash.perRegion.description") };
}

export async function alertsPerRegion(api: Api, window: Window, region: Region | null): Promise<ChartView | null> {
  const data = await api.request(PER_REGION, { start: window.startDate, end: window.endDate });
  const rows = (data.p2000DayCountFacts?.groupedAggregates ?? []).map((group) => ({
    name: group.keys?.[0] ?? t("dash.unknown"),
    key: group.keys?.[1] ?? null,
    count: Number(group.sum?.messages ?? 0),
  }));
  if (rows.length === 0) return null;
  return {
    table: { head: [t("dash.region"), t("dash.alerts")], rows: rows.map((row) => [row.name, row.count]) },
    draw: (box) => {
      const accent = cssColour("--accent");
      const others = cssColour("--muted");
      return drawBarChart(box, {
        name: t("dash.perRegion.title"),
        horizontal: true,
        labels: rows.map((row) => row.name),
        series: [
          {
            label: t("dash.alerts"),
            values: rows.map((row) => row.count),
            // With a region chosen, it stands out in the accent colour and the rest step back.
            colour: rows.map((row) => (!region || row.key === region.uuid ? accent : others)),
          },
        ],
      });
    },
  };
}
