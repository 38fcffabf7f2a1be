// Passwords: argon2id with OWASP's minimum parameters (19 MiB, t=2, p=1) and a small policy.
import argon2 from "argon2";

const OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, OPTIONS);
}

// Unknown users and users without a password are checked against this hash too, so a wrong
// e-mail address takes as long as a wrong password.
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
  dummyHash ??= hashPassword("dummy password for equal timing");
  const valid = await argon2.verify(hash ?? (await dummyHash), password);
  return hash !== null && valid;
}

/** Why the password is not acceptable, or null when it is. */
export function passwordPolicyViolation(password: string, email: string): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `A password needs at least ${PASSWORD_MIN_LENGTH} characters.`;
  if (length > PASSWORD_MAX_LENGTH) return `A password has at most ${PASSWORD_MAX_LENGTH} characters.`;
  if (new Set(password).size < 4) return "A password needs at least 4 different characters.";
  const localPart = email.trim().toLowerCase().split("@")[0];
  if (localPart.length >= 4 && password.toLowerCase().includes(localPart)) {
    return "A password must not contain your e-mail address.";
  }
  return null;
}
