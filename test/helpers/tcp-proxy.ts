// A TCP proxy in front of the service that a test can cut: every open connection (the page's
// WebSocket included) is dropped and new ones are refused until it is restored, as when a phone
// loses its network. The browser sees a real lost connection, not an emulated one.
import { createServer, connect, type Server, type Socket } from "node:net";
import type { AddressInfo } from "node:net";

export interface CuttableProxy {
  /** http://127.0.0.1:<port>, to open the page through. */
  url: string;
  cut(): void;
  restore(): void;
  stop(): Promise<void>;
}

export async function startCuttableProxy(target: URL): Promise<CuttableProxy> {
  const open = new Set<Socket>();
  let cut = false;
  const hold = (socket: Socket) => {
    open.add(socket);
    socket.once("close", () => open.delete(socket));
  };
  const server: Server = createServer((client) => {
    if (cut) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(target.port), target.hostname);
    hold(client);
    hold(upstream);
    client.pipe(upstream).pipe(client);
    client.on("error", () => upstream.destroy());
    upstream.on("error", () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    cut() {
      cut = true;
      for (const socket of open) socket.destroy();
    },
    restore() {
      cut = false;
    },
    async stop() {
      for (const socket of open) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
