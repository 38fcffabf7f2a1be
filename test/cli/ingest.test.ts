// The FLEX reader and the capcode importer as operators run them: real processes against a real
// database, reading fixture files in multimon-ng's and the public capcode lists' formats, stdin,
// a growing file and a TCP socket.
import { describe, expect, test } from "@jest/globals";
import { spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { ROOT_DIR } from "../../lib/paths.ts";
import { fixture, runCli } from "../helpers/cli.ts";
import { useTestDatabase } from "../helpers/database.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestDatabase();
const env = () => ({ ...process.env, DATABASE_URL: ctx.db.ownerUrl, NODE_OPTIONS: "" });
const cli = (script: string, args: string[], input?: string) => runCli(script, args, ctx.db.ownerUrl, input);

const waitFor = (check: () => Promise<boolean>, what: string) => waitUntil(check, Boolean, what);

const count = async (where = "true") =>
  (await ctx.db.asOwner(`select count(*)::int as n from app_public.p2000_messages where ${where}`)).rows[0].n as number;

describe("npm run ingest:flex", () => {
  test("reads a file: group calls, copies merged with the union of capcodes, fragments joined, bad lines counted", async () => {
    const result = await cli("ingest-flex.ts", [fixture("multimon-flex.txt")]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("10 lines: 7 pages stored (copies merged), 1 skipped, 1 malformed.");
    expect(result.stderr).toMatch(/Line 8 is malformed \(not a FLEX line\): garbage line/);
    const { rows } = await ctx.db.asOwner(
      "select message, capcode_names, exercise_type, sended from app_public.p2000_messages order by sended, message",
    );
    expect(rows.map((r) => r.message)).toEqual([
      "TESTOPROEP HOOFDSYSTEEM MKOB DEN BOSCH",
      "A1 AMBU 17107 Bachplein Schiedam SCHIDM bon 147008",
      "A1 AMBU 17107 Bachplein Schiedam SCHIDM bon 147008 (herhaling)",
      "P 1 BRT-01 BR woning Toscalaan Hoogvliet Rotterdam 173151 171631 173131",
      "TESTOPROEP MOB",
      "Kluunpad Zeewolde Ongeval/Wegvervoer/Letsel | extra pipe",
    ]);
    expect(rows[1].capcode_names).toEqual(["1420007", "1420059", "1420999", "2029569"]);
    expect(rows[1].sended.toISOString()).toBe("2021-06-28T16:51:02.000Z");
    expect(rows[4].exercise_type).toBe("test");
    // Reading the same capture again changes nothing of its timed pages. (The last line has no time
    // of its own, so it is stamped when read: a busy CI machine read it again over 10 s later.)
    await cli("ingest-flex.ts", [fixture("multimon-flex.txt")]);
    expect(await count("message not like 'Kluunpad%'")).toBe(5);
  });

  test("reads stdin", async () => {
    const line = "FLEX|2023-03-01 12:00:00|1600/2/K/A|12.001|000923129|ALN|A1 Maerlantstraat 6531AT Nijmegen 69972\n";
    const result = await cli("ingest-flex.ts", ["-"], line);
    expect(result.code).toBe(0);
    expect(await count("message like 'A1 Maerlantstraat%'")).toBe(1);
  });

  test("follows a growing file and stops cleanly on SIGTERM", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "flex-")), "receiver.log");
    fs.writeFileSync(
      file,
      "FLEX|2023-04-01 08:00:00|1600/2/K/A|12.001|001500123|ALN|P 2 BDH-02 BR container Brueghelstraat 's-Gravenhage\n",
    );
    const child = spawn(process.execPath, [path.join(ROOT_DIR, "bin", "ingest-flex.ts"), "--follow", file], {
      cwd: ROOT_DIR,
      env: env(),
    });
    let stderr = "";
    child.stderr.on("data", (chunk) => (stderr += chunk));
    await waitFor(async () => (await count("message like 'P 2 BDH-02%'")) === 1, "the first line");
    fs.appendFileSync(
      file,
      "FLEX|2023-04-01 08:05:00|1600/2/K/A|12.002|001500123|ALN|P 1 BDH-01 Ongeval wegvervoer A12 Re 45,6 Zoetermeer 151231\n",
    );
    await waitFor(async () => (await count("message like 'P 1 BDH-01%'")) === 1, "the appended line");
    child.kill("SIGTERM");
    const code = await new Promise((resolve) => child.on("exit", resolve));
    expect(code).toBe(0);
    expect(stderr).toContain("2 lines: 2 pages stored");
  });

  test("reads a TCP stream", async () => {
    const server = net.createServer((socket) => {
      socket.write(
        "FLEX|2023-05-01 09:00:00|1600/2/K/A|12.001|000730316|ALN|Kerkstraat Almere Ongeval/Wegvervoer/Letsel\n",
      );
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as net.AddressInfo;
    const child = spawn(
      process.execPath,
      [path.join(ROOT_DIR, "bin", "ingest-flex.ts"), "--tcp", `127.0.0.1:${port}`],
      { cwd: ROOT_DIR, env: env() },
    );
    try {
      await waitFor(async () => (await count("message like 'Kerkstraat Almere%'")) === 1, "the TCP line");
    } finally {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.on("exit", resolve));
      server.close();
    }
  });

  test("refuses unclear arguments", async () => {
    const result = await cli("ingest-flex.ts", []);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("Usage: npm run ingest:flex");
  });
});

describe("npm run import:capcodes", () => {
  test("upserts a capcode list in the public CSV layout and reports rejected rows", async () => {
    const result = await cli("import-capcodes.ts", [fixture("capcodes.csv")]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("4 rows: 3 capcodes imported or updated, 1 rejected.");
    expect(result.stderr).toContain('"12ab345" is not a capcode');
    const { rows } = await ctx.db.asOwner(`
      select c.name, d.name as discipline, r.number as region, c.location, c.description, c.remark
        from app_public.p2000_capcodes c left join app_public.p2000_disciplines d on d.uuid = c.discipline_uuid
        left join app_public.p2000_regions r on r.uuid = c.region_uuid
       where c.name in ('1400349', '0923129', '1420007') order by c.name`);
    expect(rows).toEqual([
      {
        name: "0923129",
        discipline: "Ambulance",
        region: "08",
        location: "Nijmegen",
        description: "Ambulance 08-129",
        remark: null,
      },
      {
        name: "1400349",
        discipline: "Brandweer",
        region: "17",
        location: "Rotterdam",
        description: "Brandweer Rotterdam-Rijnmond TS 17-3151",
        remark: null,
      },
      {
        name: "1420007",
        discipline: "Ambulance",
        region: "17",
        location: "Schiedam",
        description: "Ambulance 17-107, Schiedam",
        remark: "herhaling",
      },
    ]);
    const again = await cli("import-capcodes.ts", [fixture("capcodes.csv")]);
    expect(again.code).toBe(0);
    expect(
      (await ctx.db.asOwner("select count(*)::int as n from app_public.p2000_capcodes where name = '1400349'")).rows[0]
        .n,
    ).toBe(1);
  });
});
