// The id in a share page's address (docs/open-data.md#share-pages): the record's uuid as 22
// base64url characters, the shortest form that is still the uuid itself, so an id is permanent
// (no table of ids to keep or lose) and a link stays short in a chat. The uuid's usual 36-character
// form is accepted too and answered with a permanent redirect to the short one, as is a short id
// spelled with the unused low bits of its last character set (the same uuid): one canonical address
// per record.
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const SHORT_ID = /^[A-Za-z0-9_-]{22}$/;

/** The short id of a uuid. */
export function shortId(uuid: string): string {
  return Buffer.from(uuid.replaceAll("-", ""), "hex").toString("base64url");
}

/** The uuid of a short id (which SHORT_ID has checked). */
function uuidOf(id: string): string {
  const hex = Buffer.from(id, "base64url").toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export type ParsedId =
  /** The canonical short id. */
  | { kind: "short"; uuid: string }
  /** Another spelling of a uuid: redirect to `id`. */
  | { kind: "other"; uuid: string; id: string }
  | { kind: "malformed" };

export function parseShareId(text: string): ParsedId {
  if (UUID.test(text)) {
    const uuid = text.toLowerCase();
    return { kind: "other", uuid, id: shortId(uuid) };
  }
  if (!SHORT_ID.test(text)) return { kind: "malformed" };
  const uuid = uuidOf(text);
  const id = shortId(uuid);
  return id === text ? { kind: "short", uuid } : { kind: "other", uuid, id };
}
