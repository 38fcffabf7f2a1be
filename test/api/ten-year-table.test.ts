// The ten-year table of bench/p2000-history.ts asks every public read of the spec: this keeps its
// list whole (each operation of interface-spec.md 4.3 is in it) and its queries answerable (each
// is valid, within the query limits, and answers without an error on a database without data).
import fs from "node:fs";
import { beforeAll, describe, expect, test } from "@jest/globals";
import { HISTORY_BENCH_OPERATIONS, specReads, type SpecRead } from "../../bench/spec-reads.ts";
import { seeded } from "../../bench/bench-database.ts";
import { useTestService } from "../helpers/service.ts";

const ctx = useTestService();
let reads: SpecRead[];
let token: string;
beforeAll(async () => {
  reads = await specReads(ctx.service.ownerPool, ctx.db.operatorEnvironmentUuid, seeded(1));
  token = (await ctx.service.newToken()).secret;
});

describe("the ten-year table's reads", () => {
  test("every public read of the spec is in the table", () => {
    const spec = fs.readFileSync(new URL("../../../shared/spec/interface-spec.md", import.meta.url), "utf8");
    const section = spec.slice(spec.indexOf("### 4.3"), spec.indexOf("## 5."));
    const operations = [...section.matchAll(/^\| ([a-zA-Z0-9 /]+?)(?: \(deprecated alias\))? \|/gm)]
      .flatMap((m) => m[1].split(" / "))
      .filter((name) => name !== "Operation");
    expect(operations.length).toBeGreaterThan(70);
    const measured = new Set([...HISTORY_BENCH_OPERATIONS, ...reads.map((r) => r.operation)]);
    expect(operations.filter((name) => !measured.has(name))).toEqual([]);
  });

  test("each read answers without an error", async () => {
    const failures: string[] = [];
    for (const read of reads) {
      const { status, body } = await ctx.service.graphql(read.query, { token, variables: read.args() });
      if (status !== 200 || body.errors) failures.push(`${read.name}: ${status} ${JSON.stringify(body.errors)}`);
    }
    expect(failures).toEqual([]);
  });
});
