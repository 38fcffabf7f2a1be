// The secret of a monitor's feed URL (a capability URL: feed readers and Home Assistant cannot send
// an Authorization header). Made and hashed like every other secret we hand out
// (lib/auth/secret-tokens.ts): 256 random bits behind a recognisable prefix, only the SHA-256
// stored. The prefix lets secret scanners spot a leaked feed URL, and a value without the shape
// is refused without a database round trip.
import { hasSecretShape, randomSecret, sha256 } from "../auth/secret-tokens.ts";

export const FEED_SECRET_PREFIX = "nlfd_";

/** The path of the feeds under the service's public URL: <base>/<secret>.atom, .geojson and .ics. */
export const FEED_PATH = "/feeds/monitors";

export const FEED_FORMATS = ["atom", "geojson", "ics"] as const;
export type FeedFormat = (typeof FEED_FORMATS)[number];

export function newFeedSecret(): string {
  return randomSecret(FEED_SECRET_PREFIX);
}

export const hashFeedSecret = sha256;

export function isFeedSecret(value: string): boolean {
  return hasSecretShape(value, FEED_SECRET_PREFIX);
}

/** The feed's URL in a format, under the service's public URL (PUBLIC_URL). */
export function feedUrl(publicUrl: string, secret: string, format: FeedFormat): string {
  return `${publicUrl}${FEED_PATH}/${secret}.${format}`;
}

/** The secret and format of a feed path's last segment (`<secret>.atom`), or undefined. */
export function parseFeedFile(file: string): { secret: string; format: FeedFormat } | undefined {
  const dot = file.lastIndexOf(".");
  const secret = file.slice(0, dot);
  const format = file.slice(dot + 1) as FeedFormat;
  return dot > 0 && FEED_FORMATS.includes(format) && isFeedSecret(secret) ? { secret, format } : undefined;
}
