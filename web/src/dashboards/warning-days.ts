// Weather warning days per province per month, from the daily warning levels the KNMI feed keeps
// (meteoWarningDayFacts by province: the days meteoStatsMonthly counts, one grouping for all twelve
// provinces instead of a call per province). Counted over whole months: the period's first month
// from its first day, so a week's choice still shows its month.
import type { Api } from "../api/client.ts";
import { graphql } from "../api/graphql.ts";
import { t } from "../i18n.ts";
import type { CardText, ChartView } from "./chart-card.ts";
import { dateKey, formatMonth } from "./format.ts";
import { drawHeatGrid } from "./heat-grid.ts";
import { monthStart, type Window } from "./period.ts";

const WARNING_DAYS = graphql(`
  query DashboardWarningDays($start: Date!, $end: Date!) {
    meteoWarningDayFacts(windowStart: $start, windowEnd: $end, byProvince: true) {
      groupedAggregates(groupBy: [PROVINCE, MONTH, LEVEL]) {
        keys
        distinctCount {
          day
        }
      }
    }
  }
`);

const LEVELS = ["yellow", "orange", "red"] as const;

export function warningDaysText(): CardText {
  return { title: t("dash.warnings.title"), description: t("dash.warnings.description") };
}

export async function warningDays(api: Api, window: Window): Promise<ChartView | null> {
  const data = await api.request(WARNING_DAYS, { start: monthStart(window.startDate), end: window.endDate });
  // province → month → level → days
  const counts = new Map<string, Map<string, Record<string, number>>>();
  const months = new Set<string>();
  for (const group of data.meteoWarningDayFacts?.groupedAggregates ?? []) {
    const [province, month, level] = group.keys ?? [];
    if (!province || !month || !level) continue;
    const byMonth = counts.get(province) ?? new Map<string, Record<string, number>>();
    counts.set(province, byMonth);
    const levels = byMonth.get(dateKey(month)) ?? {};
    byMonth.set(dateKey(month), levels);
    levels[level] = (levels[level] ?? 0) + Number(group.distinctCount?.day ?? 0);
    months.add(dateKey(month));
  }
  if (counts.size === 0) return null;
  const monthList = [...months].sort();
  const provinces = [...counts.keys()].sort((a, b) => a.localeCompare(b, "nl"));
  const daysOf = (levels: Record<string, number> | undefined) =>
    LEVELS.reduce((sum, level) => sum + (levels?.[level] ?? 0), 0);
  return {
    table: {
      head: [
        t("dash.province"),
        t("dash.month"),
        ...LEVELS.map((level) => t(`dash.level.${level}`)),
        t("dash.warningDays"),
      ],
      rows: provinces.flatMap((province) =>
        monthList
          .filter((month) => counts.get(province)?.has(month))
          .map((month) => {
            const levels = counts.get(province)!.get(month)!;
            return [province, formatMonth(month), ...LEVELS.map((level) => levels[level] ?? 0), daysOf(levels)];
          }),
      ),
    },
    draw: (box) =>
      drawHeatGrid(box, {
        caption: t("dash.warnings.title"),
        corner: t("dash.province"),
        columns: monthList.map(formatMonth),
        rows: provinces.map((province) => ({
          name: province,
          values: monthList.map((month) => daysOf(counts.get(province)?.get(month))),
        })),
        colourVariable: "--warn",
      }),
  };
}
