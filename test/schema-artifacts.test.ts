// schema.graphql and sql/schema.sql are reviewed artifacts: both must match what the code builds.
import { expect, test } from "@jest/globals";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { ROOT_DIR } from "../lib/paths.ts";
import { printServiceSchema } from "../graphile.config.ts";
import { dumpSchema } from "../lib/db/schema-dump.ts";
import { useTestDatabase } from "./helpers/database.ts";

const ctx = useTestDatabase();

test("schema.graphql is the live GraphQL schema (run `npm run schema:export` after changing it)", async () => {
  const committed = fs.readFileSync(path.join(ROOT_DIR, "schema.graphql"), "utf8");
  expect(await printServiceSchema(ctx.db.authUrl)).toBe(committed);
});

test("sql/schema.sql is the dump of the committed migrations (run `npm run db -- commit`)", async () => {
  const client = new pg.Client({ connectionString: ctx.db.ownerUrl });
  await client.connect();
  try {
    const committed = fs.readFileSync(path.join(ROOT_DIR, "sql", "schema.sql"), "utf8");
    expect(await dumpSchema(client)).toBe(committed);
  } finally {
    await client.end();
  }
});
