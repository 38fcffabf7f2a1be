// Which token an operation takes, said plainly (issue 44, point 8): an API token sent to an operation
// that needs a user's sign-in gets an error that says so, not "Not authenticated … Bearer <token>"
// (which stays, to the letter of spec §7, for a request without any token); and GraphiQL opens on
// an example read with the Authorization header it needs, kept in the browser.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { GRAPHIQL_DEFAULT_HEADERS, GRAPHIQL_DEFAULT_QUERY } from "../../graphile.config.ts";
import { USER_TOKEN_NEEDED } from "../../lib/accounts/flows.ts";
import { errorOf, useTestService } from "../helpers/service.ts";
import { signUp, type TestUser } from "../helpers/users.ts";

const ctx = useTestService();
const NOT_AUTHENTICATED = "Not authenticated. Send Authorization: Bearer <token>.";

let apiToken: string;
let ada: TestUser;
beforeAll(async () => {
  apiToken = (await ctx.service.newToken()).secret;
  ada = await signUp(ctx.service, "ada@example.org");
});

describe("an API token sent to an operation that needs a user's access token", () => {
  test.each([
    ["monitors", "{ monitors { uuid } }"],
    ["channels", "{ channels { uuid } }"],
    ["apiTokens", "{ apiTokens { uuid } }"],
    ["currentEnvironment", "{ currentEnvironment { uuid } }"],
    ["deleteChannel", 'mutation { deleteChannel(uuid: "0190a1b2-0000-7000-8000-000000000000") }'],
    ["logout", "mutation { logout }"],
  ])("%s says it needs a user's access token", async (_name, query) => {
    const { status, body } = await ctx.service.graphql(query, { token: apiToken });
    expect(status).toBe(200);
    expect(errorOf(body)).toEqual({ message: USER_TOKEN_NEEDED, code: "UNAUTHENTICATED" });
  });

  test("without any token the spec's text stays", async () => {
    for (const query of ["{ monitors { uuid } }", "mutation { logout }"]) {
      const { body } = await ctx.service.graphql(query);
      expect(errorOf(body)).toEqual({ message: NOT_AUTHENTICATED, code: "UNAUTHENTICATED" });
    }
  });

  test("beside a public read, only the account field's error changes and the read still answers", async () => {
    const { body } = await ctx.service.graphql("{ p2000Regions(first: 1) { number } monitors { uuid } }", {
      token: apiToken,
    });
    expect(body.data.p2000Regions).toHaveLength(1);
    expect(body.data.monitors).toBeNull();
    expect(body.errors).toHaveLength(1);
    expect(errorOf(body)).toEqual({ message: USER_TOKEN_NEEDED, code: "UNAUTHENTICATED" });
  });

  test("the user's access token still reads them", async () => {
    const { body } = await ctx.service.graphql("{ monitors { uuid } }", { token: ada.accessToken });
    expect(body).toEqual({ data: { monitors: [] } });
  });
});

describe("GraphiQL", () => {
  /** The RURU_CONFIG the page at /graphiql starts Ruru with. */
  async function ruruConfig(): Promise<Record<string, unknown>> {
    const response = await fetch(ctx.service.graphiqlUrl!, { headers: { accept: "text/html" } });
    expect(response.status).toBe(200);
    const html = await response.text();
    const json = /const RURU_CONFIG = (\{[\s\S]*?\n\});/.exec(html)?.[1];
    expect(json).toBeDefined();
    return JSON.parse(json!) as Record<string, unknown>;
  }

  test("opens on an example read and an Authorization header, with the headers editor on and kept in the browser", async () => {
    const config = await ruruConfig();
    expect(config).toMatchObject({
      defaultQuery: GRAPHIQL_DEFAULT_QUERY,
      defaultHeaders: GRAPHIQL_DEFAULT_HEADERS,
      isHeadersEditorEnabled: true,
      showPersistHeadersSettings: true,
      shouldPersistHeaders: true,
    });
    expect(config.defaultQuery).toMatch(/p2000Messages\(first: 5\)/);
    expect(JSON.parse(config.defaultHeaders as string)).toEqual({ Authorization: "Bearer <your API token>" });
  });

  test("the example runs as it stands once the placeholder is a real API token", async () => {
    const { status, body } = await ctx.service.graphql(GRAPHIQL_DEFAULT_QUERY, { token: apiToken });
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(Array.isArray(body.data.p2000Messages)).toBe(true);
  });

  test("the example without a token is the API token 401, which the header placeholder explains", async () => {
    const { status, body } = await ctx.service.graphql(GRAPHIQL_DEFAULT_QUERY);
    expect(status).toBe(401);
    expect(errorOf(body).code).toBe("UNAUTHENTICATED");
  });
});
