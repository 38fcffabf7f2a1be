// aircraft.json documents of a synthetic flight, one every `stepSeconds`, in the receiver's real
// layout: on the ground at the start, take-off, a straight flight at 1,500 ft and 120 kt, a hover
// at 500 ft over the destination (not a landing), touch-down, and a while on the ground. The
// tests, the demo data and the benchmark go through the real parser and state machine with them.

export interface SampleFlight {
  hex: string;
  flight: string;
  registration: string;
  from: { lat: number; lon: number };
  to: { lat: number; lon: number };
  start: Date;
  stepSeconds?: number;
}

interface Sample {
  alt: number | "ground";
  gs: number;
  lat: number;
  lon: number;
  track: number;
}

const KT_TO_KM_PER_S = 1.852 / 3600;

function distanceKm(a: { lat: number; lon: number }, b: { lat: number; lon: number }): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLon = (b.lon - a.lon) * rad * Math.cos(((a.lat + b.lat) / 2) * rad);
  return 6371 * Math.sqrt(dLat * dLat + dLon * dLon);
}

/** The flight's samples, one per step. */
function samples(flight: SampleFlight): Sample[] {
  const step = flight.stepSeconds ?? 5;
  const km = distanceKm(flight.from, flight.to);
  const track =
    ((Math.atan2(
      (flight.to.lon - flight.from.lon) * Math.cos((flight.from.lat * Math.PI) / 180),
      flight.to.lat - flight.from.lat,
    ) *
      180) /
      Math.PI +
      360) %
    360;
  const out: Sample[] = [];
  const repeat = (seconds: number, sample: Sample) => {
    for (let t = 0; t < seconds; t += step) out.push(sample);
  };
  repeat(60, { alt: "ground", gs: 0, ...flight.from, track });
  const cruiseSteps = Math.max(2, Math.ceil(km / (120 * KT_TO_KM_PER_S * step)));
  for (let i = 1; i <= cruiseSteps; i++) {
    const f = i / cruiseSteps;
    out.push({
      alt: Math.min(1500, i * 300),
      gs: 120,
      lat: flight.from.lat + (flight.to.lat - flight.from.lat) * f,
      lon: flight.from.lon + (flight.to.lon - flight.from.lon) * f,
      track,
    });
  }
  repeat(60, { alt: 500, gs: 0, ...flight.to, track });
  repeat(90, { alt: "ground", gs: 0, ...flight.to, track });
  return out;
}

/** One aircraft.json per step, as the receiver writes it (the position seen 0.4 s before `now`). */
export function flightDocuments(flight: SampleFlight): string[] {
  const step = flight.stepSeconds ?? 5;
  return samples(flight).map((s, i) =>
    JSON.stringify({
      now: flight.start.getTime() / 1000 + i * step + 0.4,
      messages: 1000 + i * 40,
      aircraft: [
        {
          hex: flight.hex,
          type: "adsb_icao",
          flight: flight.flight.padEnd(8),
          r: flight.registration,
          t: "EC35",
          alt_baro: s.alt,
          ...(s.alt === "ground" ? {} : { alt_geom: s.alt + 100 }),
          gs: s.gs,
          track: s.track,
          squawk: "0020",
          emergency: "none",
          category: "A7",
          lat: s.lat,
          lon: s.lon,
          nic: 8,
          rc: 186,
          seen_pos: 0.4,
          seen: 0.1,
          messages: 5212 + i,
          rssi: -21.4,
        },
        { hex: "~2f0a1b", type: "tisb_other", lat: 52.1, lon: 5.1, seen_pos: 1.2, alt_baro: 3000 },
      ],
    }),
  );
}
