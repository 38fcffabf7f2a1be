// Spec section 8 limits and our error rules: clear codes for bad input, masked internal errors.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { writeLogTo } from "../../lib/ops/log.ts";
import { useTestService } from "../helpers/service.ts";

const ctx = useTestService();

let token: string;

beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
});

const regions = (first: unknown, page: unknown) =>
  ctx.service.graphql("query ($first: Int, $page: Int) { p2000Regions(first: $first, page: $page) { number } }", {
    token,
    variables: { first, page },
  });

describe("pagination", () => {
  test("pages are numbered from 1", async () => {
    const { body } = await regions(10, 3);
    expect(body.data.p2000Regions.map((r: any) => r.number)).toEqual(["21", "22", "23", "24", "25"]);
    expect((await regions(10, 4)).body.data.p2000Regions).toEqual([]);
  });

  test("first above the cap is clamped to 100, not refused", async () => {
    const { body } = await regions(100000, 1);
    expect(body.errors).toBeUndefined();
    expect(body.data.p2000Regions).toHaveLength(25);
  });

  test("the SQL helpers default first to 50 and cap it at 100", async () => {
    const {
      rows: [row],
    } = await ctx.db.asOwner(
      "select app_hidden.page_limit(null) as dflt, app_hidden.page_limit(500) as capped, app_hidden.page_limit(7) as asked, " +
        "app_hidden.page_offset(null, 3) as offset_default, app_hidden.page_offset(500, 2) as offset_capped",
    );
    expect(row).toEqual({ dflt: 50, capped: 100, asked: 7, offset_default: 100, offset_capped: 100 });
  });

  test.each([
    [0, 1, /"first" must be at least 1/],
    [-5, 1, /"first" must be at least 1/],
    [10, 0, /"page" must be at least 1/],
    [100, 2000, /"page" is too large/],
  ])("first %p, page %p is a BAD_USER_INPUT error", async (first, page, message) => {
    const { status, body } = await regions(first, page);
    expect(status).toBe(200);
    expect(body.data.p2000Regions).toBeNull();
    expect(body.errors![0].message).toMatch(message);
    expect(body.errors![0].extensions!.code).toBe("BAD_USER_INPUT");
  });

  test("a variable of the wrong type is a coded error", async () => {
    const { body } = await regions("ten", 1);
    expect(body.errors![0].message).toMatch(/\$first/);
    expect(body.errors![0].extensions!.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  test("an over-long search term is refused", async () => {
    const { body } = await ctx.service.graphql(
      "query ($s: String) { p2000Regions(filter: { search: $s }) { number } }",
      {
        token,
        variables: { s: "x".repeat(101) },
      },
    );
    expect(body.errors![0].extensions!.code).toBe("BAD_USER_INPUT");
  });
});

describe("errors", () => {
  test("GraphQL validation errors carry a code", async () => {
    // With Accept: application/json (the legacy GraphQL-over-HTTP media type) the status stays 200.
    const { body } = await ctx.service.graphql("{ p2000Regions { noSuchField } }", { token });
    expect(body.errors![0].message).toMatch(/noSuchField/);
    expect(body.errors![0].extensions!.code).toBe("GRAPHQL_VALIDATION_FAILED");
    const syntax = await ctx.service.graphql("{ p2000Regions { ", { token });
    expect(syntax.body.errors![0].extensions!.code).toBe("GRAPHQL_PARSE_FAILED");
  });

  test("an internal error is masked: no SQL, no table names, a log id that is logged with the cause", async () => {
    const logged: string[] = [];
    const undoLog = writeLogTo((_level, line) => logged.push(line));
    await ctx.db.asOwner("alter table app_public.p2000_grip_levels rename to p2000_grip_levels_gone");
    try {
      const { status, body } = await ctx.service.graphql("{ p2000GripLevels { name } }", { token });
      expect(status).toBe(200);
      const [error] = body.errors!;
      expect(error.message).toMatch(/^Internal error \(log id [0-9a-f]{12}\)\.$/);
      expect(error.extensions).toEqual({ code: "INTERNAL_SERVER_ERROR", logId: expect.any(String) });
      expect(JSON.stringify(body)).not.toMatch(/relation|p2000_grip|app_public|select|stack/i);
      const logLine = logged.join("\n");
      expect(logLine).toContain(error.extensions!.logId as string);
      expect(logLine).toMatch(/p2000_grip_levels/);
    } finally {
      await ctx.db.asOwner("alter table app_public.p2000_grip_levels_gone rename to p2000_grip_levels");
      undoLog();
    }
  });

  test("a body that is not JSON gets a 400 with an error body, not a crash", async () => {
    const response = await fetch(ctx.service.graphqlUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{ not json",
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as any).errors[0].message).toBeTruthy();
  });
});
