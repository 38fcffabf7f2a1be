// Demo aircraft data for a new installation (DEMO_DATA): a demo helicopter (PH-DEMO, ICAO de0001,
// base "DEMO", added to the fleet so that no real aircraft gets a flight it never flew) flies
// Amsterdam → Haarlem two hours ago and Haarlem → Leiden an hour ago, written as aircraft.json
// documents and stored through the real parser and state machine with source "demo". The events
// are more than an hour old, so no monitor is notified.
import type pg from "pg";
import { ingestAircraftDocument } from "./ingest.ts";
import { flightDocuments } from "./sample-documents.ts";

const HOUR = 3_600_000;
const DEMO = { hex: "de0001", registration: "PH-DEMO", flight: "DEMO1" };

export async function loadAircraftDemo(db: pg.Pool | pg.ClientBase, now = new Date()): Promise<number> {
  await db.query(
    `insert into app_public.aircraft_fleet (icao, registration, kind, callsign, type, operator, base)
    values ($1, $2, 'trauma', $3, 'EC35', 'DEMO (synthetic)', 'DEMO') on conflict (icao) do nothing`,
    [DEMO.hex, DEMO.registration, DEMO.flight],
  );
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
