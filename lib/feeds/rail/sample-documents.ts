// A rail disruptions document in the shape of NS's GET /reisinformatie-api/api/v3/disruptions
// (docs/rail-disruptions-format.md), with times relative to a given moment: the tests' fixtures and
// the demo data go through the real parser with it. Texts are Dutch, as upstream; times carry the
// Amsterdam offset without a colon ("2024-01-10T08:00:00+0100"), as upstream writes them.

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** Stations as the API describes them in publication sections (codes, UIC codes and places are real). */
const STATIONS = {
  ASD: { uicCode: "8400058", name: "Amsterdam Centraal", lat: 52.3788871765, lng: 4.9002776146 },
  ASA: { uicCode: "8400057", name: "Amsterdam Amstel", lat: 52.3466682434, lng: 4.9177780151 },
  ASB: { uicCode: "8400074", name: "Amsterdam Bijlmer ArenA", lat: 52.3122215271, lng: 4.9469442368 },
  UT: { uicCode: "8400621", name: "Utrecht Centraal", lat: 52.0888900757, lng: 5.1102776527 },
  ASN: { uicCode: "8400073", name: "Assen", lat: 52.9916648865, lng: 6.5708332062 },
  HRN: { uicCode: "8400297", name: "Haren", lat: 53.176109314, lng: 6.6172223091 },
  GERP: { uicCode: "8400238", name: "Groningen Europapark", lat: 53.20480027, lng: 6.5854178 },
  GN: { uicCode: "8400263", name: "Groningen", lat: 53.2105560303, lng: 6.5647220612 },
};

type StationCode = keyof typeof STATIONS;

const amsterdamTime = new Intl.DateTimeFormat("en-CA", {
  timeZone: "Europe/Amsterdam",
  hourCycle: "h23",
  timeZoneName: "longOffset",
  year: "numeric",
  month: "2-digit",
  day: "2-digit",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
});

const dutchMoment = new Intl.DateTimeFormat("nl-NL", {
  timeZone: "Europe/Amsterdam",
  weekday: "long",
  day: "numeric",
  month: "long",
  hour: "2-digit",
  minute: "2-digit",
});

/** "2024-01-10T08:00:00+0100": local Amsterdam time with its offset, as NS writes times. */
function nsTime(date: Date): string {
  const part = Object.fromEntries(amsterdamTime.formatToParts(date).map(({ type, value }) => [type, value]));
  // The zone name reads "GMT+01:00" (or plain "GMT" at offset zero, which Amsterdam never has).
  const offset = part.timeZoneName.replace("GMT", "").replace(":", "") || "+0000";
  return `${part.year}-${part.month}-${part.day}T${part.hour}:${part.minute}:${part.second}${offset}`;
}

const wholeMinute = (time: number) => new Date(Math.floor(time / MINUTE) * MINUTE);

function section(codes: StationCode[], direction: "BOTH" | "ONE_WAY") {
  return {
    stations: codes.map((code) => {
      const { uicCode, name, lat, lng } = STATIONS[code];
      return { uicCode, stationCode: code, name, coordinate: { lat, lng }, countryCode: "NL" };
    }),
    direction,
  };
}

/** An unplanned disruption between Amsterdam and Utrecht, under way at `now`. */
function activeDisruption(now: Date) {
  const start = wholeMinute(now.getTime() - 35 * MINUTE);
  const expectedEnd = new Date(Math.ceil((now.getTime() + 2 * HOUR) / (15 * MINUTE)) * 15 * MINUTE);
  const travelTime = {
    label: "De extra reistijd is 15 tot 30 minuten.",
    shortLabel: "15-30 min. extra reistijd",
    minimumDurationInMinutes: 15,
    maximumDurationInMinutes: 30,
  };
  return {
    id: "7012345",
    type: "DISRUPTION",
    registrationTime: nsTime(new Date(start.getTime() + 4 * MINUTE)),
    releaseTime: nsTime(new Date(start.getTime() + 4 * MINUTE)),
    local: false,
    title: "Amsterdam-Utrecht",
    topic: "disruption_7012345_nl",
    isActive: true,
    start: nsTime(start),
    end: nsTime(new Date(expectedEnd.getTime() + HOUR)),
    phase: { id: "2", label: "Impact bekend" },
    impact: { value: 3 },
    expectedDuration: {
      description: `Dit duurt tot ongeveer ${nsTime(expectedEnd).slice(11, 16)} uur.`,
      endTime: nsTime(expectedEnd),
    },
    summaryAdditionalTravelTime: travelTime,
    publicationSections: [
      {
        section: section(["ASD", "ASA", "ASB", "UT"], "BOTH"),
        consequence: {
          section: section(["ASB", "UT"], "BOTH"),
          description: "minder treinen",
          level: "LESS_TRAINS",
        },
      },
    ],
    timespans: [
      {
        start: nsTime(start),
        end: nsTime(expectedEnd),
        situation: {
          label: "Tussen Amsterdam Bijlmer ArenA en Utrecht Centraal rijden minder treinen door een seinstoring.",
        },
        cause: { label: "seinstoring" },
        additionalTravelTime: travelTime,
        alternativeTransport: { label: "Er is geen ander vervoer geregeld.", shortLabel: "Geen ander vervoer" },
        advices: ["Plan uw reis in de NS-app of op ns.nl."],
      },
    ],
  };
}

/** Planned work between Assen and Groningen over two nights, starting three days after `now`. */
function futureMaintenance(now: Date) {
  const start = new Date(Math.floor(now.getTime() / HOUR) * HOUR + 72 * HOUR);
  const end = new Date(start.getTime() + 48 * HOUR);
  const period = (from: Date, to: Date) => `${dutchMoment.format(from)} t/m ${dutchMoment.format(to)}`;
  const timespan = (from: Date, to: Date, label: string) => ({
    start: nsTime(from),
    end: nsTime(to),
    period: period(from, to),
    situation: { label },
    cause: { label: "werkzaamheden" },
    additionalTravelTime: {
      label: "Reken op 30 minuten extra reistijd.",
      shortLabel: "30 min. extra reistijd",
      minimumDurationInMinutes: 30,
      maximumDurationInMinutes: 30,
    },
    alternativeTransport: {
      label: "Tussen Assen en Groningen rijden bussen in plaats van treinen.",
      shortLabel: "Bussen",
    },
    advices: ["Houd rekening met extra reistijd."],
  });
  const middle = new Date(start.getTime() + 24 * HOUR);
  return {
    id: "7009876",
    type: "MAINTENANCE",
    registrationTime: nsTime(new Date(now.getTime() - 14 * 24 * HOUR)),
    releaseTime: nsTime(new Date(now.getTime() - 14 * 24 * HOUR)),
    local: false,
    title: "Assen-Groningen",
    topic: "maintenance_7009876_nl",
    isActive: false,
    start: nsTime(start),
    end: nsTime(end),
    period: period(start, end),
    impact: { value: 2 },
    summaryAdditionalTravelTime: {
      label: "Reken op 30 minuten extra reistijd.",
      shortLabel: "30 min. extra reistijd",
      minimumDurationInMinutes: 30,
      maximumDurationInMinutes: 30,
    },
    publicationSections: [
      {
        section: section(["ASN", "HRN", "GERP", "GN"], "BOTH"),
        consequence: {
          section: section(["ASN", "GN"], "BOTH"),
          description: "geen treinen",
          level: "NO_OR_MUCH_LESS_TRAINS",
        },
      },
    ],
    timespans: [
      timespan(start, middle, "Tussen Assen en Groningen rijden geen treinen door werkzaamheden aan het spoor."),
      timespan(
        middle,
        end,
        "Tussen Assen en Groningen rijden geen treinen door werkzaamheden aan het spoor en aan de bovenleiding.",
      ),
    ],
  };
}

/** A nationwide calamity notice: no times, no stations, a text of its own. */
function calamity(now: Date) {
  return {
    id: "5d0c1f9e-3a7b-4c2e-9f1d-8b6a2e4c7d10",
    type: "CALAMITY",
    title: "Minder treinen in heel Nederland",
    topic: "calamity_nl",
    isActive: true,
    description:
      "Door een storing in de systemen van de verkeersleiding rijden er in heel Nederland minder treinen. Plan uw reis vlak voor vertrek.",
    priority: "PRIO_1",
    lastUpdated: nsTime(wholeMinute(now.getTime() - 10 * MINUTE)),
    expectedNextUpdate: nsTime(wholeMinute(now.getTime() + 20 * MINUTE)),
    bodyItems: [
      {
        type: "TEXT",
        title: "Wat betekent dit voor mijn reis?",
        content: { text: "Treinen kunnen later vertrekken of uitvallen. Uw kaartje blijft geldig." },
      },
    ],
    buttons: {
      position: ["BOTTOM"],
      items: [{ type: "PLANNER", label: "Plan uw reis", accessibilityLabel: "Plan uw reis in de reisplanner" }],
    },
  };
}

/** The disruptions list at `now`: one active disruption (ASD – UT), one future maintenance (ASN – GN), one calamity. */
export function railDisruptionsSample(now: Date): string {
  return JSON.stringify([calamity(now), activeDisruption(now), futureMaintenance(now)], null, 2);
}

/** A download cut off after a few bytes: the parser must refuse it as a whole. */
export const brokenRailDisruptionsDocument = '[{"id": ';
