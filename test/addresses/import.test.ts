// The address register as an operator imports it (`npm run import:addresses`, a real process) in
// the public CSV layout, plain, gzip and Zstandard, over the index a fresh install ships: what
// each province's rows become, a second import of the same file, a broken file, and the shipped
// index not loaded over an import.
import { describe, expect, test } from "@jest/globals";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import pg from "pg";
import { loadShippedAddresses, readManifest } from "../../lib/addresses/shipped-index.ts";
import { fixture, runCli } from "../helpers/cli.ts";
import { useTestDatabase } from "../helpers/database.ts";

const ctx = useTestDatabase();
const SAMPLE = fixture("bag-addresses-sample.csv");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "addresses-"));

function written(name: string, data: Buffer): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, data);
  return file;
}

const sampleZst = () => written("sample.csv.zst", zlib.zstdCompressSync(fs.readFileSync(SAMPLE)));
const sampleGz = () => written("sample.csv.gz", zlib.gzipSync(fs.readFileSync(SAMPLE)));

async function provinceStreets() {
  const { rows } = await ctx.db.asOwner<{ province: string; source: string; streets: number; addresses: number }>(
    `select province, source, count(*)::int as streets, sum(address_count)::int as addresses
       from app_hidden.address_streets group by 1, 2 order by 1, 2`,
  );
  return rows;
}

async function street(name: string, woonplaats: string) {
  const { rows } = await ctx.db.asOwner(
    `select s.name, s.municipality, s.province, s.source, s.address_count, s.latitude, s.longitude,
            p.name as place, n.numbers, n.latitudes, n.longitudes
       from app_hidden.address_streets s join app_hidden.address_numbers n on n.street_id = s.id
       left join app_public.places p on p.uuid = s.place_uuid
      where s.name = $1 and s.woonplaats = $2`,
    [name, woonplaats],
  );
  return rows;
}

/** The sample's rows of a street, as the file writes them. */
function sampleRows(name: string, woonplaats: string) {
  return (
    fs
      .readFileSync(SAMPLE, "utf8")
      .split("\n")
      .slice(1)
      .map((line) => line.split(";"))
      .filter((f) => f[0] === name && f[5] === woonplaats)
      .map((f) => ({ number: Number(f[1]), postcode: f[4], latitude: Number(f[8]), longitude: Number(f[9]) }))
      // not the rows the import rejects
      .filter((r) => Number.isInteger(r.number) && r.latitude > 50 && r.latitude < 54)
  );
}

describe("the shipped index", () => {
  test("a fresh database has the five provinces of data/addresses, and a restart loads nothing again", async () => {
    const manifest = readManifest()!;
    expect(manifest.provinces).toEqual(["Drenthe", "Flevoland", "Friesland", "Groningen", "Zeeland"]);
    const rows = await provinceStreets();
    expect(rows.map((r) => [r.province, r.source])).toEqual(manifest.provinces.map((p) => [p, "shipped"]));
    // about 45,800 streets and 1.44 million addresses (../shared/data/bag-addresses/README.md)
    expect(rows.reduce((n, r) => n + r.streets, 0)).toBe(45_792);
    expect(rows.reduce((n, r) => n + r.addresses, 0)).toBe(1_442_867);
    const [oudeHaven] = await street("Oude Haven", "Zierikzee");
    expect(oudeHaven).toMatchObject({ municipality: "Schouwen-Duiveland", province: "Zeeland", place: "Zierikzee" });
    const client = new pg.Client({ connectionString: ctx.db.ownerUrl });
    await client.connect();
    try {
      expect(await loadShippedAddresses(client)).toEqual([]);
    } finally {
      await client.end();
    }
  });
});

describe("npm run import:addresses", () => {
  test("replaces the provinces a file holds with its streets, numbers, postcodes and woonplaatsen", async () => {
    const result = await runCli("import-addresses.ts", [sampleZst()], ctx.db.ownerUrl);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(
      "310 rows, 3 rejected. Groningen: 186 addresses on 1 streets, 11 postcodes; " +
        "Zeeland: 121 addresses on 3 streets, 10 postcodes",
    );
    expect(result.stderr).toContain("addresses [");
    expect(result.stderr).toContain("Row 308: street, woonplaats, gemeente or provincie missing; skipped.");
    expect(result.stderr).toContain('Row 309: "twaalf" is not a house number; skipped.');
    expect(result.stderr).toContain("Row 310: Poststraat 99 Zierikzee has no position in the Netherlands; skipped.");

    // Zeeland and Groningen are the file's now; the other provinces keep the shipped index.
    expect((await provinceStreets()).map((r) => [r.province, r.source, r.streets])).toEqual([
      ["Drenthe", "shipped", 8516],
      ["Flevoland", "shipped", 5779],
      ["Friesland", "shipped", 13165],
      ["Groningen", "import", 1],
      ["Zeeland", "import", 3],
    ]);

    // A street: its numbers ascending, each at the mean of its addresses (2, 2a and 2b are one
    // number), and the street at the centroid of all its addresses.
    const rows = sampleRows("Poststraat", "Zierikzee");
    const [poststraat] = await street("Poststraat", "Zierikzee");
    const numbers = [...new Set(rows.map((r) => r.number))].sort((a, b) => a - b);
    expect(poststraat.numbers).toEqual(numbers);
    expect(poststraat.address_count).toBe(rows.length);
    const two = rows.filter((r) => r.number === 2);
    expect(two.length).toBeGreaterThan(1);
    const i = numbers.indexOf(2);
    expect(poststraat.latitudes[i]).toBeCloseTo(two.reduce((s, r) => s + r.latitude, 0) / two.length, 6);
    expect(poststraat.longitudes[i]).toBeCloseTo(two.reduce((s, r) => s + r.longitude, 0) / two.length, 6);
    expect(poststraat.latitude).toBeCloseTo(rows.reduce((s, r) => s + r.latitude, 0) / rows.length, 6);
    expect(poststraat.place).toBe("Zierikzee");

    // Postcodes: PC6 and PC4 at the centroid of their addresses, in the postcodes read too.
    const pc6 = rows.filter((r) => r.postcode === "4301AA");
    const { rows: postcodes } = await ctx.db.asOwner(
      `select a.postcode, a.address_count, a.latitude, p.city, p.municipality, p.latitude as public_latitude
         from app_hidden.address_postcodes a join app_public.postcodes p using (postcode)
        where a.postcode in ('4301AA', '4301') order by 1`,
    );
    expect(postcodes).toMatchObject([
      { postcode: "4301", city: "Zierikzee", municipality: "Schouwen-Duiveland", address_count: 121 },
      { postcode: "4301AA", city: "Zierikzee", address_count: pc6.length },
    ]);
    expect(postcodes[1].latitude).toBeCloseTo(pc6.reduce((s, r) => s + r.latitude, 0) / pc6.length, 6);
    expect(postcodes[1].public_latitude).toBe(postcodes[1].latitude);

    // The woonplaats: the centroid of its addresses, linked to its place.
    const { rows: woonplaatsen } = await ctx.db.asOwner(
      `select w.woonplaats, w.address_count, p.name as place from app_hidden.address_woonplaatsen w
         join app_public.places p on p.uuid = w.place_uuid where w.province = 'Zeeland'`,
    );
    expect(woonplaatsen).toEqual([{ woonplaats: "Zierikzee", address_count: 121, place: "Zierikzee" }]);
    // the staging rows are gone
    expect((await ctx.db.asOwner("select count(*)::int as n from app_private.address_import_rows")).rows[0].n).toBe(0);
  });

  test("importing the same addresses again (gzip this time) gives the same rows", async () => {
    const before = await street("Herestraat", "Groningen");
    const result = await runCli("import-addresses.ts", [sampleGz()], ctx.db.ownerUrl);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Groningen: 186 addresses on 1 streets, 11 postcodes");
    const after = await street("Herestraat", "Groningen");
    expect(after).toEqual(before);
  });

  test("a broken file fails and changes nothing; a plain CSV with several files imports each", async () => {
    const before = await provinceStreets();
    const whole = zlib.zstdCompressSync(fs.readFileSync(SAMPLE));
    const broken = written("broken.csv.zst", whole.subarray(0, Math.floor(whole.length / 2)));
    const result = await runCli("import-addresses.ts", [broken], ctx.db.ownerUrl);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("the Zstandard file ends too soon");
    expect(await provinceStreets()).toEqual(before);
    expect((await ctx.db.asOwner("select count(*)::int as n from app_private.address_import_rows")).rows[0].n).toBe(0);

    const drenthe = written(
      "drenthe.csv",
      Buffer.from(
        "straat;huisnummer;huisletter;huisnummertoevoeging;postcode;woonplaats;gemeente;provincie;lat;lon\n" +
          "Brink;1;;;9401HS;Assen;Assen;Drenthe;52.99412;6.56412\n" +
          "Brink;3;;;9401HS;Assen;Assen;Drenthe;52.99430;6.56430\n",
      ),
    );
    const two = await runCli("import-addresses.ts", [drenthe, SAMPLE], ctx.db.ownerUrl);
    expect(two.code).toBe(0);
    expect(two.stdout).toContain(`${drenthe}: 2 rows, 0 rejected. Drenthe: 2 addresses on 1 streets, 2 postcodes`);
    expect(two.stdout).toContain(`${SAMPLE}: 310 rows, 3 rejected.`);
    expect((await provinceStreets()).find((r) => r.province === "Drenthe")).toEqual({
      province: "Drenthe",
      source: "import",
      streets: 1,
      addresses: 2,
    });
  });

  test("says how it is used when a file is missing", async () => {
    const result = await runCli("import-addresses.ts", [path.join(dir, "missing.csv")], ctx.db.ownerUrl);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: npm run import:addresses -- FILE...");
  });
});
