// The P2000 taxonomies, end to end over HTTP, with the facts of shared/research/reference-data.md.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { useTestService } from "../helpers/service.ts";

const ctx = useTestService();

let token: string;

beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
});

async function query(text: string, variables?: Record<string, unknown>) {
  const response = await ctx.service.graphql(text, { token, variables });
  expect(response.status).toBe(200);
  expect(response.body.errors).toBeUndefined();
  return response.body.data;
}

describe("p2000Regions", () => {
  test("lists the 25 safety regions by number, each with a 2-digit capcode prefix", async () => {
    const { p2000Regions } = await query("{ p2000Regions { uuid number code name slug province capcodePrefix } }");
    expect(p2000Regions).toHaveLength(25);
    expect(p2000Regions.map((r: any) => r.number)).toEqual(
      Array.from({ length: 25 }, (_, i) => String(i + 1).padStart(2, "0")),
    );
    for (const region of p2000Regions) {
      expect(region.capcodePrefix).toMatch(/^\d{2}$/);
      expect(region.code).toBe(`VR${region.number}`);
      expect(region.uuid).toMatch(/^[0-9a-f-]{36}$/);
    }
    expect(p2000Regions[16]).toMatchObject({
      number: "17",
      name: "Rotterdam-Rijnmond",
      slug: "rotterdam-rijnmond",
      province: "Zuid-Holland",
      capcodePrefix: "14",
    });
    expect(p2000Regions[1]).toMatchObject({ number: "02", name: "Fryslân", capcodePrefix: "03" });
  });

  test("searches names, other spellings and numbers", async () => {
    const search = async (term: string) =>
      (
        await query("query ($f: P2000TaxonomyFilterInput) { p2000Regions(filter: $f) { number } }", {
          f: { search: term },
        })
      ).p2000Regions.map((r: any) => r.number);
    expect(await search("brabant")).toEqual(["20", "21", "22"]);
    expect(await search("FRIESLAND")).toEqual(["02"]);
    expect(await search("17")).toEqual(["17"]);
    expect(await search("100%")).toEqual([]);
    expect(await search("  ")).toHaveLength(25);
  });

  test("keeps the same uuids on every installation", async () => {
    const {
      rows: [row],
    } = await ctx.db.asOwner("select app_hidden.reference_uuid('p2000_region', '17') as uuid");
    const { p2000Region } = await query('{ p2000Region(slug: "17") { uuid } }');
    expect(p2000Region.uuid).toBe(row.uuid);
  });
});

describe("p2000Region", () => {
  test.each([
    ["slug", "gelderland-midden"],
    ["name", "Gelderland-Midden"],
    ["name in other case", "GELDERLAND-MIDDEN"],
    ["other spelling", "Gelderland Midden"],
    ["number", "07"],
    ["number without zero", "7"],
    ["code", "VR07"],
  ])("finds a region by %s", async (_kind, key) => {
    const { p2000Region } = await query("query ($s: String!) { p2000Region(slug: $s) { number name } }", { s: key });
    expect(p2000Region).toEqual({ number: "07", name: "Gelderland-Midden" });
  });

  test("finds a region by uuid", async () => {
    const { p2000Regions } = await query('{ p2000Regions(filter: { search: "Zeeland" }) { uuid } }');
    const { p2000Region } = await query("query ($s: String!) { p2000Region(slug: $s) { name } }", {
      s: p2000Regions[0].uuid,
    });
    expect(p2000Region.name).toBe("Zeeland");
  });

  test("is null for an unknown region", async () => {
    expect((await query('{ p2000Region(slug: "atlantis") { name } }')).p2000Region).toBeNull();
    expect((await query('{ p2000Region(slug: "26") { name } }')).p2000Region).toBeNull();
  });
});

describe("p2000Urgencies", () => {
  test("lists A0-A2, B1-B2, P1-P3 and the exercise urgency OEF, most urgent first", async () => {
    const { p2000Urgencies } = await query(
      "{ p2000Urgencies { uuid code name isUrgent level rank discipline { name } } }",
    );
    expect(p2000Urgencies.map((u: any) => u.code)).toEqual(["A0", "A1", "P1", "A2", "P2", "B1", "B2", "P3", "OEF"]);
    const byCode = Object.fromEntries(p2000Urgencies.map((u: any) => [u.code, u]));
    expect(byCode.A1).toMatchObject({ isUrgent: true, level: "urgent", discipline: { name: "Ambulance" } });
    expect(byCode.A2).toMatchObject({ isUrgent: false, level: "less_urgent" });
    expect(byCode.P3).toMatchObject({ isUrgent: false, level: "not_urgent", discipline: { name: "Brandweer" } });
  });

  test("searches code and name", async () => {
    const { p2000Urgencies } = await query('{ p2000Urgencies(filter: { search: "b" }) { code } }');
    expect(p2000Urgencies.map((u: any) => u.code)).toEqual(["B1", "B2"]);
  });
});

describe("p2000GripLevels and p2000Qualifications", () => {
  test("GRIP 1 to 5", async () => {
    const { p2000GripLevels } = await query("{ p2000GripLevels { level name description teams } }");
    expect(p2000GripLevels.map((g: any) => g.name)).toEqual(["GRIP 1", "GRIP 2", "GRIP 3", "GRIP 4", "GRIP 5"]);
    expect(p2000GripLevels[0].teams).toMatch(/CoPI/);
    const { p2000GripLevels: filtered } = await query('{ p2000GripLevels(filter: { search: "grip 3" }) { level } }');
    expect(filtered).toEqual([{ level: 3 }]);
  });

  test("qualifications from small to very large", async () => {
    const { p2000Qualifications } = await query("{ p2000Qualifications { code name level } }");
    expect(p2000Qualifications.map((q: any) => q.code)).toEqual(["klein", "middel", "groot", "zeer_groot"]);
    const { p2000Qualifications: filtered } = await query(
      '{ p2000Qualifications(filter: { search: "groot" }) { code } }',
    );
    expect(filtered.map((q: any) => q.code)).toEqual(["groot", "zeer_groot"]);
  });
});

describe("p2000Disciplines and p2000Discipline", () => {
  test("lists the disciplines by name and searches them", async () => {
    const { p2000Disciplines } = await query("{ p2000Disciplines { uuid name abbreviation } }");
    expect(p2000Disciplines.map((d: any) => d.name)).toEqual([
      "Ambulance",
      "Brandweer",
      "DARES",
      "Gemeente",
      "KNRM",
      "Politie",
      "Reddingsbrigade",
    ]);
    const { p2000Disciplines: found } = await query('{ p2000Disciplines(filter: { search: "brw" }) { name } }');
    expect(found).toEqual([{ name: "Brandweer" }]);
  });

  test("finds one by uuid, and null for an unknown or malformed uuid", async () => {
    const { p2000Disciplines } = await query('{ p2000Disciplines(filter: { search: "KNRM" }) { uuid } }');
    const one = await query("query ($u: String!) { p2000Discipline(uuid: $u) { name urgencies { code } } }", {
      u: p2000Disciplines[0].uuid,
    });
    expect(one.p2000Discipline).toEqual({ name: "KNRM", urgencies: [] });
    expect(
      (await query('{ p2000Discipline(uuid: "00000000-0000-0000-0000-000000000000") { name } }')).p2000Discipline,
    ).toBeNull();
    expect((await query('{ p2000Discipline(uuid: "not-a-uuid") { name } }')).p2000Discipline).toBeNull();
  });
});

describe("p2000Categories", () => {
  test("lists every category with whether it counts as a call-out", async () => {
    const { p2000Categories } = await query("{ p2000Categories { uuid code name isCallOut } }");
    const callOut = Object.fromEntries(p2000Categories.map((c: any) => [c.code, c.isCallOut]));
    expect(callOut).toMatchObject({
      brand: true,
      ongeval: true,
      medisch: true,
      test: false,
      informatie: false,
      monitor: false,
    });
    expect(p2000Categories.length).toBeGreaterThanOrEqual(10);
  });
});
