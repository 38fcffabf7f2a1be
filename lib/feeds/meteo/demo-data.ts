// Demo weather for a new installation (DEMO_DATA): three days of warnings issued once a day and a
// fresh issue now with a code orange ahead, plus a day of observations from six stations, all
// written in the upstream formats and stored through the real ingestion path with source "demo".
// Every advice text starts with "Demo:" so nobody mistakes it for a real warning.
import type pg from "pg";
import { analyzeTables } from "../../db/fresh-statistics.ts";
import { ingestMeteoDocument, METEO_STORED_TABLES } from "./ingest.ts";
import { warningsXml, type SampleWarning } from "./sample-documents.ts";

const HOUR = 3_600_000;
const COMMENT =
  "Synthetic demo data in the format of KNMI dataset waarschuwingen_nederland_48h (DEMO_DATA); not a real warning.";

const STATIONS = [
  { stationId: "06260", name: "De Bilt", lat: 52.098, lon: 5.18, ta: 9 },
  { stationId: "06240", name: "Schiphol", lat: 52.318, lon: 4.79, ta: 10 },
  { stationId: "06330", name: "Hoek van Holland", lat: 51.991, lon: 4.122, ta: 11 },
  { stationId: "06280", name: "Groningen/Eelde", lat: 53.125, lon: 6.585, ta: 7 },
  { stationId: "06380", name: "Maastricht", lat: 50.906, lon: 5.762, ta: 8 },
  { stationId: "06310", name: "Vlissingen", lat: 51.442, lon: 3.596, ta: 11 },
];

function warning(
  phenomenon: string,
  locations: string[],
  status: 1 | 2 | 3,
  from: number,
  hours: number,
  text: string,
): SampleWarning {
  return {
    phenomenon,
    locations,
    status,
    from: new Date(from),
    to: new Date(from + (hours - 1) * HOUR),
    text: `Demo: ${text}`,
  };
}

/** The documents to store, oldest first: one issue a day for the last three days, and one now. */
export function demoWarningDocuments(now: Date): string[] {
  const thisHour = Math.floor(now.getTime() / HOUR) * HOUR;
  const day = (daysAgo: number) => Math.floor((now.getTime() - daysAgo * 24 * HOUR) / (24 * HOUR)) * 24 * HOUR;
  const issues: Array<{ issuedAt: number; warnings: SampleWarning[] }> = [
    {
      issuedAt: day(3) + 6 * HOUR,
      warnings: [
        warning(
          "rain",
          ["ZH", "ZE"],
          1,
          day(3) + 12 * HOUR,
          6,
          "Veel regen in korte tijd, tot 40 mm. Kans op wateroverlast.",
        ),
      ],
    },
    {
      issuedAt: day(2) + 6 * HOUR,
      warnings: [
        warning(
          "iciness",
          ["GR", "FR", "DR"],
          1,
          day(2) + 20 * HOUR,
          9,
          "Gladheid door bevriezing van natte weggedeelten.",
        ),
      ],
    },
    {
      issuedAt: day(1) + 6 * HOUR,
      warnings: [
        warning("thunderstorm", ["NB", "LB"], 1, day(1) + 14 * HOUR, 5, "Onweersbuien met hagel en zware windstoten."),
      ],
    },
    {
      issuedAt: thisHour,
      warnings: [
        warning(
          "wind",
          ["NH", "FL", "UT"],
          1,
          thisHour + 1 * HOUR,
          3,
          "Zware windstoten tot 75 km/u uit het zuidwesten.",
        ),
        warning(
          "wind",
          ["NH"],
          2,
          thisHour + 4 * HOUR,
          6,
          "Zeer zware windstoten tot 100 km/u. Kans op omvallende bomen.",
        ),
        warning("wind", ["FL", "UT"], 1, thisHour + 4 * HOUR, 6, "Zware windstoten tot 80 km/u."),
      ],
    },
  ];
  return issues.map(({ issuedAt, warnings }) => warningsXml(new Date(issuedAt), warnings, COMMENT));
}

/** A day of 10-minute observations of six stations, up to the last whole 10 minutes. */
export function demoObservationsDocument(now: Date): string {
  const last = Math.floor(now.getTime() / 600_000) * 600_000;
  const rows = [];
  for (let step = 143; step >= 0; step--) {
    const time = last - step * 600_000;
    const hourOfDay = new Date(time).getUTCHours() + new Date(time).getUTCMinutes() / 60;
    const daily = Math.sin(((hourOfDay - 9) / 24) * 2 * Math.PI);
    for (const [index, s] of STATIONS.entries()) {
      const wind = 5 + index + 3 * Math.max(0, Math.sin(step / 30));
      rows.push({
        stationId: s.stationId,
        name: s.name,
        lat: s.lat,
        lon: s.lon,
        observedAt: new Date(time).toISOString(),
        ta: Number((s.ta + 3 * daily).toFixed(1)),
        td: Number((s.ta - 2 + daily).toFixed(1)),
        rh: Math.round(85 - 8 * daily),
        pp: Number((1008 - step * 0.02 - index * 0.5).toFixed(1)),
        dd: 220 + index * 5,
        ff: Number(wind.toFixed(1)),
        gff: Number((wind * 1.7).toFixed(1)),
        vv: 20000 - index * 1500,
        R1H: 0,
        n: 6,
        ww: null,
      });
    }
  }
  return JSON.stringify(rows);
}

/** Stores the demo documents; returns how many documents were new. */
export async function loadMeteoDemo(db: pg.Pool | pg.ClientBase, now = new Date()): Promise<number> {
  let stored = 0;
  for (const text of [...demoWarningDocuments(now), demoObservationsDocument(now)]) {
    if (!(await ingestMeteoDocument(db, text, "demo")).duplicate) stored++;
  }
  await analyzeTables(db, METEO_STORED_TABLES);
  return stored;
}
