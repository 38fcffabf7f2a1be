// Kinds of incident on a P2000 monitor (issue 45): `categories` keeps only the pages of the named
// kinds, `excludeCategories` leaves out the named kinds, by code or name as p2000Categories lists
// them. Pages go in through createP2000Message and the service's own worker matches them; what a
// monitor matched is read back through p2000Messages(filter: { monitor }), and monitorPreview
// agrees with live matching on the same pages.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { graphqlCalls, monitorMatches } from "../helpers/graphql-calls.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";

const ctx = useTestService();
let ada: TestUser;

const { gql, ok } = graphqlCalls(ctx);
const matches = (monitorUuid: string) => monitorMatches(ok, ada.apiToken, monitorUuid);

async function createMonitor(name: string, query: Record<string, unknown>) {
  const { createMonitor } = await ok(
    "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid query } }",
    ada.accessToken,
    { i: { name, query: JSON.stringify(query) } },
  );
  return createMonitor as { uuid: string; query: string };
}

async function page(message: string, capcode: string) {
  const { createP2000Message } = await ok(
    "mutation ($i: CreateP2000MessageInput!) { createP2000Message(input: $i) { uuid category { code } } }",
    ada.accessToken,
    { i: { message, sended: new Date().toISOString(), capcodes: [{ name: capcode }] } },
  );
  return createP2000Message as { uuid: string; category: { code: string } | null };
}

beforeAll(async () => {
  ada = await signUp(ctx.service, "ada@example.org", { admin: true });
});

describe("categories and excludeCategories", () => {
  test("are taken by code or name, stored as codes, and an unknown kind is refused naming the field", async () => {
    const monitor = await createMonitor("Fires and accidents", { categories: ["Brand", "ongeval"] });
    expect(JSON.parse(monitor.query)).toEqual({ categories: ["brand", "ongeval"] });
    const excluding = await createMonitor("No medical calls", { excludeCategories: ["MEDISCH"] });
    expect(JSON.parse(excluding.query)).toEqual({ excludeCategories: ["medisch"] });

    const refused = await gql(
      "mutation ($i: CreateMonitorInput!) { createMonitor(input: $i) { uuid } }",
      ada.accessToken,
      { i: { name: "x", query: JSON.stringify({ categories: ["brand", "earthquake"] }) } },
    );
    expect(errorOf(refused)).toEqual({
      message: "query.categories: unknown or malformed value(s): earthquake.",
      code: "BAD_USER_INPUT",
    });
    const { monitorTypes } = await ok("{ monitorTypes { value description } }", ada.apiToken);
    const p2000 = (monitorTypes as Array<{ value: string; description: string }>).find((t) => t.value === "p2000");
    expect(p2000?.description).toMatch(/categories/);
    expect(p2000?.description).toMatch(/excludeCategories/);
  });

  test("a monitor gets the pages of its kinds only; an excluding one all but those; the preview agrees", async () => {
    const fires = await createMonitor("Fires and accidents only", { categories: ["brand", "ongeval"] });
    const noMedical = await createMonitor("Everything but medical calls", {
      excludeCategories: ["medisch"],
      regions: ["17"],
    });
    // Only a categories criterion: the monitor is found through its kinds' index keys, not by every page.
    const {
      rows: [criteria],
    } = await ctx.db.asOwner("select anchor_keys from app_hidden.p2000_monitor_criteria where monitor_uuid = $1", [
      fires.uuid,
    ]);
    expect(criteria.anchor_keys.sort()).toEqual(
      (
        await ctx.db.asOwner(
          "select 'k:' || uuid as key from app_public.p2000_categories where code in ('brand', 'ongeval')",
        )
      ).rows
        .map((r) => r.key)
        .sort(),
    );

    const fire = await page("P 1 BRT-01 BR woning Kerkstraat Rotterdam 173191", "001400101");
    const accident = await page("P 1 BRT-01 Ongeval wegvervoer letsel Coolsingel Rotterdam 173192", "001400101");
    const medical = await page("A1 AMBU 17107 Bachplein Schiedam SCHIDM bon 147008", "001420007");
    const uncategorised = await page("P 2 BRT-01 Stationsplein Rotterdam 173193", "001400101");
    expect([fire.category?.code, accident.category?.code, medical.category?.code]).toEqual([
      "brand",
      "ongeval",
      "medisch",
    ]);
    expect(uncategorised.category).toBeNull();
    await ctx.service.workerIdle();

    expect(await matches(fires.uuid)).toEqual([fire.uuid, accident.uuid].sort());
    // A page without a kind is not one of the excluded kinds, so it passes.
    expect(await matches(noMedical.uuid)).toEqual([fire.uuid, accident.uuid, uncategorised.uuid].sort());

    const { monitorPreview } = await ok(
      "query ($i: CreateMonitorInput!) { monitorPreview(input: $i, days: 1) { messages { uuid } } }",
      ada.accessToken,
      { i: { name: "preview", query: JSON.stringify({ categories: ["brand", "ongeval"] }) } },
    );
    expect((monitorPreview.messages as Array<{ uuid: string }>).map((m) => m.uuid).sort()).toEqual(
      [fire.uuid, accident.uuid].sort(),
    );
  });
});
