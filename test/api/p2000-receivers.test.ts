// Receivers (issue 48), through the running service: an administrator registers two receivers,
// each gets a token that publishes pages and reads nothing; their lines become pages with each
// receiver's copy kept; a batch sent again is stored once; a garbled copy loses to a clean one,
// whichever came first; each receiver's health (lines, malformed share, garbled pages, regions);
// a receiver_silence monitor says when one goes quiet while the other is heard, and when it is
// back; a removed receiver publishes nothing more. (The remote reader that sends the lines with a
// spool on disk: test/p2000/remote-publisher.test.ts and the CLI test beside it.)
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";
import { startWebhookReceiver, type WebhookReceiver } from "../helpers/webhook-receiver.ts";

const ctx = useTestService(() => ({ delivery: { allowPrivateTargets: true } }));

let admin: TestUser;
let hooks: WebhookReceiver;
const receivers: Record<string, { uuid: string; token: string }> = {};

beforeAll(async () => {
  hooks = await startWebhookReceiver();
  admin = await signUp(ctx.service, "operator@example.org", { admin: true });
  for (const name of ["Zolder Utrecht", "Mast Houten"]) {
    const { createP2000Receiver } = await asAdmin(
      `mutation ($i: CreateP2000ReceiverInput!) { createP2000Receiver(input: $i) { receiver { uuid name } token } }`,
      { i: { name, description: "RTL-SDR, multimon-ng" } },
    );
    receivers[name] = { uuid: createP2000Receiver.receiver.uuid, token: createP2000Receiver.token };
  }
});
afterAll(async () => {
  await hooks?.stop();
});

async function asAdmin(query: string, variables: Record<string, unknown> = {}) {
  const { body } = await ctx.service.graphql(query, { token: admin.accessToken, variables });
  expect(body.errors).toBeUndefined();
  return body.data;
}

/** A multimon-ng FLEX line, sent now (or `secondsAgo` before). */
function flexLine(text: string, capcode = "001420059", secondsAgo = 0) {
  const at = new Date(Date.now() - secondsAgo * 1000).toISOString().slice(0, 19).replace("T", " ");
  return `FLEX|${at}|1600/2/K/A|12.077|${capcode}|ALN|${text}`;
}

let batches = 0;
async function publish(receiver: string, lines: string[], batchId = `batch-${++batches}`) {
  const { body } = await ctx.service.graphql(
    `mutation ($b: String!, $l: [String!]!) { publishP2000Lines(batchId: $b, lines: $l) {
       batchId lines pages skipped malformed duplicate } }`,
    { token: receivers[receiver].token, variables: { b: batchId, l: lines } },
  );
  return body;
}

async function messagesLike(pattern: string) {
  const { rows } = await ctx.db.asOwner(
    "select uuid, message, capcode_names from app_public.p2000_messages where message like $1 order by sended",
    [pattern],
  );
  return rows;
}

async function copiesOf(uuid: string) {
  const token = (await ctx.service.newToken()).secret;
  const { body } = await ctx.service.graphql(
    `query ($u: String!) { p2000Message(uuid: $u) { message copies { receiverName message garbled } } }`,
    { token, variables: { u: uuid } },
  );
  expect(body.errors).toBeUndefined();
  return body.data!.p2000Message;
}

describe("registering", () => {
  test("only an administrator registers a receiver; members see their environment's", async () => {
    const member = await signUp(ctx.service, "member@example.org");
    const { body } = await ctx.service.graphql(`mutation { createP2000Receiver(input: { name: "Mine" }) { token } }`, {
      token: member.accessToken,
    });
    expect(errorOf(body)).toEqual({
      message: expect.stringMatching(/^Only administrators register receivers/),
      code: "FORBIDDEN",
    });
    const { p2000Receivers } = await asAdmin("{ p2000Receivers { name description } }");
    expect(p2000Receivers).toEqual([
      { name: "Mast Houten", description: "RTL-SDR, multimon-ng" },
      { name: "Zolder Utrecht", description: "RTL-SDR, multimon-ng" },
    ]);
  });

  test("a receiver's token publishes and reads nothing", async () => {
    const { body, status } = await ctx.service.graphql("{ p2000Messages(first: 1) { uuid } }", {
      token: receivers["Zolder Utrecht"].token,
    });
    expect(status).toBe(403);
    expect(errorOf(body)).toEqual({
      message: expect.stringMatching(/^A receiver's API token publishes P2000 pages and reads nothing/),
      code: "FORBIDDEN",
    });
    // Nor through what createP2000Message answers: the page's own fields only, not the graph behind it.
    for (const selection of ["uuid dossier { uuid }", "uuid copies { message }", "...on P2000Message { uuid }"]) {
      const deep = await ctx.service.graphql(
        `mutation { createP2000Message(input: { message: "A1 x", sended: "2026-11-30T08:00:00Z" }) { ${selection} } }`,
        { token: receivers["Zolder Utrecht"].token },
      );
      expect([deep.status, errorOf(deep.body).code]).toEqual([403, "FORBIDDEN"]);
    }
    // createApiToken and updateApiToken give nobody the receiver's scope, nor change a receiver's token.
    for (const [query, variables] of [
      [`mutation { createApiToken(input: { name: "sneaky", scopes: ["p2000:publish"] }) { plainToken } }`, {}],
      [
        `mutation ($u: String!) { updateApiToken(uuid: $u, scopes: []) { uuid } }`,
        {
          u: (
            await ctx.db.asOwner("select api_token_uuid from app_public.p2000_receivers where uuid = $1", [
              receivers["Zolder Utrecht"].uuid,
            ])
          ).rows[0].api_token_uuid,
        },
      ],
    ] as const) {
      const { body: refusal } = await ctx.service.graphql(query, { token: admin.accessToken, variables });
      expect(errorOf(refusal)).toEqual({ message: expect.stringMatching(/receiver/), code: "BAD_USER_INPUT" });
    }
    // Another API token cannot publish.
    const other = (await ctx.service.newToken({ name: "reader" })).secret;
    const refused = await ctx.service.graphql(`mutation { publishP2000Lines(batchId: "x", lines: []) { pages } }`, {
      token: other,
    });
    expect(errorOf(refused.body)).toEqual({
      message: "Only a receiver's API token (createP2000Receiver) publishes pages.",
      code: "FORBIDDEN",
    });
  });
});

describe("publishing", () => {
  test("lines become pages with the receiver's copy; a batch sent again is stored once", async () => {
    const lines = [
      flexLine("P 1 BDH-01 Brand woning Kerkstraat Utrecht 10001", "001420059"),
      flexLine("A2 Ambu 17102 Rit 10002 Utrecht", "001420099"),
      "FLEX|2026-11-30 08:00:00|1600/2/K/A|12.077|001420059|NUM|12345",
      "this is no multimon-ng line",
    ];
    const first = await publish("Zolder Utrecht", lines, "zolder-1");
    expect(first).toEqual({
      data: {
        publishP2000Lines: { batchId: "zolder-1", lines: 4, pages: 2, skipped: 1, malformed: 1, duplicate: false },
      },
    });
    const again = await publish("Zolder Utrecht", lines, "zolder-1");
    expect(again.data!.publishP2000Lines).toMatchObject({ pages: 2, duplicate: true });
    const [page] = await messagesLike("%Brand woning Kerkstraat Utrecht 10001%");
    expect(await messagesLike("%Rit 10002%")).toHaveLength(1);
    expect(await copiesOf(page.uuid)).toEqual({
      message: "P 1 BDH-01 Brand woning Kerkstraat Utrecht 10001",
      copies: [
        { receiverName: "Zolder Utrecht", message: "P 1 BDH-01 Brand woning Kerkstraat Utrecht 10001", garbled: false },
      ],
    });
  });

  test("a page the database cannot store (over 2000 characters) is a malformed line, not the batch's end", async () => {
    const { data } = await publish("Mast Houten", [
      flexLine(`A1 ${"x".repeat(2100)}`),
      flexLine("A2 Ambu 17102 Rit 10010 Houten", "001420099"),
    ]);
    expect(data!.publishP2000Lines).toMatchObject({ lines: 2, pages: 1, malformed: 1 });
    expect(await messagesLike("%Rit 10010%")).toHaveLength(1);
  });

  test("createP2000Message with a receiver's token is its copy; an administrator's access token still adds one", async () => {
    const { body } = await ctx.service.graphql(
      `mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid message } }`,
      {
        token: receivers["Mast Houten"].token,
        variables: {
          i: {
            message: "B1 Brandweer 10003 Houten",
            sended: new Date().toISOString(),
            capcodes: [{ name: "001420059" }],
          },
        },
      },
    );
    expect(body.errors).toBeUndefined();
    const { copies } = await copiesOf(body.data!.createP2000Message.uuid);
    expect(copies.map((c: { receiverName: string }) => c.receiverName)).toEqual(["Mast Houten"]);
    const { createP2000Message } = await asAdmin(
      `mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { message } }`,
      { i: { message: "B2 Brandweer 10004 Houten", sended: new Date().toISOString() } },
    );
    expect(createP2000Message.message).toBe("B2 Brandweer 10004 Houten");
  });

  test("a garbled copy loses to a clean one, whichever came first; both copies are kept", async () => {
    const clean = "P 1 BDH-02 Brand woning Dorpsstraat Houten 10005";
    const garbled = "P 1 BDH-02 Br<NUL>nd wo<ETX>ing Dorpsstr<NUL>at Houten 10005";
    expect((await publish("Zolder Utrecht", [flexLine(garbled, "001420059", 2)])).errors).toBeUndefined();
    expect((await publish("Mast Houten", [flexLine(clean, "001420059", 1)])).errors).toBeUndefined();
    const [page, ...more] = await messagesLike("%10005");
    expect(more).toEqual([]);
    expect(await copiesOf(page.uuid)).toEqual({
      message: clean,
      copies: [
        { receiverName: "Zolder Utrecht", message: garbled, garbled: true },
        { receiverName: "Mast Houten", message: clean, garbled: false },
      ],
    });
    // The other way round: the clean copy first stays.
    const laterClean = "P 2 BDH-03 Gaslekkage Lange Nieuwstraat Utrecht 10006";
    await publish("Mast Houten", [flexLine(laterClean, "001420099", 2)]);
    await publish("Zolder Utrecht", [
      flexLine("P 2 BDH-03 Gasl<NUL>kkage Lange Nieuwstr<ETX>at Utrecht 10006", "001420099", 1),
    ]);
    expect((await messagesLike("%10006")).map((m) => m.message)).toEqual([laterClean]);
  });

  test("pages half alike, to one capcode at once, are two pages; a copy is equal where both are readable", async () => {
    await publish("Mast Houten", [
      flexLine("A2 Ambu 17102 Rit 30001 Houten", "001420099"),
      flexLine("A2 Ambu 17102 Rit 30002 Houten", "001420099"),
    ]);
    expect((await messagesLike("A2 Ambu 17102 Rit 3000_ Houten")).map((m) => m.message)).toEqual([
      "A2 Ambu 17102 Rit 30001 Houten",
      "A2 Ambu 17102 Rit 30002 Houten",
    ]);
    const { rows } = await ctx.db.asOwner(
      `select app_hidden.p2000_same_page(a, b) as same from (values
         ('P 1 Brand Utrecht', 'P 1 Br<NUL>nd Utrecht'), ('P 1 Br<NUL>nd Utrecht', 'P 1 Brand Utrecht'),
         ('P 1 Brand (groot) Utrecht', 'P 1 Brand (gr<ETX>ot) Utrecht'), ('Rit 30001', 'Rit 3000<NUL>'),
         ('Rit 30001', 'Rit 30002'), ('P 1 Brand Utrecht', 'P 1 Brand Houten'), ('P 1 Br<NUL>nd Utrecht', 'P 1 Brand Houten'),
         ('A1 x', 'A1 x' || chr(65533) || 'y'), ('P 1 Br<NUL>nd Utrecht', 'P 1 Brand Utr<ETX>cht'),
         ('<NUL><NUL><NUL>', 'abc')) p (a, b)`,
    );
    expect(rows.map((row) => row.same)).toEqual([true, true, true, true, false, false, false, false, true, false]);
  });

  test("two receivers publishing one page at the same moment store it once", async () => {
    for (let round = 1; round <= 5; round++) {
      const text = `P 2 BDH-05 Buitenbrand Stationsplein Utrecht 4000${round}`;
      const answers = await Promise.all([
        publish("Zolder Utrecht", [flexLine(text.replace("Buitenbrand", "Buitenbr<NUL>nd"), "001420059")]),
        publish("Mast Houten", [flexLine(text, "001420059")]),
      ]);
      expect(answers.map((answer) => answer.errors)).toEqual([undefined, undefined]);
      expect((await messagesLike(`%4000${round}`)).map((m) => m.message)).toEqual([text]);
    }
  });

  test("health: lines, malformed share, garbled pages and regions per receiver", async () => {
    const { p2000ReceiverStatistics } = await asAdmin(`{ p2000ReceiverStatistics(minutes: 60) {
      name lastHeardAt lines pages skipped malformed garbled malformedShare garbledShare pagesPerMinute regions { name pages } } }`);
    const zolder = p2000ReceiverStatistics.find((r: { name: string }) => r.name === "Zolder Utrecht");
    // 6 lines before, 5 garbled pages just now.
    expect(zolder).toMatchObject({ lines: 11, pages: 9, skipped: 1, malformed: 1, garbled: 7 });
    expect(zolder.malformedShare).toBeCloseTo(1 / 11);
    expect(zolder.garbledShare).toBeCloseTo(7 / 9);
    expect(Date.parse(zolder.lastHeardAt)).toBeGreaterThan(Date.now() - 120_000);
    expect(zolder.regions.reduce((sum: number, r: { pages: number }) => sum + r.pages, 0)).toBeGreaterThan(0);
    // The same per receiver at /metrics, for Prometheus.
    const metrics = await (await fetch(`${ctx.service.url}/metrics`)).text();
    const labels = `environment="${admin.environmentUuid}",receiver="Zolder Utrecht"`;
    expect(metrics).toMatch(new RegExp(`^nlis_p2000_receiver_last_heard_timestamp_seconds\\{${labels}\\} \\d+`, "m"));
    expect(metrics).toContain(`nlis_p2000_receiver_lines_last_hour{${labels},kind="malformed"} 1`);
    expect(metrics).toContain(`nlis_p2000_receiver_lines_last_hour{${labels},kind="garbled"} 7`);
    const bad = await ctx.service.graphql("{ p2000ReceiverStatistics(minutes: 0) { name } }", {
      token: admin.accessToken,
    });
    expect(errorOf(bad.body).code).toBe("BAD_USER_INPUT");
  });
});

test("a cleaner copy is matched again: the keyword the garbled copy hid notifies", async () => {
  const { createChannel } = await asAdmin(
    `mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }`,
    { i: { type: "webhook", name: "Chimneys", url: `${hooks.url}/chimneys` } },
  );
  await asAdmin(`mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }`, {
    i: {
      name: "Chimney fires",
      query: JSON.stringify({ keywords: ["Schoorsteenbrand"] }),
      channels: JSON.stringify([createChannel.channel.uuid]),
    },
  });
  await publish("Zolder Utrecht", [
    flexLine("P 1 BDH-06 Schoorsteenbr<NUL>nd Biltstraat Utrecht 50001", "001420059", 1),
  ]);
  await ctx.service.workerIdle();
  expect(hooks.requests.filter((r) => r.path === "/chimneys")).toEqual([]);
  await publish("Mast Houten", [flexLine("P 1 BDH-06 Schoorsteenbrand Biltstraat Utrecht 50001", "001420059")]);
  const [delivery] = await hooks.waitFor((r) => r.path === "/chimneys");
  expect(JSON.parse(delivery.body)).toMatchObject({
    event: "p2000.message.matched",
    message: { message: "P 1 BDH-06 Schoorsteenbrand Biltstraat Utrecht 50001" },
  });
});

describe("silence is an alert", () => {
  test("a receiver quiet while the other is heard is told once, and its return once", async () => {
    const { createChannel } = await asAdmin(
      `mutation ($i: CreateChannelInput!) { createChannel(input: $i) { channel { uuid } } }`,
      { i: { type: "webhook", name: "Receivers", url: `${hooks.url}/receivers` } },
    );
    await asAdmin(`mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }`, {
      i: {
        name: "Zolder quiet",
        type: "receiver_silence",
        query: JSON.stringify({ receivers: ["Zolder Utrecht"], minutes: 2 }),
        channels: JSON.stringify([createChannel.channel.uuid]),
      },
    });
    const watch = () => ctx.db.asOwner("select app_private.watch_p2000_receivers() as queued");
    // Zolder last heard five minutes ago (its counts moved back), Houten now.
    await ctx.db.asOwner(
      "update app_hidden.p2000_receiver_minutes set minute = minute - interval '5 minutes' where receiver_uuid = $1",
      [receivers["Zolder Utrecht"].uuid],
    );
    await publish("Mast Houten", [flexLine("A1 Ambu 17101 Rit 10007 Houten", "001420099")]);
    expect((await watch()).rows[0].queued).toBe(1);
    expect((await watch()).rows[0].queued).toBe(0); // said once
    const [silent] = await hooks.waitFor((r) => r.path === "/receivers");
    expect(JSON.parse(silent.body)).toMatchObject({
      event: "p2000.receiver.silent",
      monitor: { name: "Zolder quiet" },
      receiver: { uuid: receivers["Zolder Utrecht"].uuid, name: "Zolder Utrecht" },
      minutes: 2,
    });
    await publish("Zolder Utrecht", [flexLine("A2 Ambu 17102 Rit 10008 Utrecht", "001420099")]);
    expect((await watch()).rows[0].queued).toBe(1);
    const [, back] = await hooks.waitFor((r) => r.path === "/receivers", 2);
    expect(JSON.parse(back.body)).toMatchObject({ event: "p2000.receiver.back", receiver: { name: "Zolder Utrecht" } });
    expect((await watch()).rows[0].queued).toBe(0);
  });
});

test("a removed receiver publishes nothing more; its pages stay", async () => {
  const before = await messagesLike("%Houten%");
  expect(
    await asAdmin(`mutation ($u: String!) { deleteP2000Receiver(uuid: $u) }`, { u: receivers["Mast Houten"].uuid }),
  ).toEqual({ deleteP2000Receiver: true });
  const refused = await publish("Mast Houten", [flexLine("A1 Ambu 17101 Rit 10009 Houten")]);
  // UNAUTHENTICATED once this instance has heard that the token is gone (milliseconds); until then
  // the token finds no receiver: FORBIDDEN.
  expect(["UNAUTHENTICATED", "FORBIDDEN"]).toContain(errorOf(refused).code);
  expect(await messagesLike("%Houten%")).toHaveLength(before.length);
});
