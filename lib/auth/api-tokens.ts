// API token secrets: `nlis_` + 40 random base62 characters + a 6-character CRC-32 checksum. The
// prefix makes leaked tokens recognisable to secret scanners, the checksum lets the server reject
// mistyped or made-up tokens without a database round trip, and only a SHA-256 hash is stored.
import { randomBytes } from "node:crypto";
import { crc32 } from "node:zlib";
import type pg from "pg";
import { sha256 } from "./secret-tokens.ts";

export const API_TOKEN_PREFIX = "nlis_";

/** The scope of a receiver's token (createP2000Receiver): it publishes P2000 pages and reads nothing. */
export const RECEIVER_SCOPE = "p2000:publish";

/** The scope of a station screen's credential (claimStationScreen): it reads its screen and the public feeds. */
export const SCREEN_SCOPE = "screen:read";
const BODY_LENGTH = 40;
const CHECKSUM_LENGTH = 6;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const TOKEN_PATTERN = new RegExp(`^${API_TOKEN_PREFIX}[0-9A-Za-z]{${BODY_LENGTH + CHECKSUM_LENGTH}}$`);

function base62(value: number, length: number): string {
  let out = "";
  for (let i = 0; i < length; i++) {
    out = BASE62[value % 62] + out;
    value = Math.floor(value / 62);
  }
  return out;
}

function checksum(body: string): string {
  return base62(crc32(body), CHECKSUM_LENGTH);
}

export function generateApiTokenSecret(): string {
  // Rejection sampling keeps every character uniformly distributed (256 is not a multiple of 62).
  let body = "";
  while (body.length < BODY_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && body.length < BODY_LENGTH) body += BASE62[byte % 62];
    }
  }
  return API_TOKEN_PREFIX + body + checksum(body);
}

/** True when the value has the shape and checksum of one of our secrets. */
export function isWellFormedApiTokenSecret(value: string): boolean {
  if (!TOKEN_PATTERN.test(value)) return false;
  const body = value.slice(API_TOKEN_PREFIX.length, API_TOKEN_PREFIX.length + BODY_LENGTH);
  return checksum(body) === value.slice(-CHECKSUM_LENGTH);
}

export const hashApiTokenSecret = sha256;

export function apiTokenPreview(secret: string): string {
  return `${API_TOKEN_PREFIX}…${secret.slice(-4)}`;
}

export interface ApiTokenRow {
  uuid: string;
  environment_uuid: string;
  name: string;
  token_preview: string;
  scopes: string[];
  expires_at: Date | null;
  revoked_at: Date | null;
  last_used_at: Date | null;
  created: Date;
}

export interface NewApiToken {
  environmentUuid: string;
  name: string;
  scopes: string[];
  validDays?: number | null;
}

/** Creates a token through app_private.create_api_token; the plain secret is returned only here. */
export async function createApiToken(
  db: pg.ClientBase | pg.Pool,
  token: NewApiToken,
): Promise<{ token: ApiTokenRow; plainToken: string }> {
  const plainToken = generateApiTokenSecret();
  const {
    rows: [row],
  } = await db.query<ApiTokenRow>("select * from app_private.create_api_token($1, $2, $3, $4, $5, $6)", [
    token.environmentUuid,
    token.name,
    token.scopes,
    token.validDays ?? null,
    hashApiTokenSecret(plainToken),
    apiTokenPreview(plainToken),
  ]);
  return { token: row, plainToken };
}

export async function listApiTokens(db: pg.ClientBase | pg.Pool): Promise<ApiTokenRow[]> {
  const { rows } = await db.query<ApiTokenRow>("select * from app_public.api_tokens order by created, uuid");
  return rows;
}

export async function revokeApiToken(db: pg.ClientBase | pg.Pool, uuid: string): Promise<ApiTokenRow> {
  const {
    rows: [row],
  } = await db.query<ApiTokenRow>("select * from app_private.revoke_api_token($1)", [uuid]);
  return row;
}

/**
 * Every scope an API token may hold: the development token of the first start holds them all. Not
 * a receiver's (it would make the token publish pages and read nothing), nor a station screen's (it
 * would limit the token's monitors to a screen's).
 */
export async function allScopes(db: pg.ClientBase | pg.Pool): Promise<string[]> {
  const { rows } = await db.query<{ name: string }>(
    "select name from app_public.api_scopes where name <> all ($1) order by name",
    [[RECEIVER_SCOPE, SCREEN_SCOPE]],
  );
  return rows.map((row) => row.name);
}
