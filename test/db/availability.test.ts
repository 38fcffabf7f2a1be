// How the service decides that the database is gone (lib/db/availability.ts), against servers that
// behave as a database may: one that refuses connections is down at the first probe; one that
// accepts and then stalls (a host under load, a password exchange that does not finish in time) is
// down only after three probes in a row time out, so one slow moment on a busy machine does not
// answer every client 503; and a real database is up. Once the service stops, nothing of it is
// said: the connections that end then are its own doing.
import { createServer, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "@jest/globals";
import { DatabaseAvailability } from "../../lib/db/availability.ts";
import { freePort } from "../helpers/ports.ts";
import { useTestDatabase } from "../helpers/database.ts";
import { waitUntil } from "../helpers/wait.ts";

const TIMING = { upMs: 50, downMs: 50, timeoutMs: 300 };

/**
 * A server that takes a connection, asks for the SCRAM password exchange as PostgreSQL does
 * (AuthenticationSASL) and then never answers: a database too busy to finish a login.
 */
function authenticationSasl(): Buffer {
  const mechanisms = Buffer.from("SCRAM-SHA-256\0\0");
  const message = Buffer.alloc(9 + mechanisms.length);
  message.write("R", 0);
  message.writeInt32BE(8 + mechanisms.length, 1);
  message.writeInt32BE(10, 5);
  mechanisms.copy(message, 9);
  return message;
}
let stalling: Server;
const sockets = new Set<Socket>();
let probesSeen = 0;
beforeAll(async () => {
  stalling = createServer((socket) => {
    probesSeen += 1;
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.once("data", () => socket.write(authenticationSasl()));
  });
  await new Promise<void>((resolve) => stalling.listen(0, "127.0.0.1", resolve));
});
afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => stalling.close(resolve));
});

const ctx = useTestDatabase();

function watch(url: string): { availability: DatabaseAvailability; log: string[] } {
  const log: string[] = [];
  const availability = new DatabaseAvailability(url, (line) => log.push(line), TIMING);
  availability.start();
  return { availability, log };
}

describe("DatabaseAvailability", () => {
  test("a database that answers is up, and its probe finds it answering again after a request's connection error", async () => {
    const { availability, log } = watch(ctx.db.ownerUrl);
    try {
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(availability.isUp).toBe(true);
      expect(log).toEqual([]);
      // Down on a request's word (the state starts up, so being up alone proves no probe ran);
      // the next probe's `select 1` answers and brings it back.
      availability.notice(Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }));
      expect(availability.isUp).toBe(false);
      await waitUntil(
        () => availability.isUp,
        (up) => up,
        "the probe to find the database answering",
        2000,
      );
      expect(log).toEqual([
        "The database does not answer (read ECONNRESET); GraphQL requests get 503 until it does.",
        "The database answers again.",
      ]);
    } finally {
      await availability.stop();
    }
  });

  test("a refused connection marks it down at the first probe", async () => {
    const port = await freePort();
    const { availability, log } = watch(`postgres://nobody:secret@127.0.0.1:${port}/none`);
    try {
      await waitUntil(
        () => availability.isUp,
        (up) => !up,
        "the refused database marked down",
        2000,
      );
      expect(log).toHaveLength(1);
      expect(log[0]).toMatch(/^The database does not answer \(.*ECONNREFUSED/);
    } finally {
      await availability.stop();
    }
  });

  test("a connection that stalls past its time is a slow probe: down only after three in a row", async () => {
    const { port } = stalling.address() as AddressInfo;
    probesSeen = 0;
    const { availability, log } = watch(`postgres://nobody:secret@127.0.0.1:${port}/none`);
    try {
      // The first two probes time out in the middle of their login ("timeout expired"): still up.
      await waitUntil(
        () => probesSeen,
        (seen) => seen >= 2,
        "two probes",
        5000,
      );
      expect(availability.isUp).toBe(true);
      await waitUntil(
        () => availability.isUp,
        (up) => !up,
        "the stalling database marked down",
        5000,
      );
      expect(probesSeen).toBeGreaterThanOrEqual(3);
      expect(log).toEqual([expect.stringMatching(/^The database does not answer \(.*timeout/i)]);
    } finally {
      await availability.stop();
    }
  });

  test("once stopped (the service stops), connections ending are no outage: nothing is said, nothing is 503", async () => {
    const { availability, log } = watch(ctx.db.ownerUrl);
    await availability.stop();
    expect(availability.stopping).toBe(true);
    availability.notice(new Error("Connection terminated unexpectedly"));
    availability.notice(Object.assign(new Error("terminating connection"), { code: "57P01" }));
    expect(availability.isUp).toBe(true);
    expect(log).toEqual([]);
  });
});
