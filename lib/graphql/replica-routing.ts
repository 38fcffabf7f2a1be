// Which GraphQL requests a read replica takes (READ_REPLICA_URLS, issue 33; the replicas:
// lib/db/read-replicas.ts). A public read: a query with an API token that may read public data,
// whose every root field the response cache may keep (lib/graphql/cache-rules.ts: the public
// reads whose functions declare what they read, deny by default), and that is the same for every
// environment. Everything else stays on the primary: mutations and subscriptions, account
// queries, the environment-bound reads (monitors, deliveries and what an environment follows are
// written by its own users, who expect to see their write at once), the token check, and every
// request while no replica is in service.
//
// How: grafast's context is made per request, after @dataplan/pg's PgContextPlugin has put the
// primary's withPgClient in it; for a public read the context callback (graphile.config.ts)
// replaces it with one on a replica, which falls back to the primary's
// (lib/graphql/pg-request-adaptor.ts), and records what the replica had replayed for the response
// cache (plugins/response-cache.ts).
import type { DocumentNode, GraphQLSchema } from "graphql";
import type { RequestAuth } from "../auth/context.ts";
import type { ReadReplicas } from "../db/read-replicas.ts";
import { cachePlanOf } from "./cache-plan.ts";
import { makeReplicaWithPgClient, type ReplicaRead, type WithPgClient } from "./pg-request-adaptor.ts";
import { namesMonitor } from "./root-fields.ts";

declare global {
  namespace Grafast {
    interface Context {
      /** Set when a replica takes this request's reads. */
      replicaRead?: ReplicaRead;
    }
  }
}

/** True for a public read that is the same for every environment. */
function isSharedPublicRead(
  auth: RequestAuth,
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: unknown,
): boolean {
  if (auth.kind !== "apiToken" || !auth.publicReads) return false;
  const plan = cachePlanOf(schema, document, operationName);
  return plan !== null && !plan.environmentBound && !namesMonitor(document, variables);
}

/** The context entries that send this request's reads to a replica; none when it stays on the primary. */
export function replicaContext(
  replicas: ReadReplicas | undefined,
  auth: RequestAuth,
  args: Pick<Grafast.ExecutionArgs, "schema" | "document" | "operationName" | "variableValues" | "contextValue">,
): Partial<Grafast.Context> {
  if (!replicas?.configured) return {};
  if (!isSharedPublicRead(auth, args.schema, args.document, args.operationName, args.variableValues)) return {};
  const replica = replicas.pick();
  const primary = (args.contextValue as { withPgClient?: WithPgClient } | undefined)?.withPgClient;
  if (!replica || !primary) return {};
  const read: ReplicaRead = {};
  return { withPgClient: makeReplicaWithPgClient(replica, primary, read) as WithPgClient, replicaRead: read };
}
