// Scores positions against the address truth set, per province:
//
//   node bench/address-truth/score.ts [--truth FILE] PREDICTIONS
//
// PREDICTIONS is JSON (an array, or an object with `pages`) or JSON lines of
// `{ message, latitude, longitude, street?, town? }`, one per truth page, joined on the exact message
// text (whatever produced them: the enrichment under test, run over the truth pages' `message`).
// TRUTH defaults to $ADDRESS_TRUTH_OUT or bench/address-truth/truth.json. Printed per province: the
// pages, how many were placed, the median distance to the street's true position (unplaced pages
// count as infinitely far), the share within 300 m, and the share whose street and whose town were
// recognised (same name after the spelling-insensitive key of build.ts).
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { median, metres, nameKey, PROVINCES, REPO } from "./lib.ts";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { truth: { type: "string" } } });
if (positionals.length !== 1) {
  console.error("Usage: node bench/address-truth/score.ts [--truth FILE] PREDICTIONS");
  process.exit(2);
}
const TRUTH = path.resolve(
  values.truth ?? process.env.ADDRESS_TRUTH_OUT ?? path.join(REPO, "bench/address-truth/truth.json"),
);

type Truth = { message: string; province: string; town: string; street: string; latitude: number; longitude: number };
type Prediction = {
  message: string;
  latitude?: number | null;
  longitude?: number | null;
  street?: string | null;
  town?: string | null;
};

function readList<T>(file: string): T[] {
  const body = fs.readFileSync(file, "utf8");
  try {
    const data = JSON.parse(body);
    return Array.isArray(data) ? data : (data.pages ?? []);
  } catch {
    return body
      .split("\n")
      .filter((line) => line.trim())
      .map((line) => JSON.parse(line));
  }
}

const truth = readList<Truth>(TRUTH);
const predicted = new Map(readList<Prediction>(path.resolve(positionals[0])).map((p) => [p.message, p]));
const pct = (n: number, of: number) => (of === 0 ? "–" : `${((100 * n) / of).toFixed(1)} %`);
const m = (x: number) => (Number.isFinite(x) ? `${x.toFixed(0)} m` : "∞");

console.log(`Truth: ${truth.length} pages (${TRUTH}); predictions: ${predicted.size}`);
console.log("| province | pages | placed | median distance | within 300 m | street recognised | town recognised |");
console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
const rows: [string, Truth[]][] = [
  ...PROVINCES.map((p): [string, Truth[]] => [p, truth.filter((t) => t.province === p)]),
];
rows.push(["all", truth]);
for (const [province, pages] of rows) {
  if (pages.length === 0) continue;
  const distances: number[] = [];
  let placed = 0;
  let streets = 0;
  let towns = 0;
  for (const t of pages) {
    const p = predicted.get(t.message);
    const hasPosition = p && typeof p.latitude === "number" && typeof p.longitude === "number";
    if (hasPosition) placed++;
    distances.push(
      hasPosition ? metres(t.latitude, t.longitude, p.latitude as number, p.longitude as number) : Infinity,
    );
    if (p?.street && nameKey(p.street) === nameKey(t.street)) streets++;
    if (p?.town && nameKey(p.town) === nameKey(t.town)) towns++;
  }
  const within = distances.filter((d) => d <= 300).length;
  console.log(
    `| ${province} | ${pages.length} | ${placed} | ${m(median(distances))} | ${pct(within, pages.length)} | ` +
      `${pct(streets, pages.length)} | ${pct(towns, pages.length)} |`,
  );
}
