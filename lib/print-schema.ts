// The GraphQL schema as SDL, sorted, as committed in schema.graphql: `npm run schema:export`
// writes it and test/schema-artifacts.test.ts fails when the live schema differs.
import { lexicographicSortSchema, printSchema } from "graphql";
import pg from "pg";
import { makeSchema } from "postgraphile";
import { makePreset } from "../graphile.config.ts";
import { makeAuthenticate } from "./auth-context.ts";

export async function printServiceSchema(authUrl: string): Promise<string> {
  const authPool = new pg.Pool({ connectionString: authUrl, max: 2 });
  try {
    // The schema does not depend on secrets or pools of the account flows: nothing runs here.
    const { schema } = await makeSchema(
      makePreset({
        authPool,
        authenticate: makeAuthenticate(authPool, "schema-printing"),
        accounts: { ownerPool: authPool, jwtSecret: "schema-printing", publicUrl: "", magicLinkAllowedOrigins: [] },
        monitors: { allowPrivateWebhookTargets: false },
        graphiql: false,
        statementTimeout: "15s",
      }),
    );
    return printSchema(lexicographicSortSchema(schema)) + "\n";
  } finally {
    await authPool.end();
  }
}
