// uuidv7() as migrations and column defaults use it: PostgreSQL 18's built-in, or on older servers
// the stand-in of migrations/beforeAllMigrations.sql, in the same layout. Runs on whichever
// server the suite runs on (CI: 18 and 15).
import { expect, test } from "@jest/globals";
import { useTestDatabase } from "../helpers/database.ts";

const ctx = useTestDatabase();

test("uuidv7() gives version-7 UUIDs that carry the current Unix milliseconds and sort by time", async () => {
  const { rows } = await ctx.db.asOwner(`
    select u::text as uuid,
           ('x' || substr(replace(u::text, '-', ''), 1, 12))::bit(48)::bigint as unix_ms,
           (extract(epoch from clock_timestamp()) * 1000)::bigint as now_ms
      from (select uuidv7() as u, g from generate_series(1, 200) g order by g) made`);
  for (const row of rows) {
    expect(row.uuid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(Math.abs(Number(row.now_ms) - Number(row.unix_ms))).toBeLessThan(1_000);
  }
  // Made one after another: the time part (milliseconds, version, sub-millisecond fraction) never
  // goes back, so keys sort by creation time (the stand-in's resolution is a microsecond).
  const timeParts = rows.map((r) => r.uuid.slice(0, 18));
  expect([...timeParts].sort()).toEqual(timeParts);
  expect(new Set(rows.map((r) => r.uuid)).size).toBe(rows.length);
});
