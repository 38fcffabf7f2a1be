// P2000 pages in words a person understands (issue 45): P2000Message.plainText(language) from the
// table app_public.p2000_plain_words (data/p2000-plain-words.csv, loaded on start), which a DBA can
// extend without losing their rows to the next start; and the same words in a notification, in the
// monitor's notificationRules.language, here a webhook's payload.
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { ROOT_DIR } from "../../lib/paths.ts";
import { loadPlainWords } from "../../lib/p2000/plain-words.ts";
import { graphqlCalls } from "../helpers/graphql-calls.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

let hooks: WebhookReceiver;
beforeAll(async () => {
  hooks = await startWebhookReceiver();
});
const ctx = useTestService(() => ({ delivery: { allowPrivateTargets: true } }));
afterAll(async () => {
  await hooks?.stop();
});
let ada: TestUser;

const { gql, ok } = graphqlCalls(ctx);

/** Stores a page (now, to a capcode of its service) and reads it back in plain Dutch and English. */
async function plain(message: string, capcode: string): Promise<{ nl: string; en: string; uuid: string }> {
  const { createP2000Message } = await ok(
    "mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid } }",
    ada.accessToken,
    { i: { message, sended: new Date().toISOString(), capcodes: [{ name: capcode }] } },
  );
  const { p2000Message } = await ok(
    'query ($u: String!) { p2000Message(uuid: $u) { nl: plainText en: plainText(language: "en") } }',
    ada.apiToken,
    { u: createP2000Message.uuid },
  );
  return { ...p2000Message, uuid: createP2000Message.uuid };
}

const FIRE = "001400101";
const AMBULANCE = "001420007";

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org", { admin: true });
});

describe("plainText", () => {
  test.each([
    [
      "P 1 BRT-01 BR woning Toscalaan Hoogvliet Rotterdam 173151 171631 173131",
      FIRE,
      "Prio 1 woningbrand, Toscalaan, Rotterdam",
      "Priority 1 house fire, Toscalaan, Rotterdam",
    ],
    [
      "P 2 BDH-02 BR container (Ondergronds) Brueghelstraat 's-Gravenhage 159531",
      FIRE,
      "Prio 2 containerbrand, ondergronds, Brueghelstraat, Den Haag",
      "Priority 2 container fire, underground, Brueghelstraat, Den Haag",
    ],
    [
      "A2 (DIA: ja) AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 8576",
      AMBULANCE,
      "A2 minder spoed, directe inzet, ambulance, Schiedamseweg, Vlaardingen",
      "A2 less urgent, dispatched immediately, ambulance, Schiedamseweg, Vlaardingen",
    ],
    [
      "P 1 BDH-01 Ongeval wegvervoer A12 Re 45,6 Zoetermeer 151231",
      FIRE,
      "Prio 1 verkeersongeval, A12 rechterrijbaan hectometerpaal 45,6, Zoetermeer",
      "Priority 1 road traffic accident, A12 right-hand carriageway hectometre post 45.6, Zoetermeer",
    ],
    [
      "P 1 BRT-02 GRIP 1 Brand industrie Europaweg Maasvlakte Rotterdam 179491",
      FIRE,
      "Prio 1 industriebrand, GRIP 1 (opgeschaald: commando plaats incident), Europaweg, Rotterdam",
      "Priority 1 industrial fire, GRIP 1 (scaled up: on-scene command team), Europaweg, Rotterdam",
    ],
    [
      "prio 2 bzw-02 dier te water kanaaldijk purmerend 112871",
      FIRE,
      "Prio 2 dier in het water, kanaaldijk, Purmerend",
      "Priority 2 animal in the water, kanaaldijk, Purmerend",
    ],
    // Codes of three capitals or fewer count only as written: "al" is also a Dutch word.
    [
      "P 1 AL TS Brand woning al gemeld Dorpsstraat Oss",
      FIRE,
      "Prio 1 woningbrand, autoladder, tankautospuit (brandweerwagen), Dorpsstraat, Oss",
      "Priority 1 house fire, aerial ladder truck, fire engine, Dorpsstraat, Oss",
    ],
    // Nothing the table knows: the page as sent.
    ["Graag contact opnemen", FIRE, "Graag contact opnemen", "Graag contact opnemen"],
  ])("%s", async (message, capcode, nl, en) => {
    expect(await plain(message, capcode)).toMatchObject({ nl, en });
  });

  test("a language other than nl or en is refused", async () => {
    const { uuid } = await plain("P 1 BRT-01 BR woning Toscalaan Hoogvliet Rotterdam 173151", FIRE);
    const body = await gql(
      'query ($u: String!) { p2000Message(uuid: $u) { plainText(language: "de") } }',
      ada.apiToken,
      { u: uuid },
    );
    expect(errorOf(body)).toEqual({ message: "language must be nl or en.", code: "BAD_USER_INPUT" });
  });

  test("a DBA's own words are used at once and outlive the next start's load of the shipped file", async () => {
    await ctx.db.asOwner(
      "insert into app_public.p2000_plain_words (term, kind, nl, en) values ('Kerstboombrand', 'incident', 'kerstboombrand', 'Christmas tree fire')",
    );
    // A DBA's meaning of a shipped term: marked as their own, so the file does not take it back.
    await ctx.db.asOwner(
      "update app_public.p2000_plain_words set shipped = false, nl = 'brand in een woonhuis' where term = 'BR woning'",
    );
    // A shipped term edited in place is the file's again after the load.
    await ctx.db.asOwner("update app_public.p2000_plain_words set en = 'container blaze' where term = 'BR container'");
    const file = path.join(ROOT_DIR, "data", "p2000-plain-words.csv");
    const pool = new pg.Pool({ connectionString: ctx.db.ownerUrl, max: 1 });
    try {
      expect(await loadPlainWords(pool, file)).toBe(1);
      expect(await loadPlainWords(pool, file)).toBe(0);
    } finally {
      await pool.end();
    }

    expect(await plain("P 1 BRT-01 Kerstboombrand Kerkstraat Rotterdam 173151", FIRE)).toMatchObject({
      nl: "Prio 1 kerstboombrand, Kerkstraat, Rotterdam",
      en: "Priority 1 Christmas tree fire, Kerkstraat, Rotterdam",
    });
    expect(await plain("P 1 BRT-01 BR woning Coolsingel Rotterdam 173151", FIRE)).toMatchObject({
      nl: "Prio 1 brand in een woonhuis, Coolsingel, Rotterdam",
    });
    expect(await plain("P 2 BRT-01 BR container Coolsingel Rotterdam 173151", FIRE)).toMatchObject({
      en: "Priority 2 container fire, Coolsingel, Rotterdam",
    });
  });
});

describe("a notification in plain words", () => {
  test("a webhook's payload carries the page in plain words in the monitor's language, beside the page as sent", async () => {
    const { createChannel } = await ok(
      "mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }",
      ada.accessToken,
      { i: { type: "webhook", name: "Speaker", url: `${hooks.url}/plain` } },
    );
    const bad = await gql("mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }", ada.accessToken, {
      i: { name: "x", notificationRules: JSON.stringify({ language: "fr" }) },
    });
    expect(errorOf(bad)).toEqual({ message: "notificationRules.language must be nl or en.", code: "BAD_USER_INPUT" });
    await ok("mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }", ada.accessToken, {
      i: {
        name: "Fires, read aloud",
        query: JSON.stringify({ categories: ["brand"] }),
        channels: JSON.stringify([createChannel.channel.uuid]),
        notificationRules: JSON.stringify({ language: "en" }),
      },
    });
    const page = "P 1 BRT-01 BR industrie Europaweg Maasvlakte Rotterdam 179491";
    await plain(page, FIRE);
    const [delivery] = await hooks.waitFor((r) => r.path === "/plain");
    expect(JSON.parse(delivery.body).message).toMatchObject({
      message: page,
      plainText: "Priority 1 industrial fire, Europaweg, Rotterdam",
      language: "en",
    });
  });
});
