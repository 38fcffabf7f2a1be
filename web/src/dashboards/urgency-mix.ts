// The urgency mix: alerts per urgency code, from the message facts (they group by urgency and
// region at once, which the roll-ups' one dimension at a time cannot).
import type { Api } from "../api/client.ts";
import { graphql } from "../api/graphql.ts";
import { t } from "../i18n.ts";
import { drawBarChart } from "./bar-chart.ts";
import type { CardText, ChartView } from "./chart-card.ts";
import { cssColour } from "./colours.ts";
import { fill } from "./format.ts";
import type { Window } from "./period.ts";
import type { Region } from "./regions.ts";

const URGENCY = graphql(`
  query DashboardUrgencyMix($start: DateTime!, $end: DateTime!) {
    p2000MessageFacts(windowStart: $start, windowEnd: $end) {
      groupedAggregates(groupBy: [URGENCY, REGION_NUMBER]) {
        keys
        distinctCount {
          uuid
        }
      }
    }
  }
`);

export function urgencyMixText(region: Region | null): CardText {
  return {
    title: t("dash.urgency.title"),
    description: fill("dash.urgency.description", { region: region?.name ?? t("dash.region.country") }),
  };
}

export async function urgencyMix(api: Api, window: Window, region: Region | null): Promise<ChartView | null> {
  const data = await api.request(URGENCY, { start: window.start, end: window.end });
  const counts = new Map<string, number>();
  for (const group of data.p2000MessageFacts?.groupedAggregates ?? []) {
    const [urgency, number] = group.keys ?? [];
    if (region && number !== region.number) continue;
    const name = urgency ?? t("dash.unknown");
    counts.set(name, (counts.get(name) ?? 0) + Number(group.distinctCount?.uuid ?? 0));
  }
  if (counts.size === 0) return null;
  // In code order (A0, A1, A2, B1, …, P 1, P 2, …): urgent first within each discipline.
  const rows = [...counts].sort(([a], [b]) => a.localeCompare(b, "nl", { numeric: true }));
  const total = rows.reduce((sum, [, count]) => sum + count, 0);
  return {
    table: {
      head: [t("dash.urgency"), t("dash.alerts"), t("dash.share")],
      rows: rows.map(([name, count]) => [name, count, `${Math.round((count / total) * 100)}%`]),
    },
    draw: (box) =>
      drawBarChart(box, {
        name: t("dash.urgency.title"),
        horizontal: true,
        labels: rows.map(([name]) => name),
        series: [{ label: t("dash.alerts"), values: rows.map(([, count]) => count), colour: cssColour("--accent") }],
      }),
  };
}
