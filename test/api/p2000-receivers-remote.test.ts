// Two receivers on "other machines" feeding one service (issue 48): each a real `ingest:flex --to`
// process with its own token and spool, following the file multimon-ng writes. One hears a garbled
// copy of a page the other hears clean; the other is cut off from the network (a proxy in front of
// the service drops its connections and refuses new ones) while it keeps hearing pages. When the
// network is back, everything it heard arrives, once and in order, and the clean copy is the one
// stored.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import { ROOT_DIR } from "../../lib/paths.ts";
import { useTestService } from "../helpers/service.ts";
import { startCuttableProxy, type CuttableProxy } from "../helpers/tcp-proxy.ts";
import { signUp } from "../helpers/users.ts";
import { waitUntil } from "../helpers/wait.ts";

const ctx = useTestService();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "receivers-"));
let proxy: CuttableProxy;
const processes: ChildProcess[] = [];

interface Receiver {
  name: string;
  token: string;
  /** The file its multimon-ng writes, which its reader follows. */
  heard: string;
}
const receivers: Record<"attic" | "mast", Receiver> = {} as never;

beforeAll(async () => {
  proxy = await startCuttableProxy(new URL(ctx.service.url));
  const admin = await signUp(ctx.service, "operator@example.org", { admin: true });
  for (const [key, name] of [
    ["attic", "Zolder Utrecht"],
    ["mast", "Mast Houten"],
  ] as const) {
    const { body } = await ctx.service.graphql(
      `mutation ($n: String!) { createP2000Receiver(input: { name: $n }) { token } }`,
      { token: admin.accessToken, variables: { n: name } },
    );
    const heard = path.join(dir, `${key}.log`);
    fs.writeFileSync(heard, "");
    receivers[key] = { name, token: body.data!.createP2000Receiver.token, heard };
  }
  // The mast reaches the service through the proxy that will be cut.
  for (const [key, url] of [
    ["attic", ctx.service.graphqlUrl],
    ["mast", `${proxy.url}/graphql`],
  ] as const) {
    const child = spawn(
      process.execPath,
      [
        path.join(ROOT_DIR, "bin/ingest-flex.ts"),
        "--to",
        url,
        "--spool",
        path.join(dir, `${key}-spool`),
        "--follow",
        receivers[key].heard,
      ],
      { env: { ...process.env, NLIS_TOKEN: receivers[key].token }, stdio: ["ignore", "ignore", "inherit"] },
    );
    processes.push(child);
  }
});

afterAll(async () => {
  for (const child of processes) child.kill("SIGTERM");
  await proxy?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

let sequence = 0;
/** What a receiver's multimon-ng prints for a page, now. */
function hear(receiver: Receiver, text: string, capcode = "001420059") {
  const at = new Date().toISOString().slice(0, 19).replace("T", " ");
  fs.appendFileSync(receiver.heard, `FLEX|${at}|1600/2/K/A|12.077|${capcode}|ALN|${text}\n`);
}

async function stored(pattern: string) {
  const { rows } = await ctx.db.asOwner(
    `select m.message, array(select x.receiver_name from app_hidden.p2000_receptions x where x.message_uuid = m.uuid order by 1) as heard_by
       from app_public.p2000_messages m where m.message like $1 order by m.sended, m.message`,
    [pattern],
  );
  return rows as Array<{ message: string; heard_by: string[] }>;
}

test("a garbled copy loses to the clean one the other receiver heard", async () => {
  hear(receivers.attic, "P 1 BDH-04 Br<NUL>nd w<ETX>ning Achterstraat Utrecht 20001");
  hear(receivers.mast, "P 1 BDH-04 Brand woning Achterstraat Utrecht 20001");
  await waitUntil(
    () => stored("%20001"),
    (rows) => rows.length === 1 && rows[0].heard_by.length === 2,
    "both copies of the page",
    30_000,
  );
  expect(await stored("%20001")).toEqual([
    { message: "P 1 BDH-04 Brand woning Achterstraat Utrecht 20001", heard_by: ["Mast Houten", "Zolder Utrecht"] },
  ]);
});

test("a receiver cut off from the network loses nothing and doubles nothing", async () => {
  proxy.cut();
  const heardWhileCut = Array.from({ length: 20 }, () => `A2 Ambu 17102 Rit ${30000 + ++sequence} Houten`);
  for (const text of heardWhileCut) hear(receivers.mast, text, "001420099");
  // The other receiver goes on publishing meanwhile.
  hear(receivers.attic, "B1 Brandweer 20002 Utrecht");
  await waitUntil(
    () => stored("%20002%"),
    (rows) => rows.length === 1,
    "the attic's page",
    30_000,
  );
  await new Promise((resolve) => setTimeout(resolve, 5_000)); // cut off for a while: the mast keeps them on disk
  expect(await stored("%Rit 300%")).toEqual([]);
  proxy.restore();
  await waitUntil(
    () => stored("%Rit 300%"),
    (rows) => rows.length === heardWhileCut.length,
    "the pages heard while cut off",
    60_000,
  );
  const rows = await stored("%Rit 300%");
  expect(rows.map((row) => row.message)).toEqual(heardWhileCut);
  expect(rows.every((row) => row.heard_by.join() === "Mast Houten")).toBe(true);
});
