// The monitor types' names, read from app_public.monitor_types while the schema is built, so that
// what CreateMonitorInput.type and UpdateMonitorInput.type say a client may send is the table
// monitorTypes answers from and createMonitor checks against (plugins/monitor-mutations.ts), and
// cannot fall behind a migration that adds a type.
import { gatherQuery } from "../lib/graphql/gather-query.ts";

declare global {
  namespace GraphileBuild {
    interface BuildInput {
      /** app_public.monitor_types' names, p2000 (the default) first, as monitorTypes orders them. */
      monitorTypeNames?: readonly string[];
    }
  }
}

export const MonitorTypeNamesPlugin: GraphileConfig.Plugin = {
  name: "MonitorTypeNamesPlugin",
  version: "1.0.0",
  description: "Reads the monitor types' names for the monitor inputs' descriptions.",
  gather: {
    async main(output, info) {
      const rows = await gatherQuery<{ name: string }>(
        info,
        "select t.name from app_public.monitor_types t order by case t.name when 'p2000' then 0 else 1 end, t.name",
        "MonitorTypeNamesPlugin",
        { role: "app_visitor" },
      );
      output.monitorTypeNames = rows.map((row) => row.name);
    },
  },
};

/** "p2000 (default), accident, … or rss": the names as a sentence. */
export function monitorTypesInWords(names: readonly string[]): string {
  const [first, ...rest] = names.map((name) => (name === "p2000" ? "p2000 (default)" : name));
  return rest.length === 0 ? (first ?? "") : `${[first, ...rest.slice(0, -1)].join(", ")} or ${rest.at(-1)}`;
}
