// Random secrets and their storage form. Every secret we hand out (API tokens, refresh tokens,
// e-mailed one-time tokens) is stored only as its SHA-256.
import { createHash, randomBytes } from "node:crypto";

export function sha256(value: string): Buffer {
  return createHash("sha256").update(value).digest();
}

/** prefix + 43 base64url characters (256 random bits). */
export function randomSecret(prefix: string): string {
  return prefix + randomBytes(32).toString("base64url");
}

export const REFRESH_TOKEN_PREFIX = "nlrt_";
export const ONE_TIME_TOKEN_PREFIX = "nlot_";
const SECRET_BODY = /^[A-Za-z0-9_-]{43}$/;

export function hasSecretShape(value: string, prefix: string): boolean {
  return value.startsWith(prefix) && SECRET_BODY.test(value.slice(prefix.length));
}
