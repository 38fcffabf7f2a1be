// Pages placed at their street from the address register a fresh install ships (five provinces),
// read through the API as a client reads them: the street as a dispatcher reads it (any case,
// abbreviations, before or after the place, a house number, a postcode), the position's precision,
// and the addresses, streets and postcodes people type into a location picker.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { useTestService } from "../helpers/service.ts";
import { signUp } from "../helpers/users.ts";

const ctx = useTestService();
let token: string;

interface Placed {
  street: string | null;
  city: string | null;
  postcode: string | null;
  latitude: number | null;
  longitude: number | null;
  positionPrecision: string | null;
}

async function query(text: string, variables?: Record<string, unknown>) {
  const response = await ctx.service.graphql(text, { token, variables });
  expect(response.body.errors).toBeUndefined();
  return response.body.data;
}

/** A page stored as the FLEX reader stores it, read back through p2000Message. */
async function placed(message: string): Promise<Placed> {
  const {
    rows: [row],
  } = await ctx.db.asOwner("select app_private.ingest_p2000_message($1, now(), '{}', 'test') as uuid", [message]);
  const data = await query(
    `query ($uuid: String!) { p2000Message(uuid: $uuid) { street city postcode latitude longitude positionPrecision } }`,
    { uuid: row.uuid },
  );
  return data.p2000Message;
}

/** The point of a house number in the register, and a street's centroid. */
async function register(street: string, woonplaats: string, houseNumber?: number) {
  const { rows } = await ctx.db.asOwner(
    `select coalesce(n.latitudes[array_position(n.numbers, $3)], s.latitude) as latitude,
            coalesce(n.longitudes[array_position(n.numbers, $3)], s.longitude) as longitude
       from app_hidden.address_streets s join app_hidden.address_numbers n on n.street_id = s.id
      where s.name = $1 and s.woonplaats = $2`,
    [street, woonplaats, houseNumber ?? null],
  );
  expect(rows).toHaveLength(1);
  return rows[0] as { latitude: number; longitude: number };
}

beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
});

describe("where a page is placed", () => {
  test("at the house number's address point", async () => {
    const page = await placed("P 1 BRD-01 BR woning Oude Haven 3 Zierikzee 191234");
    expect(page).toMatchObject({ street: "Oude Haven", city: "Zierikzee", positionPrecision: "address" });
    expect(page).toMatchObject(await register("Oude Haven", "Zierikzee", 3));
  });

  test("at the street's centroid without a number, in any case and with the abbreviations pages use", async () => {
    expect(await placed("p 2 ass ambu kerkplein zierikzee")).toMatchObject({
      street: "Kerkplein",
      positionPrecision: "street",
      ...(await register("Kerkplein", "Zierikzee")),
    });
    // "Hoofdstr" is Hoofdstraat, the street written before the place or after it
    expect(await placed("A1 AMBU 03101 Hoofdstr 12 Hoogezand")).toMatchObject({
      street: "Hoofdstraat",
      city: "Hoogezand",
      positionPrecision: "address",
      ...(await register("Hoofdstraat", "Hoogezand", 12)),
    });
    expect(await placed("P 2 BR buiten Groningen Herestraat")).toMatchObject({
      street: "Herestraat",
      city: "Groningen",
      positionPrecision: "street",
    });
  });

  test("the longest street of the place that the text names wins", async () => {
    // Groningen has an Oosterstraat and an Oosterhamrikkade; "Oude Boteringestraat" holds "Boteringestraat"
    const page = await placed("A2 Oude Boteringestraat 44 Groningen rit 88123");
    expect(page).toMatchObject({ street: "Oude Boteringestraat", positionPrecision: "address" });
  });

  test("a postcode in any case places a page that names no street of the register", async () => {
    const page = await placed("a2 groningen 9711 ab rit 12345");
    expect(page).toMatchObject({ postcode: "9711AB", positionPrecision: "postcode" });
    const { rows } = await ctx.db.asOwner(
      "select latitude, longitude from app_public.postcodes where postcode = '9711AB'",
    );
    expect(page).toMatchObject(rows[0]);
    // "1234 en" is no postcode
    expect((await placed("P 2 persoon te water 1234 en Assen")).postcode).toBeNull();
  });

  test("a page that names only its place sits at the centroid of the place's addresses", async () => {
    const page = await placed("P 2 BR container Assen 031234");
    const { rows } = await ctx.db.asOwner(
      `select w.latitude, w.longitude from app_hidden.address_woonplaatsen w where w.woonplaats = 'Assen'`,
    );
    expect(page).toMatchObject({ city: "Assen", positionPrecision: "place", ...rows[0] });
  });

  test("a street of another town is not taken for the page's", async () => {
    // Zierikzee has no Herestraat: the page stays at its place
    expect(await placed("P 1 BR woning Herestraat Zierikzee")).toMatchObject({
      city: "Zierikzee",
      positionPrecision: "place",
    });
  });
});

describe("locationSuggestions and postcodes", () => {
  const suggest = async (search: string, first = 5) =>
    (
      await query(
        `query ($search: String!, $first: Int) { locationSuggestions(search: $search, first: $first) {
           kind label detail latitude longitude postcode } }`,
        { search, first },
      )
    ).locationSuggestions;

  test("an address as people type it: street, number and the start of the place", async () => {
    const [first] = await suggest("oude haven 3 zier");
    expect(first).toMatchObject({
      kind: "address",
      label: "Oude Haven 3",
      detail: "Zierikzee, Schouwen-Duiveland",
      ...(await register("Oude Haven", "Zierikzee", 3)),
    });
    const [hoofdstraat] = await suggest("Hoofdstraat 12 hoogez");
    expect(hoofdstraat).toMatchObject({
      kind: "address",
      label: "Hoofdstraat 12",
      detail: "Hoogezand, Midden-Groningen",
    });
  });

  test("streets, places and postcodes", async () => {
    const streets = await suggest("herestraat");
    expect(streets[0]).toMatchObject({ kind: "street", label: "Herestraat", detail: "Groningen" });
    const places = await suggest("zierik");
    expect(places[0]).toMatchObject({ kind: "place", label: "Zierikzee" });
    const postcodes = await suggest("9711 a");
    expect(postcodes.map((p: { kind: string }) => p.kind)).toEqual([
      "postcode",
      "postcode",
      "postcode",
      "postcode",
      "postcode",
    ]);
    expect(postcodes[0].label).toMatch(/^9711A[A-Z]$/);
    const data = await query(`{ postcodes(search: "4301", first: 2) { postcode city municipality } }`);
    expect(data.postcodes[0]).toMatchObject({
      postcode: "4301",
      city: "Zierikzee",
      municipality: "Schouwen-Duiveland",
    });
  });

  test("cities are placed at the centroid of their addresses where the register covers them", async () => {
    const data = await query(`{ cities(search: "Zierikzee", first: 1) { name latitude longitude } }`);
    const { rows } = await ctx.db.asOwner(
      `select latitude, longitude from app_hidden.address_woonplaatsen where woonplaats = 'Zierikzee'`,
    );
    expect(data.cities[0]).toMatchObject({ name: "Zierikzee", ...rows[0] });
  });
});

describe("what a better position changes", () => {
  test("a monitor's circle around a home catches the page at its street, not the town's other pages", async () => {
    // Two pages of Zierikzee: one on the Gouweveerseweg, 2 km out of the centre, one naming only
    // the town (at the centroid of its addresses), as the other pages of this file.
    await placed("A1 AMBU 19123 Gouweveerseweg Zierikzee bon 51234");
    await placed("A1 AMBU 19124 Zierikzee bon 51235");
    const home = await register("Gouweveerseweg", "Zierikzee");
    const user = (await signUp(ctx.service, "neighbour@example.org")).accessToken;
    const { body } = await ctx.service.graphql(
      `query ($i: CreateMonitorInput!) { monitorPreview(input: $i, days: 1) { matches messages { message positionPrecision } } }`,
      {
        token: user,
        variables: {
          i: {
            name: "Home",
            location: { latitude: home.latitude, longitude: home.longitude },
            radius: 0.2,
            query: "{}",
          },
        },
      },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.monitorPreview.messages).toEqual([
      { message: "A1 AMBU 19123 Gouweveerseweg Zierikzee bon 51234", positionPrecision: "street" },
    ]);
  });
});

describe("who may add pages", () => {
  test("createP2000Message places the page the same way", async () => {
    const admin = (await signUp(ctx.service, "dispatcher@example.org")).accessToken;
    await ctx.db.asOwner("update app_public.users set is_admin = true where email_address = 'dispatcher@example.org'");
    const { body } = await ctx.service.graphql(
      `mutation ($input: CreateP2000MessageInput!) { createP2000Message(input: $input) { street positionPrecision } }`,
      {
        token: admin,
        variables: { input: { message: "A1 Poststraat 1 4301AA Zierikzee", sended: "2026-11-01T10:00:00Z" } },
      },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.createP2000Message).toEqual({ street: "Poststraat", positionPrecision: "address" });
  });
});
