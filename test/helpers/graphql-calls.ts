// The two ways an API test calls the service's GraphQL endpoint over HTTP: `gql` answers the body
// as it is (for refusals, with errorOf), `ok` expects no errors and answers the data.
import { expect } from "@jest/globals";
import type { TestService } from "./service.ts";

export function graphqlCalls(ctx: { service: TestService }) {
  async function gql(query: string, token: string | undefined, variables: Record<string, unknown> = {}) {
    return (await ctx.service.graphql(query, { token, variables })).body;
  }
  async function ok(query: string, token: string | undefined, variables: Record<string, unknown> = {}) {
    const body = await gql(query, token, variables);
    expect(body.errors).toBeUndefined();
    return body.data;
  }
  return { gql, ok };
}

/** The uuids of the messages a monitor matched (p2000Messages(filter: { monitor })), sorted. */
export async function monitorMatches(
  ok: ReturnType<typeof graphqlCalls>["ok"],
  apiToken: string,
  monitorUuid: string,
): Promise<string[]> {
  const { p2000Messages } = await ok(
    "query ($f: P2000MessageFilterInput) { p2000Messages(filter: $f, first: 500) { uuid } }",
    apiToken,
    { f: { monitor: { uuid: monitorUuid } } },
  );
  return (p2000Messages as Array<{ uuid: string }>).map((m) => m.uuid).sort();
}
