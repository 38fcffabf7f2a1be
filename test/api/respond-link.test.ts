// respondLink (issue 44): what the respond page asks as it opens. Over real HTTP, with no login and
// no API token (the link's signed token is the credential, as for respondOnTheWay): a valid link
// answers its incident, expiry and the recipient's current answer and records nothing; a tampered,
// forged or expired link answers UNAUTHENTICATED in respondOnTheWay's words, and a link whose
// notification is gone NOT_FOUND; respondOnTheWay still answers the same link.
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { startMailSink, type MailSink } from "../helpers/mail-sink.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { respondLinkByMail } from "../helpers/respond-links.ts";
import { signUp, type TestUser } from "../helpers/users.ts";

let mail: MailSink;
beforeAll(async () => {
  mail = await startMailSink();
});
const ctx = useTestService(() => ({ delivery: { smtpUrl: mail.url } }));
afterAll(async () => {
  await mail?.stop();
});

const LINK = "query ($t: String!) { respondLink(token: $t) { dossierUuid messageUuid expiresAt status } }";
const RESPOND = "mutation ($t: String!, $s: String!) { respondOnTheWay(token: $t, status: $s) { status recipient } }";

let ada: TestUser;
let token: string;

async function gql(query: string, variables: Record<string, unknown>, auth?: string) {
  return (await ctx.service.graphql(query, { token: auth, variables })).body;
}
async function storedResponders(): Promise<number> {
  const { rows } = await ctx.db.asOwner<{ count: string }>("select count(*) from app_public.alert_responders");
  return Number(rows[0].count);
}
/** The token's payload claims: notification, monitor, incident, channel, expiry (epoch seconds). */
function claimsOf(value: string): string[] {
  return Buffer.from(value.split(".")[0], "base64url").toString().split(".");
}
/** A token of this notification signed with the installation's responder key, expiring at `expiry`. */
async function signedToken(expiry: string): Promise<string> {
  const { rows } = await ctx.db.asOwner<{ token: string }>(
    `with payload as (
       select convert_to(concat_ws('.', n.uuid, n.monitor_uuid, coalesce(n.dossier_uuid, n.message_uuid), n.channel_uuid,
                                   extract(epoch from ${expiry})::bigint), 'UTF8') as bytes
         from app_private.notifications n where n.uuid = $1)
     select translate(encode(p.bytes, 'base64'), E'+/=\\n', '-_') || '.'
         || translate(encode(public.hmac(p.bytes, k.key, 'sha256'), 'base64'), E'+/=\\n', '-_') as token
       from payload p, app_private.signing_keys k where k.purpose = 'responder'`,
    [claimsOf(token)[0]],
  );
  return rows[0].token;
}

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org", { admin: true });
  const { link } = await respondLinkByMail(ctx.service, mail, ada);
  token = link.searchParams.get("token")!;
});

describe("respondLink", () => {
  test("a valid link answers its incident and expiry, without a login or API token, and records nothing", async () => {
    const {
      rows: [notification],
    } = await ctx.db.asOwner<{ dossier_uuid: string | null; message_uuid: string | null }>(
      "select dossier_uuid, message_uuid from app_private.notifications where uuid = $1",
      [claimsOf(token)[0]],
    );
    const body = await gql(LINK, { t: token });
    expect(body.errors).toBeUndefined();
    expect(body.data.respondLink).toEqual({
      dossierUuid: notification.dossier_uuid,
      messageUuid: notification.message_uuid,
      expiresAt: new Date(Number(claimsOf(token)[4]) * 1000).toISOString(),
      status: null,
    });
    // The incident the link names is the one it answers.
    expect([body.data.respondLink.dossierUuid ?? body.data.respondLink.messageUuid]).toEqual([claimsOf(token)[2]]);
    // The same with the page's credential (an API token) and asked again: still nothing recorded.
    expect((await gql(LINK, { t: token }, ada.apiToken)).data.respondLink.status).toBeNull();
    expect(await storedResponders()).toBe(0);
  });

  test("a tampered, forged, cut-off or expired link answers UNAUTHENTICATED in respondOnTheWay's words", async () => {
    const [payload, signature] = token.split(".");
    const claims = claimsOf(token);
    claims[4] = String(Number(claims[4]) + 365 * 24 * 3600);
    const notValid = [
      `${Buffer.from(claims.join(".")).toString("base64url")}.${signature}`, // expiry pushed back a year
      `${payload}.${"A".repeat(43)}`, // a forged signature of the right form
      token.slice(0, 30),
      "nonsense",
    ];
    for (const bad of notValid) {
      for (const query of [LINK, RESPOND]) {
        expect(errorOf(await gql(query, { t: bad, s: "going" }))).toEqual({
          message: "This respond link is not valid.",
          code: "UNAUTHENTICATED",
        });
      }
    }
    const expired = await signedToken("now() - interval '1 minute'");
    for (const query of [LINK, RESPOND]) {
      expect(errorOf(await gql(query, { t: expired, s: "going" }))).toEqual({
        message: "This respond link has expired.",
        code: "UNAUTHENTICATED",
      });
    }
    expect(await storedResponders()).toBe(0);
  });

  test("respondOnTheWay still answers the link, and respondLink then says the recipient's current answer", async () => {
    for (const status of ["going", "cancelled", "going"]) {
      const answered = await gql(RESPOND, { t: token, s: status });
      expect(answered.errors).toBeUndefined();
      expect(answered.data.respondOnTheWay).toEqual({ status, recipient: "responder@example.org" });
      expect((await gql(LINK, { t: token })).data.respondLink.status).toBe(status);
    }
    expect(await storedResponders()).toBe(1);
  });

  test("a link whose notification no longer exists answers NOT_FOUND, for both", async () => {
    await ctx.db.asOwner("delete from app_private.notifications where uuid = $1", [claimsOf(token)[0]]);
    for (const query of [LINK, RESPOND]) {
      expect(errorOf(await gql(query, { t: token, s: "going" }))).toEqual({
        message: "This respond link belongs to a notification that no longer exists.",
        code: "NOT_FOUND",
      });
    }
  });
});
