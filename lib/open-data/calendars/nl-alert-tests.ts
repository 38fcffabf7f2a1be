// The government's test NL-Alert (the "controlebericht") as calendar items. No feed announces it,
// so the dates follow the rule the government states: "De overheid verzendt het NL-Alert
// controlebericht normaal gesproken op de eerste maandag in juni en december rond 12:00 uur"
// (Rijksoverheid's announcement of 7 June 2020, as 112groningen.nl quoted it), moved a week when
// that Monday is Whit Monday (Tweede Pinksterdag): 8 June 2020 and 13 June 2022 were such moves.
// Checked against the tests sent since: 3 June and 2 December 2019, 2 December 2024, 1 December
// 2025, all first Mondays at 12:00. The government can change the rule and announces each test a
// few weeks ahead on nl-alert.nl, so the items are TENTATIVE and say so.
import type { CalendarWindow, NlAlertTestItem } from "./items.ts";

const DAY = 86_400_000;
const MONDAY = 1;

/** When this rule was last checked against a test sent (1 December 2025): the items' LAST-MODIFIED. */
const RULE_CHECKED = "2025-12-01T11:00:00.000Z";

/** Easter Sunday of a Gregorian year (the anonymous Gregorian algorithm, Meeus/Jones/Butcher), UTC midnight. */
function easter(year: number): number {
  const a = year % 19;
  const b = Math.floor(year / 100);
  const c = year % 100;
  const d = Math.floor(b / 4);
  const e = b % 4;
  const f = Math.floor((b + 8) / 25);
  const g = Math.floor((b - f + 1) / 3);
  const h = (19 * a + b - d - g + 15) % 30;
  const i = Math.floor(c / 4);
  const k = c % 4;
  const l = (32 + 2 * e + 2 * i - h - k) % 7;
  const m = Math.floor((a + 11 * h + 22 * l) / 451);
  const month = Math.floor((h + l - 7 * m + 114) / 31);
  const day = ((h + l - 7 * m + 114) % 31) + 1;
  return Date.UTC(year, month - 1, day);
}

/** The day of the test in a year's June (month 5) or December (month 11), UTC midnight. */
export function nlAlertTestDay(year: number, month: 5 | 11): Date {
  const first = Date.UTC(year, month, 1);
  let day = first + ((MONDAY - new Date(first).getUTCDay() + 7) % 7) * DAY;
  if (day === easter(year) + 50 * DAY) day += 7 * DAY;
  return new Date(day);
}

/** The tests whose time falls in the window: 12:00 Amsterdam time, CEST in June and CET in December. */
export function nlAlertTests(window: CalendarWindow): NlAlertTestItem[] {
  const items: NlAlertTestItem[] = [];
  for (let year = window.from.getUTCFullYear(); year <= window.to.getUTCFullYear(); year++) {
    for (const [month, utcHour] of [
      [5, 10],
      [11, 11],
    ] as const) {
      const day = nlAlertTestDay(year, month);
      const start = new Date(day.getTime() + utcHour * 3_600_000);
      if (start < window.from || start >= window.to) continue;
      items.push({
        kind: "nl_alert_test",
        id: `nl-alert-test:${day.toISOString().slice(0, 10)}`,
        startsAt: start.toISOString(),
        endsAt: new Date(start.getTime() + 15 * 60_000).toISOString(),
        lastModified: RULE_CHECKED,
        sequence: 0,
      });
    }
  }
  return items;
}
