// Viewers that cost the bench as little as a viewer of the minimal broadcaster does (issue 47's ten
// thousand viewers): they speak the same protocols as the client libraries (graphql-ws's
// `graphql-transport-ws` over a WebSocket, graphql-sse's distinct-connections event stream) but,
// like the minimal broadcaster's viewers, only look for each page's marker in the raw frame instead
// of parsing it. On one machine the libraries' parsing of 55,000 frames a second took more of the
// two cores than the service did, and the latency measured was the bench's own; with both sides'
// viewers doing the same work per frame, the comparison with the minimal broadcaster is fair.
// The bench keeps a share of its viewers on the real libraries, which check every payload.
import http from "node:http";
import WebSocket from "ws";

/** What one viewer heard: each marker's first arrival, how many came again, what went wrong. */
export interface Hearing {
  received: Map<string, number>;
  duplicates: number;
  errors: string[];
}

export const newHearing = (): Hearing => ({ received: new Map(), duplicates: 0, errors: [] });

/**
 * Notes the markers (`#<n>` ending a page's `message` field, where the library viewers read them:
 * a dossier's title may still carry an earlier page's) in one frame or event, each once per frame.
 */
export function noteMarkers(text: string, hearing: Hearing, at: number): void {
  const markers = new Set(Array.from(text.matchAll(/"message":"(?:[^"\\]|\\.)*?(#\d+)"/g), (match) => match[1]));
  for (const marker of markers) {
    if (hearing.received.has(marker)) hearing.duplicates++;
    else hearing.received.set(marker, at);
  }
}

/**
 * A light WebSocket: no UTF-8 check of each frame (the frames are the service's or the
 * broadcaster's, and the markers are ASCII), each frame read as Latin-1, which is cheaper to decode.
 */
export function lightSocket(url: string, protocol?: string) {
  return new WebSocket(url, protocol, { skipUTF8Validation: true, perMessageDeflate: false });
}
export const frameText = (data: WebSocket.RawData) => (data as Buffer).toString("latin1");

/** A graphql-ws viewer: connection_init with the authorization, one subscribe, markers noted. */
export function lightWebSocketViewer(url: string, authorization: string, query: string, hearing: Hearing) {
  const socket = lightSocket(url, "graphql-transport-ws");
  socket.on("open", () => socket.send(JSON.stringify({ type: "connection_init", payload: { authorization } })));
  socket.on("message", (data) => {
    const at = performance.now();
    const text = frameText(data);
    if (text.includes('"type":"next"')) noteMarkers(text, hearing, at);
    else if (text.includes('"type":"connection_ack"'))
      socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query } }));
    else if (text.includes('"type":"ping"')) socket.send(JSON.stringify({ type: "pong" }));
    else if (text.includes('"type":"error"') || text.includes('"type":"complete"')) hearing.errors.push(text);
  });
  socket.on("error", (error) => hearing.errors.push(error.message));
  return { dispose: () => socket.terminate() };
}

/** A graphql-sse viewer: one POST whose answer is the event stream, markers noted per whole event. */
export function lightSseViewer(url: string, authorization: string, query: string, hearing: Hearing) {
  const request = http.request(url, {
    method: "POST",
    agent: false, // a connection of its own, as a browser tab's stream is
    headers: { authorization, "content-type": "application/json", accept: "text/event-stream" },
  });
  request.on("response", (response) => {
    if (response.statusCode !== 200) hearing.errors.push(`HTTP ${response.statusCode}`);
    response.setEncoding("utf8");
    let unfinished = "";
    response.on("data", (chunk: string) => {
      const at = performance.now();
      const text = unfinished + chunk;
      const end = text.lastIndexOf("\n\n"); // events end with a blank line; a chunk may end mid-event
      unfinished = text.slice(end + 2);
      if (end >= 0) for (const event of text.slice(0, end).split("\n\n")) noteMarkers(event, hearing, at);
    });
  });
  request.on("error", (error) => hearing.errors.push(error.message));
  request.end(JSON.stringify({ query }));
  return { dispose: () => request.destroy() };
}
