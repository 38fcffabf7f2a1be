// Well-known paths, at the foot of lib/ so that any layer may name them: the repository's root on
// disk, and the addresses of the GraphQL endpoint over HTTP. This module imports nothing but node:.
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository's root: where .gmrc, migrations/, data/, sql/ and web/ are. */
export const ROOT_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** GraphQL over HTTP and WebSocket, and graphql-sse by content negotiation (lib/http/graphql-sse.ts). */
export const GRAPHQL_PATH = "/graphql";
/** graphql-sse's older address, kept as an alias. */
export const GRAPHQL_SSE_PATH = "/graphql/stream";
