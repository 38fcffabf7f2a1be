// lib/p2000/flex-parser.ts withReadTime: a remote receiver's line without a time of its own gets
// the time it was read before it is spooled, so a page sent after an outage keeps when it was heard.
import { describe, expect, test } from "@jest/globals";
import { parseFlexLine, withReadTime } from "../../lib/p2000/flex-parser.ts";

const heard = new Date("2026-11-30T06:15:42.900Z");

describe("withReadTime", () => {
  test("a classic line without a time gets the read time, and parses to it", () => {
    const line = withReadTime("FLEX|1600/2/K/A|12.077|001180000|ALN|TESTOPROEP MOB", heard);
    expect(line).toBe("FLEX|2026-11-30 06:15:42|1600/2/K/A|12.077|001180000|ALN|TESTOPROEP MOB");
    const parsed = parseFlexLine(line, new Date("2026-11-30T09:00:00Z"));
    expect(parsed).toMatchObject({ kind: "page", page: { sended: new Date("2026-11-30T06:15:42Z") } });
  });

  test("a JSON line without a timestamp gets one; lines with their own time stay as they are", () => {
    const json = JSON.parse(withReadTime('{"capcode":1180000,"demod_name":"flex_alphanumeric","message":"X"}', heard));
    expect(json).toEqual({
      capcode: 1180000,
      demod_name: "flex_alphanumeric",
      message: "X",
      timestamp: "2026-11-30 06:15:42",
    });
    for (const line of [
      "FLEX|2021-06-28 16:50:07|1600/2/K/A|12.077|002029569|ALN|A1 AMBU 17107",
      '{"timestamp":"2024-09-13 20:35:30","capcode":1180000,"message":"X"}',
      "not a FLEX line",
      "{not json",
    ])
      expect(withReadTime(line, heard)).toBe(line);
  });
});
