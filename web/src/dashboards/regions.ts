// The 25 safety regions, for the region choice and to narrow the P2000 charts: the daily roll-ups
// name a region by its uuid (key), the message facts by its number.
import type { Api } from "../api/client.ts";
import { graphql, type ResultOf } from "../api/graphql.ts";

const REGIONS = graphql(`
  query DashboardRegions {
    p2000Regions(first: 50) {
      uuid
      number
      name
    }
  }
`);

export type Region = NonNullable<ResultOf<typeof REGIONS>["p2000Regions"]>[number];

export async function loadRegions(api: Api): Promise<Region[]> {
  const data = await api.request(REGIONS, {});
  return (data.p2000Regions ?? []).filter((region): region is Region => region !== null);
}
