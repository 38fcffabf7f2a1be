// Stores one aircraft.json document, whatever brought it (the poller, `npm run ingest:aircraft`):
// parsed, then run through the state machine of app_private.ingest_aircraft_positions in one
// transaction. Only the tracked fleet is kept (the SQL joins the fleet list).
import type pg from "pg";
import { parseAircraftJson } from "./aircraft-json.ts";

export interface AircraftStored {
  positions: number;
  stored: number;
  takeOffs: number;
  landings: number;
}

export async function ingestAircraftDocument(
  db: pg.Pool | pg.ClientBase,
  text: string,
  source: string,
): Promise<AircraftStored & { leftOut: number }> {
  const document = parseAircraftJson(text);
  const rows = document.positions.map((p) => ({
    icao: p.icao,
    at: p.at,
    latitude: p.latitude,
    longitude: p.longitude,
    altitude_ft: p.altitudeFt,
    ground_flag: p.groundFlag,
    ground_speed_kt: p.groundSpeedKt,
    track: p.track,
    callsign: p.callsign,
  }));
  const {
    rows: [{ result }],
  } = await db.query<{ result: AircraftStored }>(
    "select app_private.ingest_aircraft_positions($1::jsonb, $2) as result",
    [JSON.stringify(rows), source],
  );
  return { ...result, leftOut: document.leftOut };
}

export function describeAircraftIngest(result: AircraftStored & { leftOut: number }): string {
  return (
    `${result.positions} position(s) read (${result.leftOut} aircraft without a fresh position left out); ` +
    `${result.stored} of tracked aircraft stored, ${result.takeOffs} take-off(s), ${result.landings} landing(s).`
  );
}
