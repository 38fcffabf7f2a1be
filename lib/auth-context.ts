// Who sends a request, told by its Bearer value: an API token (an environment-level credential
// with scopes) or nobody. User access tokens (JWTs) arrive with the accounts work; until then a
// JWT-shaped value is simply not an API token. The result becomes the request's pgSettings, which
// RLS policies and SQL functions read through the app_hidden.current_* helpers.
import type { IncomingMessage } from "node:http";
import type pg from "pg";
import { hashApiTokenSecret, isWellFormedApiTokenSecret } from "./api-tokens.ts";
import { ROLES } from "./database-bootstrap.ts";

export type RequestAuth =
  | { kind: "none" }
  | { kind: "invalid" }
  | { kind: "apiToken"; apiTokenUuid: string; environmentUuid: string; scopes: string[] };

export type Authenticate = (authorization: string | undefined) => Promise<RequestAuth>;

export function bearerValue(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match?.[1];
}

export function makeAuthenticate(authPool: pg.Pool): Authenticate {
  return async (authorization) => {
    if (authorization === undefined || authorization.trim() === "") return { kind: "none" };
    const secret = bearerValue(authorization);
    // Malformed values and bad checksums are rejected without touching the database.
    if (!secret || !isWellFormedApiTokenSecret(secret)) return { kind: "invalid" };
    const { rows: [row] } = await authPool.query(
      "select api_token_uuid, environment_uuid, scopes from app_private.authenticate_api_token($1)",
      [hashApiTokenSecret(secret)],
    );
    if (!row) return { kind: "invalid" };
    return { kind: "apiToken", apiTokenUuid: row.api_token_uuid, environmentUuid: row.environment_uuid, scopes: row.scopes };
  };
}

/** The auth result of each HTTP request, set while its body is processed and read by the context. */
const authByRequest = new WeakMap<IncomingMessage, RequestAuth>();

export function rememberAuth(req: IncomingMessage, auth: RequestAuth): void {
  authByRequest.set(req, auth);
}

export function recalledAuth(req: IncomingMessage | undefined): RequestAuth {
  return (req && authByRequest.get(req)) ?? { kind: "none" };
}

export function pgSettingsFor(auth: RequestAuth, statementTimeout: string): Record<string, string> {
  const settings: Record<string, string> = { role: ROLES.visitor, statement_timeout: statementTimeout };
  if (auth.kind === "apiToken") {
    settings["app.api_token_uuid"] = auth.apiTokenUuid;
    settings["app.environment_uuid"] = auth.environmentUuid;
    settings["app.api_scopes"] = auth.scopes.join(" ");
  }
  return settings;
}
