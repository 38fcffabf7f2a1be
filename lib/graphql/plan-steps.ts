// Grafast steps shared by the plugins that declare mutations (account, monitor and P2000 ones): one
// side effect per field on PostGraphile's own sideEffectWithPgClient, so the field's SQL runs as
// the request's visitor (its pgSettings, RLS) in one transaction, with the field's arguments and
// the request's account facts. Bound to the schema's executor once per plugin.
import { sideEffectWithPgClient, type PgExecutor } from "postgraphile/@dataplan/pg";
import { context, type FieldArgs, type Step } from "postgraphile/grafast";
import type { AccountRequest, VisitorQuery } from "./request-facts.ts";

export interface FieldCall {
  request: AccountRequest;
  /** The running service (its pools and settings), where a preset serves requests. */
  service: Grafast.Context["service"];
  /** A query as the request's visitor, in the field's transaction. */
  visitor: VisitorQuery;
}

export interface MutationSteps {
  /** One side effect per field: `work` gets the field's arguments and the request. */
  run<T>(fieldArgs: FieldArgs, work: (args: any, call: FieldCall) => Promise<T>): Step<T>;
  /** Runs one SQL expression (a function call) as the visitor and returns its single value. */
  sql<T>(fieldArgs: FieldArgs, text: string, values: (args: any) => unknown[]): Step<T>;
}

export function mutationSteps(build: GraphileBuild.Build): MutationSteps {
  const executor: PgExecutor = build.input.pgRegistry.pgExecutors.main;
  const run: MutationSteps["run"] = (fieldArgs, work) =>
    sideEffectWithPgClient(
      executor,
      [fieldArgs.getRaw(), context().get("accountRequest"), context().get("service")],
      (client, [args, request, service]) =>
        work(args, {
          request,
          service,
          visitor: async (text, values = []) => (await client.query({ text, values })).rows,
        }),
    );
  return {
    run,
    sql: (fieldArgs, text, values) =>
      run(fieldArgs, async (args, { visitor }) => (await visitor(`select ${text} as value`, values(args)))[0].value),
  };
}

/** The row of a table resource with this uuid (PostGraphile reads it as the request's visitor). */
export function byUuid<TStep extends Step>(resource: { get(spec: { uuid: Step }): TStep }, $uuid: Step): TStep {
  return resource.get({ uuid: $uuid });
}
