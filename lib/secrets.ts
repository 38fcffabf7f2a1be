// Secrets of the embedded default, generated on first start and kept in DATA_DIR/secrets.json
// (mode 0600), so a restart on the same DATA_DIR finds the same passwords.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

export interface LocalSecrets {
  superuserPassword: string;
  ownerPassword: string;
  authenticatorPassword: string;
  analystPassword: string;
}

const newSecret = () => randomBytes(24).toString("base64url");

export function loadOrCreateSecrets(dataDir: string): LocalSecrets {
  const file = path.join(dataDir, "secrets.json");
  const existing: Partial<LocalSecrets> = fs.existsSync(file)
    ? JSON.parse(fs.readFileSync(file, "utf8"))
    : {};
  const secrets: LocalSecrets = {
    superuserPassword: existing.superuserPassword ?? newSecret(),
    ownerPassword: existing.ownerPassword ?? newSecret(),
    authenticatorPassword: existing.authenticatorPassword ?? newSecret(),
    analystPassword: existing.analystPassword ?? newSecret(),
  };
  if (JSON.stringify(existing) !== JSON.stringify(secrets)) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o755 });
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2) + "\n", { mode: 0o600 });
  }
  return secrets;
}
