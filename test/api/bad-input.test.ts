// Bad input everywhere answers BAD_USER_INPUT, never an internal error: text PostgreSQL cannot
// store (NUL, lone surrogates), over-long strings (naming the argument or variable), and numbers
// and dates out of PostgreSQL's range.
import { beforeAll, describe, expect, test } from "@jest/globals";
import { MAX_STRING_LENGTH } from "../../plugins/input-guard.ts";
import { errorOf, useTestService } from "../helpers/service.ts";

const ctx = useTestService();

let token: string;
beforeAll(async () => {
  token = (await ctx.service.newToken()).secret;
});

describe("text PostgreSQL cannot store", () => {
  test.each([
    [
      "a NUL byte inline",
      `{ p2000Region(slug: "a\\u0000b") { number } }`,
      undefined,
      /Argument "slug" contains a NUL character/,
    ],
    [
      "a NUL byte in a variable",
      `query ($s: String!) { p2000Region(slug: $s) { number } }`,
      { s: "a\u0000b" },
      /Variable "\$s" contains a NUL character/,
    ],
    [
      "a NUL byte deep in an input object",
      `query ($f: P2000MessageFilterInput) { p2000Messages(filter: $f) { uuid } }`,
      { f: { capcodes: ["x", "y\u0000"] } },
      /Variable "\$f"\.capcodes\[1\] contains a NUL character/,
    ],
    [
      "a lone surrogate",
      `query ($s: String!) { p2000Region(slug: $s) { number } }`,
      { s: "a\ud800b" },
      /not valid Unicode/,
    ],
    [
      "an over-long string",
      `query ($s: String!) { p2000Region(slug: $s) { number } }`,
      { s: "x".repeat(MAX_STRING_LENGTH + 1) },
      new RegExp(`longer than ${MAX_STRING_LENGTH} characters`),
    ],
  ])("%s", async (_name, query, variables, message) => {
    const { status, body } = await ctx.service.graphql(query, { token, variables });
    expect(status).toBeLessThan(500);
    expect(errorOf(body)).toEqual({ message: expect.stringMatching(message), code: "BAD_USER_INPUT" });
  });
});

describe("values out of PostgreSQL's range", () => {
  test("a date past PostgreSQL's last year (294276)", async () => {
    const { body } = await ctx.service.graphql(
      `query ($f: P2000MessageFilterInput) { p2000Messages(filter: $f) { uuid } }`,
      { token, variables: { f: { sended: { from: "2026-01-01T00:00:00Z", to: "300000-12-31T00:00:00Z" } } } },
    );
    expect(errorOf(body)).toEqual({ message: expect.stringMatching(/date or time/), code: "BAD_USER_INPUT" });
  });

  test("a malformed date", async () => {
    const { body } = await ctx.service.graphql(
      `query ($f: P2000MessageFilterInput) { p2000Messages(filter: $f) { uuid } }`,
      { token, variables: { f: { sended: { from: "2026-13-45", to: "yesterday-ish" } } } },
    );
    expect(errorOf(body).code).toBe("BAD_USER_INPUT");
  });
});
