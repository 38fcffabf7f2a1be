// A dossier's timeline when its messages arrive as the FLEX reader stores them: several pages of one
// incident in the same second, in one statement. The opened and message entries are the messages
// themselves (migration 000080), so their order must be the order they were stored in, each raise
// right after the message that caused it, and newestFirst exactly the reverse of oldestFirst.
import { beforeAll, expect, test } from "@jest/globals";
import { storeP2000Pages } from "../helpers/p2000.ts";
import { useTestService } from "../helpers/service.ts";

const ctx = useTestService();
let token: string;
let dossier: string;
const SECOND = new Date(Date.now() - 3_600_000).toISOString().slice(0, 19) + "Z";
// One incident (bon 9303 in one region), three units paged in one second; the second page raises it.
const PAGES = [
  "A2 AMBU 17106 Schiedamseweg 3134BA Vlaardingen VLAARD bon 9303",
  "A1 AMBU 17107 Schiedamseweg 3134BA Vlaardingen VLAARD bon 9303",
  "A1 AMBU 17108 Schiedamseweg 3134BA Vlaardingen VLAARD bon 9303",
];

async function timeline(order: string) {
  const response = await ctx.service.graphql(
    `query ($d: String!, $o: String!) { p2000DossierTimeline(filter: { dossier: { uuid: $d }, orderBy: $o }) {
      kind previousValue newValue message { message } } }`,
    { token, variables: { d: dossier, o: order } },
  );
  expect(response.body.errors).toBeUndefined();
  return (response.body.data.p2000DossierTimeline as Array<Record<string, any>>).map((entry) => [
    entry.kind,
    entry.previousValue,
    entry.newValue,
    entry.message.message,
  ]);
}

beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
  await storeP2000Pages(
    ctx.db,
    PAGES.map((message) => ({ message, sended: SECOND, capcodes: ["001420007"] })),
  );
  const { rows } = await ctx.db.asOwner(
    "select distinct dossier_uuid from app_public.p2000_messages where message = any ($1)",
    [PAGES],
  );
  expect(rows).toHaveLength(1);
  dossier = rows[0].dossier_uuid;
});

test("pages of one second in one statement: stored order, each raise after its message, newestFirst the reverse", async () => {
  const oldestFirst = [
    ["opened", null, "A2", PAGES[0]],
    ["message", null, null, PAGES[1]],
    ["urgency_raised", "A2", "A1", PAGES[1]],
    ["message", null, null, PAGES[2]],
  ];
  expect(await timeline("oldestFirst")).toEqual(oldestFirst);
  expect(await timeline("newestFirst")).toEqual([...oldestFirst].reverse());
});

test("the opened entry keeps the urgency the incident opened with when the opening message's urgency changes later", async () => {
  // As re-enrichment may do to a stored message: the raise's previous value still says A2.
  await ctx.db.asOwner(
    `update app_public.p2000_messages set urgency_uuid = (select uuid from app_public.p2000_urgencies where code = 'A1')
      where message = $1`,
    [PAGES[0]],
  );
  expect((await timeline("oldestFirst"))[0]).toEqual(["opened", null, "A2", PAGES[0]]);
});
