// Web Push's VAPID settings, kept as the JWT key is: VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY as
// given (checked at start), else the embedded default's pair generated once into
// DATA_DIR/secrets.json and found again on the next start; with DATABASE_URL and no keys, Web Push
// is off. VAPID_SUBJECT defaults to an https public URL, else MAIL_FROM's address.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, test } from "@jest/globals";
import webpush from "web-push";
import { loadConfig } from "../../lib/config.ts";
import { webPushFor } from "../../lib/db/secrets.ts";

const VARIABLES = ["VAPID_PUBLIC_KEY", "VAPID_PRIVATE_KEY", "VAPID_SUBJECT", "PUBLIC_URL", "MAIL_FROM"];

/** loadConfig().delivery.webPush with these variables set (and the others unset). */
function webPushConfig(env: Record<string, string>) {
  const saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
  for (const name of VARIABLES) delete process.env[name];
  Object.assign(process.env, env);
  try {
    return loadConfig().delivery.webPush;
  } finally {
    for (const name of VARIABLES) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
  }
}

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});
const dataDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "vapid-"));
  dirs.push(dir);
  return dir;
};

describe("the VAPID keys", () => {
  test("the embedded default generates a pair once and keeps it in DATA_DIR/secrets.json", () => {
    const dir = dataDir();
    const config = { delivery: { webPush: webPushConfig({}) }, database: { url: undefined, dataDir: dir } };
    const first = webPushFor(config);
    expect(Buffer.from(first.publicKey!, "base64url")).toHaveLength(65);
    expect(Buffer.from(first.privateKey!, "base64url")).toHaveLength(32);
    const kept = JSON.parse(fs.readFileSync(path.join(dir, "secrets.json"), "utf8"));
    expect(kept).toMatchObject({ vapidPublicKey: first.publicKey, vapidPrivateKey: first.privateKey });
    expect(fs.statSync(path.join(dir, "secrets.json")).mode & 0o777).toBe(0o600);
    // The next start finds the same pair: browsers' subscriptions stay valid.
    expect(webPushFor(config)).toEqual(first);
    // It signs: web-push accepts the pair.
    expect(() =>
      webpush.getVapidHeaders("https://push.example", first.subject, first.publicKey!, first.privateKey!, "aes128gcm"),
    ).not.toThrow();
  });

  test("given keys win; with DATABASE_URL and none given, Web Push is off", () => {
    const keys = webpush.generateVAPIDKeys();
    const given = webPushConfig({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey });
    const dir = dataDir();
    expect(webPushFor({ delivery: { webPush: given }, database: { url: undefined, dataDir: dir } })).toMatchObject(
      keys,
    );
    expect(fs.existsSync(path.join(dir, "secrets.json"))).toBe(false);
    const none = webPushFor({
      delivery: { webPush: webPushConfig({}) },
      database: { url: "postgres://db.example/incidents", dataDir: dir },
    });
    expect(none).toMatchObject({ publicKey: undefined, privateKey: undefined });
    expect(fs.existsSync(path.join(dir, "secrets.json"))).toBe(false);
  });

  test("a lone key or one that is not a P-256 pair stops the start with a clear error", () => {
    const keys = webpush.generateVAPIDKeys();
    expect(() => webPushConfig({ VAPID_PUBLIC_KEY: keys.publicKey })).toThrow(/set both or neither/);
    expect(() => webPushConfig({ VAPID_PUBLIC_KEY: keys.privateKey, VAPID_PRIVATE_KEY: keys.privateKey })).toThrow(
      /P-256 key pair in base64url/,
    );
  });
});

describe("VAPID_SUBJECT", () => {
  test("defaults to an https public URL, else MAIL_FROM's address; must be mailto: or https:", () => {
    expect(webPushConfig({ PUBLIC_URL: "https://incidents.example.nl/" }).subject).toBe("https://incidents.example.nl");
    expect(
      webPushConfig({ PUBLIC_URL: "http://localhost:5678", MAIL_FROM: "NL incidents <ops@example.nl>" }).subject,
    ).toBe("mailto:ops@example.nl");
    expect(webPushConfig({ VAPID_SUBJECT: "mailto:push@example.nl" }).subject).toBe("mailto:push@example.nl");
    expect(() => webPushConfig({ VAPID_SUBJECT: "push@example.nl" })).toThrow(/VAPID_SUBJECT must be a mailto:/);
  });
});
