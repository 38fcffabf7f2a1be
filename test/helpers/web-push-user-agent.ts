// The browser's side of Web Push, for the tests and the burst bench that play a push service: a
// subscription's keys, a push's decryption (RFC 8291 §3.4 with RFC 8188's aes128gcm, one record, as
// a push message is) and the check of its VAPID token (RFC 8292), all with node:crypto rather than
// the library that encrypted and signed them. Each throws on what does not hold.
import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from "node:crypto";

/** What a browser keeps of a subscription: its ECDH key pair and auth secret, and what it gives the server. */
export interface BrowserKeys {
  ecdh: ECDH;
  auth: Buffer;
  /** PushSubscription.toJSON().keys */
  keys: { p256dh: string; auth: string };
}

export function browserKeys(): BrowserKeys {
  const ecdh = createECDH("prime256v1");
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, keys: { p256dh: ecdh.getPublicKey().toString("base64url"), auth: auth.toString("base64url") } };
}

/** The push's plain text. */
export function decryptPush(browser: BrowserKeys, body: Buffer): string {
  const salt = body.subarray(0, 16);
  const recordSize = body.readUInt32BE(16);
  const idLength = body[20];
  if (idLength !== 65) throw new Error(`the key id is ${idLength} bytes, not an uncompressed P-256 point's 65`);
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  if (ciphertext.length > recordSize) throw new Error("more than one record");
  const keyInfo = Buffer.concat([Buffer.from("WebPush: info\0"), browser.ecdh.getPublicKey(), serverPublic]);
  const ikm = Buffer.from(hkdfSync("sha256", browser.ecdh.computeSecret(serverPublic), browser.auth, keyInfo, 32));
  const cek = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: aes128gcm\0"), 16));
  const nonce = Buffer.from(hkdfSync("sha256", ikm, salt, Buffer.from("Content-Encoding: nonce\0"), 12));
  const decipher = createDecipheriv("aes-128-gcm", cek, nonce);
  decipher.setAuthTag(ciphertext.subarray(-16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, -16)), decipher.final()]);
  // The last record ends with the delimiter 2, then zero padding.
  let end = padded.length - 1;
  while (padded[end] === 0) end--;
  if (padded[end] !== 2) throw new Error("no last-record delimiter");
  return padded.subarray(0, end).toString("utf8");
}

/**
 * The claims of `Authorization: vapid t=<JWT>, k=<key>`, once its header says ES256, its key is
 * `publicKey` and its signature holds for that key.
 */
export function vapidClaims(authorization: string, publicKey: string): { aud: string; exp: number; sub: string } {
  const match = /^vapid t=([\w-]+)\.([\w-]+)\.([\w-]+), k=([\w-]+)$/.exec(authorization);
  if (!match) throw new Error(`not a VAPID token: ${authorization}`);
  const [, header, claims, signature, k] = match;
  if (k !== publicKey) throw new Error("a VAPID token of another key");
  if (JSON.parse(Buffer.from(header, "base64url").toString()).alg !== "ES256") throw new Error("not ES256");
  const point = Buffer.from(k, "base64url");
  const key = createPublicKey({
    key: {
      kty: "EC",
      crv: "P-256",
      x: point.subarray(1, 33).toString("base64url"),
      y: point.subarray(33).toString("base64url"),
    },
    format: "jwk",
  });
  const signed = Buffer.from(`${header}.${claims}`);
  if (!verify("sha256", signed, { key, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url")))
    throw new Error("a VAPID signature that does not hold");
  return JSON.parse(Buffer.from(claims, "base64url").toString());
}
