// The response cache (lib/http/response-cache/store.ts) drops an answer when the data it read changes,
// and learns of changes only from the data_changed notifications (migration 000070). A table of
// app_public without the trigger would let a cached answer outlive a change to it, so every table
// either announces its domain or is one no cached read reads (the account, monitor, channel and
// token tables, whose reads are never cached; test/db/cache-reads.test.ts checks that every table a
// cached read declares announces its changes, in any schema).
import { expect, test } from "@jest/globals";
import pg from "pg";
import { useTestDatabase } from "../helpers/database.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestDatabase();

/** Read only by operations that are never cached (account queries, monitors, channels, tokens). */
const NEVER_CACHED = [
  "alert_responders",
  "api_tokens",
  "channels",
  "crew_availability",
  "environments",
  "organizations",
  "sessions",
  "users",
];

test("every table of app_public announces its changes on data_changed, or is read by uncached operations only", async () => {
  const { rows } = await ctx.db.asOwner<{ name: string }>(`
    select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
     where n.nspname = 'app_public' and c.relkind in ('r', 'p')
       and not exists (select 1 from pg_trigger t where t.tgrelid = c.oid and t.tgname = '_900_notify_data_changed')
     order by 1`);
  expect(rows.map((row) => row.name)).toEqual(NEVER_CACHED);
});

test("a change is announced with its table's domain, once per transaction, at commit", async () => {
  const listener = new pg.Client({ connectionString: ctx.db.ownerUrl });
  const writer = new pg.Client({ connectionString: ctx.db.ownerUrl });
  await Promise.all([listener.connect(), writer.connect()]);
  try {
    const heard: string[] = [];
    listener.on("notification", (message) => heard.push(`${message.channel} ${message.payload}`));
    await listener.query("listen data_changed");
    await writer.query("begin");
    await writer.query("update app_public.p2000_categories set name = name");
    await writer.query("update app_public.p2000_categories set name = name");
    await writer.query("update app_public.meteo_levels set label = label");
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual([]);
    await writer.query("commit");
    await waitUntil(
      () => heard.length,
      (n) => n >= 2,
      "the notifications",
      2_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard.sort()).toEqual(["data_changed meteo", "data_changed p2000"]);
  } finally {
    await Promise.all([listener.end(), writer.end()]);
  }
});
