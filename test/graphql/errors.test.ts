// What a client learns of an error from the database (lib/graphql/errors.ts): our words and a code
// it can act on, never PostgreSQL's message.
import { expect, test } from "@jest/globals";
import { describeError } from "../../lib/graphql/errors.ts";
import { configureLog, writeLogTo } from "../../lib/ops/log.ts";

/** An error as node-postgres gives it: PostgreSQL's message and its SQLSTATE. */
const pgError = (code: string, message: string) => Object.assign(new Error(message), { code });

test("a full disk is SERVICE_UNAVAILABLE in our words: nothing was stored, try again later", () => {
  const described = describeError(
    pgError("53100", 'could not extend file "base/16384/16999": No space left on device'),
  );
  expect(described).toEqual({
    message: "The database has no room to store this now; try again later.",
    extensions: { code: "SERVICE_UNAVAILABLE" },
  });
});

test("a cancelled query is TIMEOUT; a lost connection SERVICE_UNAVAILABLE with a retry hint", () => {
  expect(describeError(pgError("57014", "canceling statement due to statement timeout")).extensions).toEqual({
    code: "TIMEOUT",
  });
  expect(describeError(pgError("57P01", "terminating connection due to administrator command")).extensions).toEqual({
    code: "SERVICE_UNAVAILABLE",
    retryAfter: 2,
  });
});

test("anything else is an internal error with a log id, its message only in the log", () => {
  const lines: string[] = [];
  const undo = writeLogTo((_level, line) => lines.push(line));
  configureLog({ level: "info", format: "text" });
  const described = describeError(pgError("42P01", 'relation "app_private.secret_table" does not exist'));
  undo();
  expect(described.extensions.code).toBe("INTERNAL_SERVER_ERROR");
  expect(described.message).not.toMatch(/secret_table/);
  expect(lines.join("\n")).toMatch(new RegExp(`${described.extensions.logId}.*secret_table`));
});
