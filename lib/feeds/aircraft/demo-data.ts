// Demo aircraft data for a new installation (DEMO_DATA): a demo helicopter (PH-DEMO, ICAO de0001,
// base "DEMO", added to the fleet so that no real aircraft gets a flight it never flew) flies
// Amsterdam → Haarlem two hours ago and Haarlem → Leiden an hour ago, written as aircraft.json
// documents and stored through the real parser and state machine with source "demo". The events
// are more than an hour old, so no monitor is notified. On a demo installation the demo__tick job
// then flies it live (flyDemoHelicopter): Leiden → Amsterdam → Haarlem → Leiden, one leg every
// quarter of an hour, each minute's positions as they pass.
import type pg from "pg";
import { ingestAircraftDocument } from "./ingest.ts";
import { flightDocuments } from "./sample-documents.ts";

const HOUR = 3_600_000;
const DEMO = { hex: "de0001", registration: "PH-DEMO", flight: "DEMO1" };

/** The demo helicopter in the fleet: only the fleet's aircraft are stored. */
async function addDemoHelicopter(db: pg.Pool | pg.ClientBase): Promise<void> {
  await db.query(
    `insert into app_public.aircraft_fleet (icao, registration, kind, callsign, type, operator, base)
    values ($1, $2, 'trauma', $3, 'EC35', 'DEMO (synthetic)', 'DEMO') on conflict (icao) do nothing`,
    [DEMO.hex, DEMO.registration, DEMO.flight],
  );
}

export async function loadAircraftDemo(db: pg.Pool | pg.ClientBase, now = new Date()): Promise<number> {
  await addDemoHelicopter(db);
  const flights = [
    flightDocuments({
      ...DEMO,
      from: { lat: 52.3728, lon: 4.8936 },
      to: { lat: 52.381, lon: 4.636 },
      start: new Date(now.getTime() - 2 * HOUR),
    }),
    flightDocuments({
      ...DEMO,
      from: { lat: 52.381, lon: 4.636 },
      to: { lat: 52.1601, lon: 4.497 },
      start: new Date(now.getTime() - 1.5 * HOUR),
    }),
  ];
  let documents = 0;
  for (const document of flights.flat()) {
    await ingestAircraftDocument(db, document, "demo");
    documents += 1;
  }
  return documents;
}

const LEG_MS = 15 * 60_000;
/** The live round: the longest leg (Leiden → Amsterdam, about 13 minutes) fits in a quarter. */
const ROUND = [
  { lat: 52.1601, lon: 4.497 }, // Leiden
  { lat: 52.3728, lon: 4.8936 }, // Amsterdam
  { lat: 52.381, lon: 4.636 }, // Haarlem
];

/**
 * Stores the demo helicopter's positions between from and to: leg n of its round starts at
 * minute 15·n since the epoch, so every window of time gets the same positions whenever it is
 * asked, and consecutive windows make whole flights (take-off, hover, landing).
 */
export async function flyDemoHelicopter(db: pg.Pool | pg.ClientBase, from: Date, to: Date): Promise<number> {
  await addDemoHelicopter(db);
  let documents = 0;
  // A leg that started before `from` may still be flying.
  for (let leg = Math.floor(from.getTime() / LEG_MS) - 1; leg * LEG_MS < to.getTime(); leg++) {
    const flight = flightDocuments({
      ...DEMO,
      from: ROUND[leg % ROUND.length],
      to: ROUND[(leg + 1) % ROUND.length],
      start: new Date(leg * LEG_MS),
    });
    for (const document of flight) {
      const at = (JSON.parse(document) as { now: number }).now * 1000;
      if (at < from.getTime() || at >= to.getTime()) continue;
      await ingestAircraftDocument(db, document, "demo");
      documents += 1;
    }
  }
  return documents;
}
