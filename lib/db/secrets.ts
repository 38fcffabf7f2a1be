// Secrets of the embedded default, generated on first start and kept in DATA_DIR/secrets.json
// (mode 0600), so a restart on the same DATA_DIR finds the same passwords.
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import webpush from "web-push";

export interface LocalSecrets {
  superuserPassword: string;
  ownerPassword: string;
  authenticatorPassword: string;
  analystPassword: string;
  /** HS256 key of user access tokens (JWT_SECRET overrides it). */
  jwtSecret: string;
  /** The VAPID key pair of Web Push (VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY override it), base64url. */
  vapidPublicKey: string;
  vapidPrivateKey: string;
}

/**
 * Web Push (RFC 8030/8291/8292): the VAPID key pair the service signs pushes with, and the contact
 * it names. Keys unset: the embedded default generates a pair once and keeps it in
 * DATA_DIR/secrets.json (as the JWT key); with DATABASE_URL, Web Push stays off (webPushFor).
 * lib/config.ts reads it from the environment, as config.delivery.webPush.
 */
export interface WebPushConfig {
  /** VAPID_PUBLIC_KEY: the uncompressed P-256 point, base64url (as `web-push generate-vapid-keys` prints it). */
  publicKey: string | undefined;
  /** VAPID_PRIVATE_KEY: the 32-byte P-256 private key, base64url. */
  privateKey: string | undefined;
  /** VAPID_SUBJECT: the operator's mailto: or https: contact, which push services may use. */
  subject: string;
}

/** Where the settings put the database (DatabaseConfig's url and dataDir): the secrets kept are the embedded default's. */
interface DatabasePlace {
  url: string | undefined;
  dataDir: string;
}

const newSecret = () => randomBytes(24).toString("base64url");

export function loadOrCreateSecrets(dataDir: string): LocalSecrets {
  const file = path.join(dataDir, "secrets.json");
  const existing: Partial<LocalSecrets> = fs.existsSync(file) ? JSON.parse(fs.readFileSync(file, "utf8")) : {};
  // Generated as a pair: a lone half (an edited file) is replaced with both.
  const vapid =
    existing.vapidPublicKey && existing.vapidPrivateKey
      ? { publicKey: existing.vapidPublicKey, privateKey: existing.vapidPrivateKey }
      : webpush.generateVAPIDKeys();
  const secrets: LocalSecrets = {
    superuserPassword: existing.superuserPassword ?? newSecret(),
    ownerPassword: existing.ownerPassword ?? newSecret(),
    authenticatorPassword: existing.authenticatorPassword ?? newSecret(),
    analystPassword: existing.analystPassword ?? newSecret(),
    jwtSecret: existing.jwtSecret ?? randomBytes(48).toString("base64url"),
    vapidPublicKey: vapid.publicKey,
    vapidPrivateKey: vapid.privateKey,
  };
  if (JSON.stringify(existing) !== JSON.stringify(secrets)) {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o755 });
    fs.writeFileSync(file, JSON.stringify(secrets, null, 2) + "\n", { mode: 0o600 });
  }
  return secrets;
}

/** JWT_SECRET, or for the embedded default the key kept in DATA_DIR. */
export function jwtSecretFor(config: { accounts: { jwtSecret: string | undefined }; database: DatabasePlace }): string {
  if (config.accounts.jwtSecret) return config.accounts.jwtSecret;
  if (config.database.url) {
    throw new Error(
      "JWT_SECRET is required with DATABASE_URL (at least 32 random characters, the same on every instance).",
    );
  }
  return loadOrCreateSecrets(config.database.dataDir).jwtSecret;
}

/**
 * The Web Push settings to send with: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY, or for the embedded
 * default the pair kept in DATA_DIR. With DATABASE_URL and no keys, Web Push is off (the keys stay
 * unset): the service starts, webPushPublicKey answers null, and webpush channels cannot be created
 * nor delivered to. Unlike JWT_SECRET, not every installation wants browser push, and a pair made
 * up per instance would break every subscription on the next start or on the other instances.
 */
export function webPushFor(config: { delivery: { webPush: WebPushConfig }; database: DatabasePlace }): WebPushConfig {
  const { webPush } = config.delivery;
  if (webPush.publicKey || config.database.url) return webPush;
  const secrets = loadOrCreateSecrets(config.database.dataDir);
  return { ...webPush, publicKey: secrets.vapidPublicKey, privateKey: secrets.vapidPrivateKey };
}
