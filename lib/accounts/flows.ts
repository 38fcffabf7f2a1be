// The account flows that need more than SQL: password hashing, token signing, random secrets and
// e-mail. Each step that must survive a failed request (rate-limit hits, failed-login counters)
// runs on the owner pool in its own transaction; scope checks run as the request's visitor, in
// the database (app_hidden.assert_api_scope). plugins/account-mutations.ts and lib/accounts/link-routes.ts
// call these functions; the SQL they call lives in migrations (app_private, app_accounts).
import type pg from "pg";
import { ACCESS_TOKEN_SECONDS, looksLikeJwt, SESSION_DAYS, signAccessToken } from "../auth/access-tokens.ts";
import { apiTokenPreview, generateApiTokenSecret, hashApiTokenSecret } from "../auth/api-tokens.ts";
import { mails, queueEmail } from "./emails.ts";
import { userError } from "../graphql/errors.ts";
import type { Locale, RequestMeta, VisitorQuery } from "../graphql/request-facts.ts";
import { hashPassword, PASSWORD_MAX_LENGTH, passwordPolicyViolation, verifyPassword } from "./passwords.ts";
import {
  hasSecretShape,
  ONE_TIME_TOKEN_PREFIX,
  randomSecret,
  REFRESH_TOKEN_PREFIX,
  sha256,
} from "../auth/secret-tokens.ts";

export interface AccountDeps {
  ownerPool: pg.Pool;
  jwtSecret: string;
  publicUrl: string;
  magicLinkAllowedOrigins: string[];
}

export interface IssuedTokens {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export const NOT_AUTHENTICATED = "Not authenticated. Send Authorization: Bearer <token>.";
/** What an account operation answers a request that sent an API token (app_hidden.require_user_uuid, issue 44). */
export const USER_TOKEN_NEEDED = "This operation needs a user's access token (from login); an API token cannot use it.";
const WRONG_CREDENTIALS = "These credentials do not match our records.";
const WRONG_CURRENT_PASSWORD = "The current password is not right.";
const LOGIN_LOCKED =
  "Too many failed logins for this address: logins are locked for a while. Try again later or reset the password.";
const REFRESH_REFUSALS = {
  invalid: "The refresh token is not valid.",
  reused: "The refresh token was already used; the session has been ended. Log in again.",
  ended: "The session has ended. Log in again.",
};
const PASSWORD_RESET_ANSWER = "If an account exists for that address, we have sent it a link to reset the password.";
const MAGIC_LINK_ANSWER = {
  api: "MAGIC_LINK_SENT",
  en: "If an account exists for that address, we have sent it a login link.",
  nl: "Als er een account bij dit adres hoort, hebben we er een inloglink naartoe gestuurd.",
} as const satisfies Record<Locale, string>;

async function owner(deps: AccountDeps, sql: string, values: unknown[] = []): Promise<any[]> {
  return (await deps.ownerPool.query(sql, values)).rows;
}

async function inOwnerTransaction<T>(deps: AccountDeps, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await deps.ownerPool.connect();
  try {
    await client.query("begin");
    const result = await work(client);
    await client.query("commit");
    return result;
  } catch (error) {
    await client.query("rollback");
    throw error;
  } finally {
    client.release();
  }
}

function rateLimit(deps: AccountDeps, bucket: string, maxHits: number, per: string): Promise<unknown> {
  return owner(deps, "select app_private.hit_rate_limit($1, $2, $3::interval)", [bucket, maxHits, per]);
}

function normalisedEmail(email: string): string {
  return email.trim().toLowerCase();
}

function link(deps: AccountDeps, path: string, token: string): string {
  return `${deps.publicUrl}${path}?token=${encodeURIComponent(token)}`;
}

async function startSession(
  deps: AccountDeps,
  userUuid: string,
  meta: RequestMeta,
): Promise<IssuedTokens & { sessionUuid: string }> {
  const refreshToken = randomSecret(REFRESH_TOKEN_PREFIX);
  const [session] = await owner(
    deps,
    "select session_uuid from app_private.create_session($1, $2, $3, $4, $5, make_interval(days => $6))",
    [userUuid, sha256(refreshToken), meta.ip, meta.userAgent, meta.requestUuid, SESSION_DAYS],
  );
  return {
    sessionUuid: session.session_uuid,
    accessToken: signAccessToken(deps.jwtSecret, { userUuid, sessionUuid: session.session_uuid }),
    refreshToken,
    expiresIn: ACCESS_TOKEN_SECONDS,
  };
}

export interface RegisterInput {
  email: string;
  password?: string | null;
  organizationName?: string | null;
  environmentName?: string | null;
  displayName?: string | null;
}

export async function register(deps: AccountDeps, meta: RequestMeta, visitor: VisitorQuery, input: RegisterInput) {
  await visitor("select app_hidden.assert_api_scope('auth:register')");
  await rateLimit(deps, `register:ip:${meta.ip}`, 10, "1 hour");
  const email = normalisedEmail(input.email);
  let passwordHash: string | null = null;
  if (input.password != null) {
    const violation = passwordPolicyViolation(input.password, email);
    if (violation) throw userError(violation, "BAD_USER_INPUT");
    passwordHash = await hashPassword(input.password);
  }
  return inOwnerTransaction(deps, async (client) => {
    const {
      rows: [created],
    } = await client.query("select * from app_private.register_user($1, $2, $3, $4, $5, $6)", [
      email,
      input.displayName ?? null,
      passwordHash,
      input.organizationName ?? null,
      input.environmentName ?? null,
      meta.requestUuid,
    ]);
    const token = randomSecret(ONE_TIME_TOKEN_PREFIX);
    await client.query("select app_private.create_user_token($1, 'verify_email', $2, interval '7 days')", [
      email,
      sha256(token),
    ]);
    await queueEmail(client, email, mails.verifyEmail(link(deps, "/auth/verify-email", token)));
    return {
      userUuid: created.user_uuid as string,
      organizationUuid: created.organization_uuid as string,
      environmentUuid: created.environment_uuid as string,
    };
  });
}

export async function login(
  deps: AccountDeps,
  meta: RequestMeta,
  visitor: VisitorQuery,
  email: string,
  password: string,
) {
  await visitor("select app_hidden.assert_api_scope('auth:login')");
  await rateLimit(deps, `login:ip:${meta.ip}`, 30, "5 minutes");
  // No password is longer than the policy allows; refusing huge inputs keeps argon2 from being a lever.
  if (password.length > PASSWORD_MAX_LENGTH * 4) throw userError(WRONG_CREDENTIALS, "INVALID_CREDENTIALS");
  const [candidate] = await owner(deps, "select * from app_private.login_candidate($1)", [normalisedEmail(email)]);
  // Always verify, also for unknown addresses, so both answers take the same time.
  const valid = await verifyPassword(candidate.password_hash, password);
  if (candidate.locked_until && candidate.locked_until > new Date()) {
    throw userError(LOGIN_LOCKED, "RATE_LIMITED");
  }
  if (!valid) {
    // Counted for unknown addresses too, so a lock tells nothing about who has an account.
    await owner(deps, "select app_private.login_failed($1)", [normalisedEmail(email)]);
    throw userError(WRONG_CREDENTIALS, "INVALID_CREDENTIALS");
  }
  const session = await startSession(deps, candidate.user_uuid, meta);
  return {
    userUuid: candidate.user_uuid as string,
    token: session.accessToken,
    refreshToken: session.refreshToken,
    message: "Logged in.",
  };
}

export async function refresh(deps: AccountDeps, bearer: string | undefined): Promise<IssuedTokens> {
  if (!bearer) throw userError(NOT_AUTHENTICATED, "UNAUTHENTICATED");
  if (looksLikeJwt(bearer)) {
    throw userError("An access token cannot refresh: send the refresh token as Bearer.", "UNAUTHENTICATED");
  }
  if (!hasSecretShape(bearer, REFRESH_TOKEN_PREFIX)) throw userError(REFRESH_REFUSALS.invalid, "UNAUTHENTICATED");
  const refreshToken = randomSecret(REFRESH_TOKEN_PREFIX);
  const [rotated] = await owner(
    deps,
    "select outcome, session_uuid, user_uuid from app_private.rotate_refresh_token($1, $2, make_interval(days => $3))",
    [sha256(bearer), sha256(refreshToken), SESSION_DAYS],
  );
  if (rotated.outcome !== "rotated")
    throw userError(REFRESH_REFUSALS[rotated.outcome as keyof typeof REFRESH_REFUSALS], "UNAUTHENTICATED");
  return {
    accessToken: signAccessToken(deps.jwtSecret, { userUuid: rotated.user_uuid, sessionUuid: rotated.session_uuid }),
    refreshToken,
    expiresIn: ACCESS_TOKEN_SECONDS,
  };
}

/**
 * Like an OAuth redirect URI: absolute, https on an allowed origin (MAGIC_LINK_ALLOWED_ORIGINS, and
 * the service's own PUBLIC_URL, whose web console signs in this way), or http on localhost.
 */
export function isAllowedReturnTo(deps: AccountDeps, returnTo: string): boolean {
  let url: URL;
  try {
    url = new URL(returnTo);
  } catch {
    return false;
  }
  if (url.hash || url.username || url.password) return false;
  if (url.protocol === "http:" && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)) return true;
  const own = new URL(deps.publicUrl).origin;
  return url.protocol === "https:" && (url.origin === own || deps.magicLinkAllowedOrigins.includes(url.origin));
}

export async function requestMagicLink(
  deps: AccountDeps,
  meta: RequestMeta,
  visitor: VisitorQuery,
  email: string,
  returnTo: string,
  locale: Locale,
): Promise<string> {
  await visitor("select app_hidden.assert_api_scope('auth:login')");
  if (!isAllowedReturnTo(deps, returnTo)) {
    throw userError(
      "returnTo must be an absolute https URL of an allowed origin (or http on localhost), without a fragment.",
      "BAD_USER_INPUT",
    );
  }
  const address = normalisedEmail(email);
  await rateLimit(deps, `magic_link:ip:${meta.ip}`, 20, "1 hour");
  await rateLimit(deps, `magic_link:address:${address}`, 5, "1 hour");
  await sendOneTimeLink(deps, address, "magic_link", "15 minutes", "/auth/magic-link", mails.magicLink, returnTo);
  return MAGIC_LINK_ANSWER[locale];
}

async function sendOneTimeLink(
  deps: AccountDeps,
  address: string,
  purpose: string,
  lifetime: string,
  path: string,
  mail: (url: string) => { subject: string; text: string },
  returnTo: string | null = null,
): Promise<void> {
  const token = randomSecret(ONE_TIME_TOKEN_PREFIX);
  await inOwnerTransaction(deps, async (client) => {
    const {
      rows: [row],
    } = await client.query("select app_private.create_user_token($1, $2, $3, $4::interval, $5) as user_uuid", [
      address,
      purpose,
      sha256(token),
      lifetime,
      returnTo,
    ]);
    if (row.user_uuid) await queueEmail(client, address, mail(link(deps, path, token)));
  });
}

/** Following a magic link: a new session, and where to send the browser with its tokens. */
export async function completeMagicLink(deps: AccountDeps, meta: RequestMeta, token: string): Promise<string> {
  if (!hasSecretShape(token, ONE_TIME_TOKEN_PREFIX))
    throw userError("This link is invalid, expired or already used.", "UNAUTHENTICATED");
  const [used] = await owner(deps, "select * from app_private.consume_user_token($1, 'magic_link')", [sha256(token)]);
  if (!isAllowedReturnTo(deps, used.return_to))
    throw userError("The return address is no longer allowed.", "FORBIDDEN");
  const session = await startSession(deps, used.user_uuid, meta);
  const fragment = new URLSearchParams({
    access_token: session.accessToken,
    refresh_token: session.refreshToken,
    expires_in: String(session.expiresIn),
    token_type: "Bearer",
  });
  // Tokens travel in the fragment, which browsers never send to a server or put in a Referer.
  return `${used.return_to}#${fragment}`;
}

export async function verifyEmail(deps: AccountDeps, token: string): Promise<void> {
  if (!hasSecretShape(token, ONE_TIME_TOKEN_PREFIX))
    throw userError("This link is invalid, expired or already used.", "UNAUTHENTICATED");
  await owner(deps, "select app_private.consume_user_token($1, 'verify_email')", [sha256(token)]);
}

export async function requestPasswordReset(
  deps: AccountDeps,
  meta: RequestMeta,
  visitor: VisitorQuery,
  email: string,
): Promise<string> {
  await visitor("select app_hidden.assert_api_scope('auth:password_reset')");
  const address = normalisedEmail(email);
  await rateLimit(deps, `password_reset:ip:${meta.ip}`, 10, "1 hour");
  await rateLimit(deps, `password_reset:address:${address}`, 3, "1 hour");
  await sendOneTimeLink(deps, address, "password_reset", "1 hour", "/auth/reset-password", mails.passwordReset);
  return PASSWORD_RESET_ANSWER;
}

export async function resetPassword(
  deps: AccountDeps,
  meta: RequestMeta,
  token: string,
  newPassword: string,
): Promise<string> {
  await rateLimit(deps, `reset_password:ip:${meta.ip}`, 10, "15 minutes");
  if (!hasSecretShape(token, ONE_TIME_TOKEN_PREFIX))
    throw userError("This link is invalid, expired or already used.", "UNAUTHENTICATED");
  const violation = passwordPolicyViolation(newPassword, "");
  if (violation) throw userError(violation, "BAD_USER_INPUT");
  await owner(deps, "select app_private.reset_password($1, $2)", [sha256(token), await hashPassword(newPassword)]);
  return "Your password has been changed and every session has been ended. Log in with the new password.";
}

export interface ChangePasswordInput {
  currentPassword?: string | null;
  newPassword: string;
}

/**
 * changePassword (issue 32): the signed-in user's new password. The current one is checked as login
 * checks it, and its failures count toward the same per-address lock (app_private.login_failures),
 * so a stolen access token cannot be used to guess the password faster than login allows.
 */
export async function changePassword(
  deps: AccountDeps,
  meta: RequestMeta,
  visitor: VisitorQuery,
  input: ChangePasswordInput,
): Promise<string> {
  // The caller first, as every account operation; the visitor may read its own user row.
  const [me] = await visitor(
    "select app_hidden.require_user_uuid() as uuid," +
      " (select u.email_address::text from app_public.users u where u.uuid = app_hidden.current_user_uuid()) as email",
  );
  await rateLimit(deps, `change_password:ip:${meta.ip}`, 10, "15 minutes");
  const violation = passwordPolicyViolation(input.newPassword, me.email);
  if (violation) throw userError(violation, "BAD_USER_INPUT");
  const [candidate] = await owner(deps, "select * from app_private.login_candidate($1)", [me.email]);
  // A magic-link-only account has no password to confirm: it may set its first one.
  if (candidate.password_hash !== null) {
    if (candidate.locked_until && candidate.locked_until > new Date()) throw userError(LOGIN_LOCKED, "RATE_LIMITED");
    const current = input.currentPassword;
    if (current == null) throw userError(WRONG_CURRENT_PASSWORD, "INVALID_CREDENTIALS");
    if (current.length > PASSWORD_MAX_LENGTH * 4 || !(await verifyPassword(candidate.password_hash, current))) {
      await owner(deps, "select app_private.login_failed($1)", [me.email]);
      throw userError(WRONG_CURRENT_PASSWORD, "INVALID_CREDENTIALS");
    }
  }
  await visitor("select app_accounts.change_password($1, $2)", [
    candidate.password_hash,
    await hashPassword(input.newPassword),
  ]);
  return "Your password is changed; your other sessions are signed out.";
}

export async function switchEnvironment(
  deps: AccountDeps,
  visitor: VisitorQuery,
  session: { userUuid: string; sessionUuid: string } | null,
  environmentUuid: string,
): Promise<IssuedTokens & { environmentUuid: string }> {
  const [row] = await visitor("select app_accounts.set_current_environment($1) as uuid", [environmentUuid]);
  if (!session) throw userError(NOT_AUTHENTICATED, "UNAUTHENTICATED");
  const refreshToken = randomSecret(REFRESH_TOKEN_PREFIX);
  await owner(deps, "select app_private.reissue_refresh_token($1, $2)", [session.sessionUuid, sha256(refreshToken)]);
  return {
    accessToken: signAccessToken(deps.jwtSecret, session),
    refreshToken,
    expiresIn: ACCESS_TOKEN_SECONDS,
    environmentUuid: row.uuid,
  };
}

export async function createUserApiToken(
  visitor: VisitorQuery,
  input: { name: string; scopes?: (string | null)[] | null; validDays?: number | null },
): Promise<{ uuid: string; plainToken: string }> {
  const plainToken = generateApiTokenSecret();
  const [row] = await visitor("select app_accounts.create_api_token($1, $2, $3, $4, $5) as uuid", [
    input.name,
    (input.scopes ?? []).filter((scope): scope is string => scope !== null),
    input.validDays ?? null,
    hashApiTokenSecret(plainToken),
    apiTokenPreview(plainToken),
  ]);
  return { uuid: row.uuid, plainToken };
}
