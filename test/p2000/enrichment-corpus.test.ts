// The parser corpus: every labelled field of every message in test/fixtures/p2000-corpus.json must
// come out right when the message goes through the real ingestion path (capcodes, enrichment,
// dossier). The test prints the score per field (right/total), so a regression shows where it is.
import { beforeAll, expect, test } from "@jest/globals";
import fs from "node:fs";
import path from "node:path";
import { ROOT_DIR } from "../../lib/paths.ts";
import { useTestDatabase } from "../helpers/database.ts";

interface Case {
  src: string;
  message: string;
  capcodes: string[];
  expect: Record<string, unknown>;
}
const corpus: { cases: Case[] } = JSON.parse(
  fs.readFileSync(path.join(ROOT_DIR, "test", "fixtures", "p2000-corpus.json"), "utf8"),
);
const ctx = useTestDatabase();
const actual = new Map<Case, Record<string, unknown>>();

beforeAll(async () => {
  for (const [index, item] of corpus.cases.entries()) {
    // A day apart, so no two corpus messages fall into one dossier.
    const sended = new Date(Date.UTC(2026, 0, 1) + index * 86_400_000);
    const {
      rows: [stored],
    } = await ctx.db.asOwner("select app_private.ingest_p2000_message($1, $2, $3, 'test') as uuid", [
      item.message,
      sended,
      item.capcodes,
    ]);
    const {
      rows: [row],
    } = await ctx.db.asOwner(
      `select u.code as urgency, d.name as discipline, r.number as region, m.street, m.postcode, m.city, m.road, m.hectometer,
              m.carriageway, m.grip_level as "gripLevel", m.exercise_type as "exerciseType", c.code as category,
              m.incident_number as "incidentNumber", m.call_numbers as "callNumbers", m.dossier_uuid is not null as dossier,
              m.latitude is not null and m.longitude is not null as "hasCoordinates", m.position_precision as "positionPrecision"
         from app_public.p2000_messages m
         left join app_public.p2000_urgencies u on u.uuid = m.urgency_uuid
         left join app_public.p2000_disciplines d on d.uuid = m.discipline_uuid
         left join app_public.p2000_regions r on r.uuid = m.region_uuid
         left join app_public.p2000_categories c on c.uuid = m.category_uuid
        where m.uuid = $1`,
      [stored.uuid],
    );
    actual.set(item, { ...row, callNumbers: [...row.callNumbers].sort() });
  }
});

test("every labelled field of the corpus is parsed right", () => {
  const score = new Map<string, { right: number; total: number }>();
  const wrong: string[] = [];
  for (const [item, got] of actual) {
    for (const [field, expected] of Object.entries(item.expect)) {
      const entry = score.get(field) ?? { right: 0, total: 0 };
      entry.total++;
      if (JSON.stringify(got[field] ?? null) === JSON.stringify(expected)) entry.right++;
      else
        wrong.push(
          `${item.src} "${item.message}": ${field} = ${JSON.stringify(got[field])}, expected ${JSON.stringify(expected)}`,
        );
      score.set(field, entry);
    }
  }
  // Printed with the test's output (jest shows console.log), one line per field.
  console.log(
    `P2000 corpus: ${corpus.cases.length} messages, accuracy per field\n` +
      [...score]
        .map(([field, { right, total }]) => `  ${field} ${right}/${total} (${((100 * right) / total).toFixed(1)}%)`)
        .join("\n"),
  );
  expect(wrong).toEqual([]);
});
