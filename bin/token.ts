// `npm run token -- <command>`: manage API tokens from the shell, against DATABASE_URL or the
// embedded default's DATA_DIR (a running `npm start` is reused).
//   create --name NAME --scopes a,b,c [--environment UUID] [--valid-days N]
//          prints the plain secret on its last line (shown only this once)
//   list   every token with its state
//   revoke UUID
//   web-client rotate   a new secret for the web application's credential, the old one revoked
//                       at once (also how a revoked credential comes back)
//   web-client revoke   the web application's pages get no credential until the next rotate
import { parseArgs } from "node:util";
import pg from "pg";
import { createApiToken, listApiTokens, revokeApiToken, type ApiTokenRow } from "../lib/auth/api-tokens.ts";
import { revokeWebClientToken, rotateWebClientToken } from "../lib/auth/web-client-token.ts";
import { loadConfig } from "../lib/config.ts";
import { prepareDatabase } from "../lib/setup/installation.ts";

const USAGE = `Usage:
  npm run token -- create --name NAME --scopes a,b,c [--environment UUID] [--valid-days N]
  npm run token -- list
  npm run token -- revoke UUID
  npm run token -- web-client rotate
  npm run token -- web-client revoke`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

class UsageError extends Error {}

function state(token: ApiTokenRow): string {
  if (token.revoked_at) return `revoked ${token.revoked_at.toISOString()}`;
  if (token.expires_at && token.expires_at <= new Date()) return `expired ${token.expires_at.toISOString()}`;
  return token.expires_at ? `active until ${token.expires_at.toISOString()}` : "active";
}

async function main(argv: string[]): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      name: { type: "string" },
      scopes: { type: "string" },
      environment: { type: "string" },
      "valid-days": { type: "string" },
    },
  });
  const [command, ...rest] = positionals;
  if (command === "create") {
    if (!values.name) throw new UsageError("create needs --name.");
    if (values.environment && !UUID.test(values.environment)) throw new UsageError("--environment must be a uuid.");
    if (values["valid-days"] !== undefined && !/^\d+$/.test(values["valid-days"])) {
      throw new UsageError("--valid-days must be a whole number.");
    }
  } else if (command === "revoke") {
    if (rest.length !== 1 || !UUID.test(rest[0])) throw new UsageError("revoke needs the token's uuid.");
  } else if (command === "web-client") {
    if (rest.length !== 1 || !["rotate", "revoke"].includes(rest[0]))
      throw new UsageError("web-client needs rotate or revoke.");
  } else if (command !== "list") {
    throw new UsageError(command ? `Unknown command "${command}".` : "Name a command.");
  }

  const database = await prepareDatabase(loadConfig().database);
  const pool = new pg.Pool({ connectionString: database.ownerUrl, max: 1 });
  try {
    if (command === "create") {
      const { token, plainToken } = await createApiToken(pool, {
        environmentUuid: values.environment ?? database.operatorEnvironmentUuid,
        name: values.name!,
        scopes: (values.scopes ?? "")
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean),
        validDays: values["valid-days"] === undefined ? null : Number(values["valid-days"]),
      });
      console.log(`Created API token ${token.uuid} "${token.name}" in environment ${token.environment_uuid}`);
      console.log(`Scopes: ${token.scopes.join(", ") || "(none)"}; ${state(token)}`);
      console.log("The secret is shown only this once:");
      console.log(plainToken);
    } else if (command === "list") {
      const tokens = await listApiTokens(pool);
      if (tokens.length === 0) console.log("No API tokens.");
      for (const token of tokens) {
        console.log(
          [
            token.uuid,
            token.token_preview,
            JSON.stringify(token.name),
            token.scopes.join(",") || "-",
            state(token),
            token.last_used_at ? `last used ${token.last_used_at.toISOString()}` : "never used",
          ].join("  "),
        );
      }
    } else if (command === "web-client" && rest[0] === "rotate") {
      const token = await rotateWebClientToken(pool);
      console.log(`Rotated the web-client credential: API token ${token.uuid} ${token.token_preview}.`);
      console.log("Pages get the new secret within 30 s; the old one is refused from now on.");
    } else if (command === "web-client") {
      const token = await revokeWebClientToken(pool);
      console.log(
        token
          ? `Revoked the web-client credential: API token ${token.uuid} ${token.token_preview}.`
          : "There was no web-client credential; none is made at start now.",
      );
      console.log("The web application's pages get no credential until `npm run token -- web-client rotate`.");
    } else {
      const token = await revokeApiToken(pool, rest[0]);
      console.log(`Revoked API token ${token.uuid} "${token.name}".`);
    }
  } finally {
    await pool.end();
    await database.close();
  }
}

main(process.argv.slice(2)).catch((error) => {
  if (error instanceof UsageError || (error as { code?: string }).code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    console.error(`${error.message}\n${USAGE}`);
    process.exit(2);
  }
  // Our SQL functions raise readable messages (SQLSTATE class X); anything else is unexpected.
  const code = (error as { code?: string }).code;
  console.error(code?.startsWith("X") ? error.message : error);
  process.exit(1);
});
