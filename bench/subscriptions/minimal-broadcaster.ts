// The viewers bench's limit (issue 47): a minimal WebSocket server that sends the service's own
// payloads to the same number of sockets at the same rate, with nothing between the message and
// the sockets (no database, no GraphQL execution, no per-viewer check). It runs in a process of its
// own, as the service does: `startMinimalBroadcaster` starts it, the bench connects its viewers,
// `broadcast` sends `count` messages evenly over `seconds` (the marker `#<n>` in the frame made
// unique per message, as the service's pages are) and answers when each was sent and the CPU time
// the broadcaster took (ms).
import { spawn } from "node:child_process";
import readline from "node:readline";
import { WebSocketServer, type WebSocket } from "ws";

export interface Broadcast {
  /** Date.now() at which message n (its marker #n) began to go out. */
  sentAt: Record<string, number>;
  cpuMs: number;
}

export async function startMinimalBroadcaster() {
  const child = spawn(process.execPath, [new URL(import.meta.url).pathname], { stdio: ["pipe", "pipe", "inherit"] });
  const lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const port = Number((await lines.next()).value);
  return {
    url: `ws://127.0.0.1:${port}`,
    /** Sends `frame` (its MARKERs replaced by #1, #2, …) `count` times over `seconds`. */
    async broadcast(frame: string, count: number, seconds: number): Promise<Broadcast> {
      child.stdin.write(`${JSON.stringify({ frame, count, seconds })}\n`);
      return JSON.parse((await lines.next()).value as string) as Broadcast;
    },
    async stop() {
      child.stdin.end();
      await new Promise((resolve) => child.once("exit", resolve));
    },
  };
}

// As a child process: listens, says its port, broadcasts what it is told, one job a line.
if (process.argv[1] === new URL(import.meta.url).pathname) {
  const server = new WebSocketServer({ host: "127.0.0.1", port: 0 });
  const sockets = new Set<WebSocket>();
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  await new Promise((resolve) => server.once("listening", resolve));
  process.stdout.write(`${(server.address() as { port: number }).port}\n`);
  for await (const line of readline.createInterface({ input: process.stdin })) {
    const { frame, count, seconds } = JSON.parse(line) as { frame: string; count: number; seconds: number };
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const sentAt: Record<string, number> = {};
    for (let n = 1; n <= count; n++) {
      const wait = started + ((n - 1) * seconds * 1000) / count - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      const message = frame.replaceAll("MARKER", `#${n}`);
      sentAt[`#${n}`] = Date.now();
      for (const socket of sockets) socket.send(message);
    }
    const cpu = process.cpuUsage(cpuBefore);
    process.stdout.write(`${JSON.stringify({ sentAt, cpuMs: (cpu.user + cpu.system) / 1000 })}\n`);
  }
  for (const socket of sockets) socket.terminate();
  server.close();
}
