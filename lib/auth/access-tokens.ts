// User access tokens: short-lived JWTs (HS256 only, issuer and audience checked) that carry the
// session uuid. The session row decides whether the token still counts (lib/auth/context.ts).
import jwt from "jsonwebtoken";

export const ACCESS_TOKEN_SECONDS = 15 * 60;
export const SESSION_DAYS = 30;
const ISSUER = "nl-incident-service";
const AUDIENCE = "nl-incident-service:api";

export interface AccessClaims {
  userUuid: string;
  sessionUuid: string;
}

export function looksLikeJwt(value: string): boolean {
  return /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*$/.test(value);
}

export function signAccessToken(secret: string, claims: AccessClaims): string {
  return jwt.sign({ sid: claims.sessionUuid, typ: "access" }, secret, {
    algorithm: "HS256",
    expiresIn: ACCESS_TOKEN_SECONDS,
    issuer: ISSUER,
    audience: AUDIENCE,
    subject: claims.userUuid,
  });
}

/** The claims of a valid access token; null for anything else (expired, forged, alg none, …). */
export function verifyAccessToken(secret: string, token: string): AccessClaims | null {
  try {
    const payload = jwt.verify(token, secret, { algorithms: ["HS256"], issuer: ISSUER, audience: AUDIENCE });
    if (typeof payload !== "object" || payload.typ !== "access" || typeof payload.sid !== "string" || !payload.sub) {
      return null;
    }
    return { userUuid: payload.sub, sessionUuid: payload.sid };
  } catch {
    return null;
  }
}
