// The burst bench's live viewers (issue 47, scaling out): people with the map open while the page
// goes out, as `graphql-ws` clients of the web application's own live query (MapMessages) with its
// shared credential, spread over the API processes. Each notes when each page first reached it.
import { print } from "graphql";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { MessagesSubscription } from "../../web/src/map/queries.ts";

export async function startViewers(graphqlUrls: string[], count: number) {
  const { apiToken } = (await (await fetch(new URL("/web/config.json", graphqlUrls[0]))).json()) as {
    apiToken: string;
  };
  const query = print(MessagesSubscription);
  const viewers: Array<{ client: Client; seen: Map<string, number> }> = [];
  for (let i = 0; i < count; i++) {
    const seen = new Map<string, number>();
    const client = createClient({
      url: graphqlUrls[i % graphqlUrls.length].replace(/^http/, "ws"),
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${apiToken}` },
      retryAttempts: 5,
    });
    client.subscribe<{ p2000Messages: Array<{ uuid: string }> }>(
      { query },
      {
        next: (result) => {
          for (const message of result.data?.p2000Messages ?? [])
            if (!seen.has(message.uuid)) seen.set(message.uuid, Date.now());
        },
        error: () => {},
        complete: () => {},
      },
    );
    viewers.push({ client, seen });
    if (i % 100 === 99) await new Promise((resolve) => setTimeout(resolve, 50)); // not all handshakes in one tick
  }
  return {
    /** How many viewers have seen the page. */
    seenBy: (uuid: string) => viewers.filter((v) => v.seen.has(uuid)).length,
    /** When each viewer that saw the page saw it (Date.now()). */
    arrivals: (uuid: string) => viewers.flatMap((v) => (v.seen.has(uuid) ? [v.seen.get(uuid)!] : [])),
    close: () => Promise.all(viewers.map(async (v) => v.client.dispose())),
  };
}
