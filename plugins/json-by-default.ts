// GraphQL over HTTP (https://graphql.github.io/graphql-over-http/draft/#sec-Accept): a client that
// names no GraphQL media type (no Accept header, an empty one, `*/*` or `application/*`) gets
// `application/json`, with its status codes (200 whenever GraphQL itself answered). Grafserv would
// pick `application/graphql-response+json` for it since the spec's 2025 "watershed" (which allows
// either) and has no option to change that; curl, older clients and browsers expect plain JSON.
// A client that names `application/json` or `application/graphql-response+json` keeps grafserv's
// own negotiation, and so does a browser asking for the IDE where the IDE is served on GraphQL GETs.
// It rewrites the request's Accept header before grafserv reads it, on the GraphQL path only.

const JSON_TYPES = new Set(["application/json", "application/graphql-response+json"]);

interface MediaRange {
  type: string;
  q: number;
}

function mediaRanges(accept: string): MediaRange[] {
  return accept.split(",").flatMap((part) => {
    const [range, ...parameters] = part.split(";").map((s) => s.trim().toLowerCase());
    if (!range) return [];
    const q = parameters.find((p) => p.startsWith("q="));
    const value = q === undefined ? 1 : Number(q.slice(2));
    return [{ type: range, q: Number.isFinite(value) ? value : 1 }];
  });
}

/** The Accept header grafserv should see for this one; `undefined` = leave it as it is. */
export function jsonByDefault(accept: string | undefined, htmlMayWin: boolean): string | undefined {
  if (accept === undefined || accept.trim() === "") return "application/json";
  const ranges = mediaRanges(accept);
  if (ranges.some((r) => JSON_TYPES.has(r.type) || (htmlMayWin && r.type === "text/html"))) return undefined;
  // The most specific wildcard decides, as in HTTP: `application/*;q=0, */*` refuses JSON.
  const wildcard = ranges.find((r) => r.type === "application/*") ?? ranges.find((r) => r.type === "*/*");
  return wildcard && wildcard.q > 0 ? "application/json" : undefined;
}

export const JsonByDefaultPlugin: GraphileConfig.Plugin = {
  name: "JsonByDefaultPlugin",
  version: "1.0.0",
  description: "Answers application/json to GraphQL requests whose Accept header names no GraphQL media type.",
  grafserv: {
    middleware: {
      processRequest(next, event) {
        const { requestDigest: request, resolvedPreset } = event;
        const options = resolvedPreset.grafserv;
        if (request.path === (options?.graphqlPath ?? "/graphql")) {
          // Node gives lower-case header names; other adaptors may not.
          const name = Object.keys(request.headers).find((h) => h.toLowerCase() === "accept") ?? "accept";
          const htmlMayWin = request.method === "GET" && (options?.graphiqlOnGraphQLGET ?? true);
          const accept = jsonByDefault(request.headers[name], htmlMayWin);
          if (accept !== undefined) request.headers[name] = accept;
        }
        return next();
      },
    },
  },
};
