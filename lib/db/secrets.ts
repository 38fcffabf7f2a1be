// Secrets of the embedded default, generated on first start and kept in DATA_DIR/secrets.json
// (mode 0600), so a restart on the same DATA_DIR finds the same passwords.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Config } from "../config.ts";

export interface LocalSecrets {
  superuserPassword: string;
  ownerPassword: string;
  authenticatorPassword: string;
  analystPassword: string;
  /** HS256 key of user access tokens (JWT_SECRET overrides it). */
  jwtSecret: string;
}

const newSecret = () => randomBytes(24).toString("base64url");

export function loadOrCreateSecrets(dataDir: string): LocalSecrets {
  const file = path.join(dataDir, "secrets.json");
  const existing: Partial<LocalSecrets> = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
  const secrets: LocalSecrets = {
    superuserPassword: existing.superuserPassword ?? newSecret(),
    ownerPassword: existing.ownerPassword ?? newSecret(),
    authenticatorPassword: existing.authenticatorPassword ?? newSecret(),
    analystPassword: existing.analystPassword ?? newSecret(),
    jwtSecret: existing.jwtSecret ?? randomBytes(48).toString("base64url"),
  };
  if (JSON.stringify(existing) !== JSON.stringify(secrets)) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o755 });
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2) + "\n", { mode: 0o600 });
  }
  return secrets;
}

/** JWT_SECRET, or for the embedded default the key kept in DATA_DIR. */
export function jwtSecretFor(config: Pick<Config, "accounts" | "database">): string {
  if (config.accounts.jwtSecret) return config.accounts.jwtSecret;
  if (config.database.url) {
    throw new Error(
      "JWT_SECRET is required with DATABASE_URL (at least 32 random characters, the same on every instance).",
    );
  }
  return loadOrCreateSecrets(config.database.dataDir).jwtSecret;
}
