// Who sends a request, told by its Bearer value: a user access token (a JWT bound to a session
// row), an API token (an environment-level credential with scopes), or nobody. The result becomes
// the request's pgSettings, which RLS policies and SQL functions read through the app_hidden
// helpers; the database re-checks the session on every read, so logout takes effect at once.
import type { IncomingMessage } from "node:http";
import type pg from "pg";
import { looksLikeJwt, verifyAccessToken } from "./access-tokens.ts";
import type { ApiTokenCache } from "./api-token-cache.ts";
import { hashApiTokenSecret, isWellFormedApiTokenSecret, RECEIVER_SCOPE, SCREEN_SCOPE } from "./api-tokens.ts";
import { ROLES } from "../db/bootstrap.ts";

export type RequestAuth =
  | { kind: "none" }
  | { kind: "invalid" }
  | { kind: "user"; userUuid: string; sessionUuid: string }
  | {
      kind: "apiToken";
      apiTokenUuid: string;
      environmentUuid: string;
      scopes: string[];
      /** The web application's shared credential (lib/auth/web-client-token.ts). */
      webClient: boolean;
      /**
       * False for the web-client credential under WEB_REQUIRE_SIGN_IN (auth operations only) and
       * for a receiver's token (it publishes pages only).
       */
      publicReads: boolean;
    };

export type Authenticate = (authorization: string | undefined) => Promise<RequestAuth>;

export function bearerValue(authorization: string | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? "");
  return match?.[1];
}

export interface AuthenticateOptions {
  /** Caches API-token lookups (the server); without it every request asks the database. */
  apiTokens?: ApiTokenCache;
  /**
   * WEB_REQUIRE_SIGN_IN: the web-client credential may then be used for the auth operations only
   * (the database tells which token it is, so every instance knows at once after a rotation).
   */
  webRequireSignIn?: boolean;
}

export function makeAuthenticate(
  authPool: pg.Pool,
  jwtSecret: string,
  options: AuthenticateOptions = {},
): Authenticate {
  const { apiTokens, webRequireSignIn = false } = options;
  const loadApiToken = async (hash: Buffer) => {
    const {
      rows: [row],
    } = await authPool.query(
      "select api_token_uuid, environment_uuid, scopes, expires_at, web_client from app_private.authenticate_api_token($1)",
      [hash],
    );
    return row
      ? {
          apiTokenUuid: row.api_token_uuid,
          environmentUuid: row.environment_uuid,
          scopes: row.scopes,
          webClient: row.web_client,
          expiresAt: row.expires_at,
        }
      : null;
  };
  return async (authorization) => {
    if (authorization === undefined || authorization.trim() === "") return { kind: "none" };
    const bearer = bearerValue(authorization);
    if (bearer && looksLikeJwt(bearer)) {
      const claims = verifyAccessToken(jwtSecret, bearer);
      if (!claims) return { kind: "invalid" };
      const {
        rows: [session],
      } = await authPool.query("select user_uuid from app_private.authenticate_session($1)", [claims.sessionUuid]);
      return session?.user_uuid === claims.userUuid
        ? { kind: "user", userUuid: claims.userUuid, sessionUuid: claims.sessionUuid }
        : { kind: "invalid" };
    }
    // Malformed values and bad checksums are rejected without touching the database.
    if (!bearer || !isWellFormedApiTokenSecret(bearer)) return { kind: "invalid" };
    const hash = hashApiTokenSecret(bearer);
    const grant = apiTokens
      ? await apiTokens.lookup(hash.toString("hex"), () => loadApiToken(hash))
      : await loadApiToken(hash);
    return grant
      ? {
          kind: "apiToken",
          ...grant,
          publicReads: !(grant.webClient && webRequireSignIn) && !grant.scopes.includes(RECEIVER_SCOPE),
        }
      : { kind: "invalid" };
  };
}

/**
 * Each HTTP request's authentication, begun once as it arrives (service.ts) and read by everything
 * after: the response cache's answer before grafserv, grafserv's request-body middleware (the
 * API-token rule) and the GraphQL context. A WebSocket's operations are authenticated one by one
 * (their credential is the connection's init payload) and remembered on its upgrade request.
 */
const authByRequest = new WeakMap<IncomingMessage, { pending: Promise<RequestAuth>; settled?: RequestAuth }>();

const NOBODY: RequestAuth = { kind: "none" };

/** The request's authentication by its Authorization header: begun by the first call, shared by the rest. */
export function authenticateOnce(req: IncomingMessage, authenticate: Authenticate): Promise<RequestAuth> {
  const known = authByRequest.get(req);
  if (known) return known.pending;
  const entry: { pending: Promise<RequestAuth>; settled?: RequestAuth } = {
    pending: authenticate(req.headers.authorization),
  };
  // Registered first, so settled is set before any other awaiter of pending resumes; a failure
  // (the database gone) is its awaiters' to answer.
  entry.pending.then(
    (auth) => (entry.settled = auth),
    () => undefined,
  );
  authByRequest.set(req, entry);
  return entry.pending;
}

export function rememberAuth(req: IncomingMessage, auth: RequestAuth): void {
  authByRequest.set(req, { pending: Promise.resolve(auth), settled: auth });
}

/** The request's settled authentication (nobody's until it has settled). */
export function recalledAuth(req: IncomingMessage | undefined): RequestAuth {
  return (req && authByRequest.get(req)?.settled) ?? NOBODY;
}

export function pgSettingsFor(
  auth: RequestAuth,
  statementTimeout: string,
  requestUuid: string,
): Record<string, string> {
  const settings: Record<string, string> = {
    role: ROLES.visitor,
    statement_timeout: statementTimeout,
    "app.request_uuid": requestUuid,
  };
  if (auth.kind === "user") {
    settings["app.session_uuid"] = auth.sessionUuid;
  } else if (auth.kind === "apiToken") {
    settings["app.api_token_uuid"] = auth.apiTokenUuid;
    // A station screen's credential acts in no environment: it reads its screen (found by the
    // token) and nothing keyed on the environment, and the response cache keeps no answer for it.
    if (!auth.scopes.includes(SCREEN_SCOPE)) settings["app.environment_uuid"] = auth.environmentUuid;
    settings["app.api_scopes"] = auth.scopes.join(" ");
  }
  return settings;
}
