// An ADS-B receiver's aircraft.json (readsb / dump1090-fa / tar1090; ../shared/research/feed-formats.md):
// {"now": <Unix seconds, fractional>, "aircraft": [{hex, flight, alt_baro (feet or "ground"),
// alt_geom, gs, track, lat, lon, seen_pos, …}]}; keys are left out when unknown. A position's time
// is the document's `now` minus its `seen_pos`, never the wall clock, so a replay of recorded
// files gives the same routes and events.
import { FeedDocumentError, isJsonObject, parseJson } from "../records.ts";

export interface AircraftPosition {
  icao: string;
  at: Date;
  latitude: number;
  longitude: number;
  /** GNSS altitude where given (alt_geom), else barometric; 0 when the transponder says "ground". */
  altitudeFt: number | null;
  /** alt_baro "ground": the transponder's own air/ground state. */
  groundFlag: boolean;
  groundSpeedKt: number | null;
  track: number | null;
  callsign: string | null;
}

export interface AircraftDocument {
  now: Date;
  positions: AircraftPosition[];
  /** Aircraft left out: no position, a position older than MAX_POSITION_AGE_S, or a non-ICAO address. */
  leftOut: number;
}

/** A position this old is stale: readsb keeps an aircraft's last position for a while after it goes quiet. */
export const MAX_POSITION_AGE_S = 60;

const finite = (value: unknown): number | null => (typeof value === "number" && Number.isFinite(value) ? value : null);

export function parseAircraftJson(text: string): AircraftDocument {
  const json = parseJson(text, "aircraft.json");
  if (!isJsonObject(json) || finite(json.now) === null || !Array.isArray(json.aircraft)) {
    throw new FeedDocumentError('aircraft.json needs a numeric "now" and an "aircraft" array.');
  }
  const nowSeconds = json.now as number;
  const document: AircraftDocument = { now: new Date(nowSeconds * 1000), positions: [], leftOut: 0 };
  for (const entry of json.aircraft) {
    const hex = isJsonObject(entry) && typeof entry.hex === "string" ? entry.hex.trim().toLowerCase() : "";
    const latitude = isJsonObject(entry) ? finite(entry.lat) : null;
    const longitude = isJsonObject(entry) ? finite(entry.lon) : null;
    const seenPos = isJsonObject(entry) ? finite(entry.seen_pos) : null;
    // "~" marks a non-ICAO address (TIS-B); the fleet is listed by ICAO address only.
    if (
      !isJsonObject(entry) ||
      !/^[0-9a-f]{6}$/.test(hex) ||
      latitude === null ||
      longitude === null ||
      seenPos === null ||
      Math.abs(latitude) > 90 ||
      Math.abs(longitude) > 180 ||
      seenPos < 0 ||
      seenPos > MAX_POSITION_AGE_S
    ) {
      document.leftOut += 1;
      continue;
    }
    const groundFlag = entry.alt_baro === "ground";
    const altitude = finite(entry.alt_geom) ?? finite(entry.alt_baro);
    document.positions.push({
      icao: hex,
      at: new Date(Math.round((nowSeconds - seenPos) * 1000)),
      latitude,
      longitude,
      altitudeFt: groundFlag ? 0 : altitude === null ? null : Math.round(altitude),
      groundFlag,
      groundSpeedKt: finite(entry.gs),
      track: finite(entry.track),
      callsign: typeof entry.flight === "string" ? entry.flight.trim().slice(0, 8) || null : null,
    });
  }
  return document;
}
