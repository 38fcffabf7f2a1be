// Grafast steps shared by the plugins that declare mutations (account, monitor and P2000 ones): one
// side effect per field, with the field's arguments, the request's account facts, and SQL as the
// request's visitor.
import { context, sideEffect, type FieldArgs, type Step } from "postgraphile/grafast";
import type { VisitorQuery } from "./flows.ts";
import type { AccountRequest } from "./request.ts";

interface AccountCall {
  request: AccountRequest;
  visitor: VisitorQuery;
}

/** One side effect per field: `work` gets the field's arguments and the request. */
export function run<T>(fieldArgs: FieldArgs, work: (args: any, call: AccountCall) => Promise<T>): Step<T> {
  return sideEffect([fieldArgs.getRaw(), context()], ([args, ctx]) =>
    work(args, {
      request: ctx.accountRequest,
      visitor: (sql, values = []) =>
        ctx.withPgClient(ctx.pgSettings, async (client) => (await client.query({ text: sql, values })).rows),
    }),
  );
}

/** Runs one SQL function as the visitor and returns its single value. */
export function sql<T>(fieldArgs: FieldArgs, text: string, values: (args: any) => unknown[]): Step<T> {
  return run(fieldArgs, async (args, { visitor }) => (await visitor(`select ${text} as value`, values(args)))[0].value);
}


/** The row of a table resource with this uuid (PostGraphile reads it as the request's visitor). */
export function byUuid<TStep extends Step>(resource: { get(spec: { uuid: Step }): TStep }, $uuid: Step): TStep {
  return resource.get({ uuid: $uuid });
}
