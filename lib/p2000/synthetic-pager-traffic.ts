// A generator of realistic P2000 traffic as multimon-ng FLEX lines, for the demo data of a new
// installation and for the benchmark. It is synthetic (marked as such wherever it is stored):
// real message formats (shared/research/p2000-samples.md), real places, capcode blocks and call
// number schemes, and the network's rhythm - busy days, quiet nights, ambulances most, fire
// brigade next, retransmissions with the same bon number, weekly test alarms.

interface Area {
  region: string;
  places: string[];
  /** 4-digit capcode blocks of the region's ambulance and fire brigade (capcode-4digit-blocks.json). */
  ambulanceBlock: string;
  fireBlock: string;
  /** Fire brigade talkgroup (gespreksgroep) prefix where the research notes name one. */
  talkgroup: string | null;
  weight: number;
}

const AREAS: Area[] = [
  {
    region: "13",
    places: ["Amsterdam", "Amstelveen", "Diemen"],
    ambulanceBlock: "0120",
    fireBlock: "0100",
    talkgroup: null,
    weight: 9,
  },
  {
    region: "17",
    places: ["Rotterdam", "Schiedam", "Vlaardingen", "Spijkenisse"],
    ambulanceBlock: "1420",
    fireBlock: "1400",
    talkgroup: "BRT",
    weight: 10,
  },
  {
    region: "15",
    places: ["Den Haag", "Delft", "Zoetermeer", "Rijswijk"],
    ambulanceBlock: "1520",
    fireBlock: "1500",
    talkgroup: "BDH",
    weight: 8,
  },
  {
    region: "09",
    places: ["Utrecht", "Amersfoort", "Nieuwegein", "Zeist"],
    ambulanceBlock: "0726",
    fireBlock: "0706",
    talkgroup: null,
    weight: 8,
  },
  {
    region: "20",
    places: ["Breda", "Tilburg", "Roosendaal", "Bergen op Zoom"],
    ambulanceBlock: "1220",
    fireBlock: "1200",
    talkgroup: null,
    weight: 7,
  },
  {
    region: "22",
    places: ["Eindhoven", "Helmond", "Veldhoven"],
    ambulanceBlock: "1123",
    fireBlock: "1103",
    talkgroup: "BOB",
    weight: 5,
  },
  {
    region: "08",
    places: ["Nijmegen", "Tiel", "Wijchen"],
    ambulanceBlock: "0923",
    fireBlock: "0903",
    talkgroup: null,
    weight: 4,
  },
  {
    region: "07",
    places: ["Arnhem", "Ede", "Wageningen"],
    ambulanceBlock: "0920",
    fireBlock: "0900",
    talkgroup: null,
    weight: 5,
  },
  {
    region: "01",
    places: ["Groningen", "Hoogezand", "Delfzijl"],
    ambulanceBlock: "0420",
    fireBlock: "0400",
    talkgroup: "BNN",
    weight: 4,
  },
  {
    region: "19",
    places: ["Middelburg", "Vlissingen", "Goes", "Kapelle"],
    ambulanceBlock: "1320",
    fireBlock: "1300",
    talkgroup: null,
    weight: 3,
  },
  {
    region: "24",
    places: ["Maastricht", "Heerlen", "Sittard"],
    ambulanceBlock: "1023",
    fireBlock: "1003",
    talkgroup: "BLB",
    weight: 4,
  },
  {
    region: "25",
    places: ["Almere", "Lelystad", "Zeewolde"],
    ambulanceBlock: "0720",
    fireBlock: "0700",
    talkgroup: null,
    weight: 3,
  },
];

/** The street names the generated messages use. */
export const STREETS = [
  "Kerkstraat",
  "Dorpsstraat",
  "Stationsweg",
  "Molenweg",
  "Schoolstraat",
  "Hoofdstraat",
  "Julianastraat",
  "Wilhelminastraat",
  "Nieuwstraat",
  "Marktplein",
  "Beatrixlaan",
  "Parallelweg",
  "Industrieweg",
  "Emmastraat",
  "Kastanjelaan",
];
const FIRE_CALLS: Array<[text: string, priority: 1 | 2 | 3, typeDigit: string]> = [
  ["BR woning", 1, "3"],
  ["BR container", 2, "3"],
  ["Buitenbrand", 2, "3"],
  ["OMS automatische brandmelding", 1, "3"],
  ["Ongeval wegvervoer letsel", 1, "7"],
  ["Hulpverlening dier", 2, "7"],
  ["Liftopsluiting", 2, "7"],
  ["Stormschade", 2, "7"],
  ["Gaslekkage binnen", 1, "3"],
  ["Nacontrole", 3, "3"],
  ["Dienstverlening", 3, "8"],
];
const ROADS = [
  ["A12", 45.6],
  ["A2", 223.5],
  ["A13", 12.3],
  ["A4", 31.2],
  ["A15", 60.1],
  ["N59", 42.3],
] as const;
// Relative traffic per hour of the day (Europe/Amsterdam), quiet nights, busy afternoons.
const HOUR_WEIGHTS = [3, 2, 2, 1.5, 1.5, 2, 3, 5, 6, 6.5, 7, 7, 7, 7, 7, 7.5, 8, 8, 7.5, 7, 6, 5.5, 5, 4];
const DUTCH_HOUR = new Intl.DateTimeFormat("en-GB", {
  hour: "numeric",
  hourCycle: "h23",
  timeZone: "Europe/Amsterdam",
});

/** mulberry32: a small seeded generator, so a run is reproducible. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface TrafficOptions {
  from: Date;
  to: Date;
  /** Messages per day on average (the national network carries a few thousand). */
  perDay?: number;
  seed?: number;
}

/** A multimon-ng FLEX line (an alphanumeric page of one frame) as a receiver prints it. */
export function flexLine(at: Date, capcodes: string[], text: string, frame: number): string {
  const stamp = at.toISOString().slice(0, 19).replace("T", " ");
  return (
    `FLEX|${stamp}|1600/2/K/A|${String(frame % 15).padStart(2, "0")}.${String(frame % 128).padStart(3, "0")}|` +
    `${capcodes.map((c) => c.padStart(9, "0")).join(" ")}|ALN|${text}`
  );
}

/** FLEX lines in time order between from and to. */
export function* generatePagerTraffic(options: TrafficOptions): Generator<string> {
  const next = random(options.seed ?? 20261121);
  const pick = <T>(items: readonly T[]) => items[Math.floor(next() * items.length)];
  const totalWeight = AREAS.reduce((sum, area) => sum + area.weight, 0);
  const pickArea = () => {
    let r = next() * totalWeight;
    for (const area of AREAS) if ((r -= area.weight) < 0) return area;
    return AREAS[0];
  };
  const perHourAverage = (options.perDay ?? 2700) / 24;
  const meanWeight = HOUR_WEIGHTS.reduce((a, b) => a + b) / 24;
  let frame = 0;
  let bon = 100000 + Math.floor(next() * 800000);
  const followUps: Array<{ at: number; line: string }> = [];

  for (let hour = Math.floor(options.from.getTime() / 3_600_000); hour * 3_600_000 < options.to.getTime(); hour++) {
    const start = hour * 3_600_000;
    const localHour = Number(DUTCH_HOUR.format(new Date(start)));
    const count = Math.round(((perHourAverage * HOUR_WEIGHTS[localHour]) / meanWeight) * (0.8 + next() * 0.4));
    const lines: Array<{ at: number; line: string }> = [];
    for (let i = 0; i < count; i++) {
      const at = start + Math.floor(next() * 3_600) * 1000; // whole seconds, as receivers print them
      const area = pickArea();
      const place = pick(area.places);
      const street = pick(STREETS);
      const kind = next();
      if (kind < 0.56) {
        const urgency = pick(["A1", "A1", "A1", "A2", "A2", "A2", "B1", "B2", "B2", "A0"]);
        const unit = `${area.region}${String(100 + Math.floor(next() * 60)).padStart(3, "0")}`;
        const text = `${urgency} AMBU ${unit} ${street} ${place} bon ${++bon}`;
        const capcodes = ["2029568", `${area.ambulanceBlock}${String(Math.floor(next() * 999)).padStart(3, "0")}`];
        lines.push({ at, line: flexLine(new Date(at), capcodes, text, frame++) });
        if (next() < 0.3) {
          // A retransmission or an update of the same trip a few minutes later (same bon).
          const later = at + 60_000 + Math.floor(next() * 240) * 1000;
          const upgraded = urgency === "A2" && next() < 0.3 ? text.replace(/^A2/, "A1") : text;
          followUps.push({ at: later, line: flexLine(new Date(later), capcodes, upgraded, frame++) });
        }
      } else if (kind < 0.93) {
        const [call, priority, typeDigit] = pick(FIRE_CALLS);
        const post = String(1 + Math.floor(next() * 40)).padStart(2, "0");
        const units = Array.from(
          { length: 1 + Math.floor(next() * 3) },
          (_, n) => `${area.region}${post}${typeDigit}${n + 1}`,
        );
        const road = call.startsWith("Ongeval") && next() < 0.4 ? pick(ROADS) : null;
        const where = road
          ? `${road[0]} ${pick(["Li", "Re"])} ${String(road[1]).replace(".", ",")} ${place}`
          : `${street} ${place}`;
        const grip = next() < 0.002 ? `GRIP ${1 + Math.floor(next() * 2)} ` : "";
        const talkgroup = area.talkgroup ? `${area.talkgroup}-0${1 + Math.floor(next() * 3)} ` : "";
        const text = `P ${priority} ${talkgroup}${grip}${call} ${where} ${units.join(" ")}`;
        lines.push({
          at,
          line: flexLine(
            new Date(at),
            ["2029569", `${area.fireBlock}${String(Math.floor(next() * 999)).padStart(3, "0")}`],
            text,
            frame++,
          ),
        });
      } else if (kind < 0.99) {
        lines.push({
          at,
          line: flexLine(
            new Date(at),
            [`${area.ambulanceBlock.slice(0, 2)}30${String(Math.floor(next() * 99)).padStart(3, "0")}`],
            `1 Ongeval wegvervoer letsel ${street} ${place} icnum ${++bon}`,
            frame++,
          ),
        });
      } else {
        lines.push({
          at,
          line: flexLine(new Date(at), ["1735001"], `PRIO 1: KNRM ${place} Persoon te water`, frame++),
        });
      }
    }
    // Weekly test alarms: Mondays 18:00 local, one per region.
    if (localHour === 18 && new Date(start).getUTCDay() === 1) {
      for (const area of AREAS)
        lines.push({
          at: start + 60_000,
          line: flexLine(new Date(start + 60_000), [`${area.fireBlock}000`], "Proefalarm", frame++),
        });
    }
    for (let f = followUps.length - 1; f >= 0; f--) {
      if (followUps[f].at < start + 3_600_000) lines.push(...followUps.splice(f, 1));
    }
    lines.sort((a, b) => a.at - b.at);
    for (const { at, line } of lines) if (at >= options.from.getTime() && at < options.to.getTime()) yield line;
  }
}
