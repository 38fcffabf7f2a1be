// Query limits (issue: one request held the database for 15 s or answered 16 MB): documents that
// are too deep, have too many aliases or tokens, or cost too much are refused at validation, with
// QUERY_TOO_COMPLEX, before any SQL runs; every spec operation used as intended and GraphiQL's
// introspection still pass; field suggestions are left out where configured.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { getIntrospectionQuery } from "graphql";
import { errorOf, useTestService } from "../helpers/service.ts";

const ctx = useTestService(() => ({
  api: {
    queryLimits: {
      maxDepth: 7,
      maxAliases: 15,
      maxDirectives: 50,
      maxTokens: 2000,
      maxCost: 5000,
      blockFieldSuggestions: true,
    },
  },
}));

let token: string;
beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
  // The schema is built in the background at start (and reads the catalogue of the tables locked
  // below): one answered request first, so the locks below test the request, not the start.
  expect((await ctx.service.graphql("{ p2000Regions(first: 1) { number } }", { token })).body.errors).toBeUndefined();
});

/**
 * Runs `request` while another session holds an exclusive lock on the tables the documents read:
 * a document that reached SQL would wait for the lock (and the test time out); a refused one answers.
 */
async function withTablesLocked<T>(request: () => Promise<T>): Promise<T> {
  const client = await ctx.service.ownerPool.connect();
  try {
    await client.query("begin");
    await client.query("lock table app_public.p2000_messages, app_public.p2000_regions in access exclusive mode");
    return await request();
  } finally {
    await client.query("rollback");
    client.release();
  }
}

/** p2000Messages → dossier → messages → dossier … `levels` fields below p2000Messages. */
function cycle(levels: number): string {
  let selection = "uuid";
  for (let level = levels; level >= 1; level--)
    selection = `${level % 2 === 1 ? "dossier" : "messages"} { uuid ${selection} }`;
  return `{ p2000Messages(first: 100) { uuid ${selection} } }`;
}

describe("hostile documents are refused before any SQL runs", () => {
  test.each([
    ["the dossier cycle nested 8 levels deep", cycle(8), /Query depth limit of 7 exceeded/],
    [
      "500 aliases of p2000Messages(first: 100)",
      `{ ${Array.from({ length: 500 }, (_, i) => `a${i}: p2000Messages(first: 100) { uuid message }`).join(" ")} }`,
      /(Aliases|Token) limit/,
    ],
    [
      "20 aliases",
      `{ ${Array.from({ length: 20 }, (_, i) => `a${i}: p2000Regions { number }`).join(" ")} }`,
      /Aliases limit of 15 exceeded/,
    ],
    [
      "a document of 5,000 tokens",
      `{ p2000Regions { ${Array.from({ length: 2500 }, () => "number").join(" ")} } }`,
      /Token limit of 2000 exceeded/,
    ],
    [
      "many directives",
      `{ p2000Regions { number ${Array.from({ length: 60 }, () => "@include(if: true)").join(" ")} } }`,
      /Directives limit of 50 exceeded/,
    ],
  ])("%s", async (_name, query, message) => {
    const { status, body } = await withTablesLocked(() => ctx.service.graphql(query, { token }));
    expect(body.data).toBeUndefined();
    expect(errorOf(body)).toEqual({ message: expect.stringMatching(message), code: "QUERY_TOO_COMPLEX" });
    expect(status).toBeLessThan(500);
  });

  test("a costly document within the depth limit is refused by cost", async () => {
    const wide = Array.from(
      { length: 14 },
      (_, i) =>
        `a${i}: p2000Messages(first: 100) { uuid message sended capcodes { uuid name discipline { uuid name } } dossier { uuid title messages { uuid message capcodes { uuid name } } } }`,
    ).join(" ");
    const { body } = await ctx.service.graphql(`{ ${wide} }`, { token });
    expect(errorOf(body)).toEqual({
      message: expect.stringMatching(/Query Cost limit of 5000 exceeded/),
      code: "QUERY_TOO_COMPLEX",
    });
  });
});

describe("what clients do is allowed", () => {
  test("unknown fields are validation errors, answered before any SQL too", async () => {
    const { body } = await withTablesLocked(() =>
      ctx.service.graphql("{ p2000Messages(first: 100) { uuid messages { uuid } } }", { token }),
    );
    expect(errorOf(body).code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  test("GraphiQL's introspection query", async () => {
    const { body } = await ctx.service.graphql(
      getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, inputValueDeprecation: true }),
      { token },
    );
    expect(body.errors).toBeUndefined();
    expect(body.data.__schema.queryType.name).toBe("Query");
  });

  test("a message with its dossier's messages and their capcodes' disciplines", async () => {
    const { body } = await ctx.service.graphql(
      `{ p2000Messages(first: 50) { uuid message sended capcodes { uuid name discipline { name } }
      dossier { uuid title urgency { name } timeline { sended } messages { uuid message capcodes { name discipline { name } } } } } }`,
      { token },
    );
    expect(body.errors).toBeUndefined();
  });

  test("validation errors do not suggest field names", async () => {
    const { body } = await ctx.service.graphql("{ p2000Message { uid } }", { token });
    expect(body.errors?.length).toBeGreaterThan(0);
    for (const error of body.errors!) expect(error.message).not.toMatch(/Did you mean/);
  });
});
