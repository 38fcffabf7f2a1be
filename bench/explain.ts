// Plans of the statements a call runs, the ones inside functions and triggers too, for the read
// benchmarks: auto_explain (loaded into a superuser's session by LOAD) sends each statement's plan
// with ANALYZE, BUFFERS and timing as JSON to that session as a notice; each plan is shown one node
// a line, indented by depth.
import type pg from "pg";

export interface PlanNode {
  "Node Type": string;
  "Subplan Name"?: string;
  "Relation Name"?: string;
  "Index Name"?: string;
  "Function Name"?: string;
  "Actual Rows"?: number;
  "Actual Loops"?: number;
  "Actual Total Time"?: number;
  "Shared Hit Blocks"?: number;
  "Shared Read Blocks"?: number;
  "Index Cond"?: string;
  "Recheck Cond"?: string;
  "Exact Heap Blocks"?: number;
  "Lossy Heap Blocks"?: number;
  "Sort Method"?: string;
  "Sort Key"?: string[];
  Filter?: string;
  "Rows Removed by Filter"?: number;
  "Heap Fetches"?: number;
  Plans?: PlanNode[];
}

/** One node on one line: what it is, on what, its rows, time and buffers, and the conditions it tested. */
export const describePlanNode = (node: PlanNode): string =>
  `${node["Subplan Name"] ? `${node["Subplan Name"]}: ` : ""}${node["Node Type"]}${node["Index Name"] ? ` using ${node["Index Name"]}` : ""}` +
  `${node["Relation Name"] ? ` on ${node["Relation Name"]}` : ""}${node["Function Name"] ? ` ${node["Function Name"]}()` : ""} ` +
  `(${node["Actual Rows"]} rows${(node["Actual Loops"] ?? 1) > 1 ? ` × ${node["Actual Loops"]}` : ""}, ${node["Actual Total Time"]} ms, ` +
  `buffers ${node["Shared Hit Blocks"] ?? 0} hit/${node["Shared Read Blocks"] ?? 0} read)` +
  `${node["Index Cond"] ? ` cond ${node["Index Cond"]}` : ""}${node["Recheck Cond"] ? ` recheck ${node["Recheck Cond"]}` : ""}` +
  `${node["Exact Heap Blocks"] !== undefined ? ` heap blocks ${node["Exact Heap Blocks"]} exact/${node["Lossy Heap Blocks"] ?? 0} lossy` : ""}` +
  `${node["Sort Key"] ? ` by ${node["Sort Key"].join(", ")} (${node["Sort Method"]})` : ""}` +
  `${node.Filter ? ` filter ${node.Filter}` : ""}${node["Rows Removed by Filter"] ? ` (${node["Rows Removed by Filter"]} removed)` : ""}` +
  `${node["Heap Fetches"] !== undefined ? ` heap fetches ${node["Heap Fetches"]}` : ""}`;

/** A plan, a node a line, each indented by its depth. */
export const walkPlan = (node: PlanNode, depth = 0): string[] => [
  `${"  ".repeat(depth)}${describePlanNode(node)}`,
  ...(node.Plans ?? []).flatMap((child) => walkPlan(child, depth + 1)),
];

export interface ExplainedStatement {
  /** The statement's text on one line, its start. */
  query: string;
  milliseconds: number;
  root: PlanNode;
  /** walkPlan of root. */
  plan: string[];
}

/**
 * Loads auto_explain into `client` (a superuser's session) and has it report every statement from
 * now on. `settings`: statements sent in the same message after auto_explain's settings (the
 * visitor's settings and role).
 */
export async function autoExplain(client: pg.Client, settings = "") {
  let notices: string[] = [];
  const listen = (notice: { message?: string }) => notices.push(notice.message ?? "");
  client.on("notice", listen);
  await client.query("load 'auto_explain'");
  await client.query(`set auto_explain.log_min_duration = 0; set auto_explain.log_analyze = on; set auto_explain.log_buffers = on;
    set auto_explain.log_timing = on; set auto_explain.log_nested_statements = on; set auto_explain.log_format = json;
    set auto_explain.log_level = notice${settings ? `; ${settings}` : ""}`);
  return {
    /** Forgets the plans reported so far (those of the warm-up calls). */
    clear() {
      notices = [];
    },
    /**
     * The statements reported since the last clear, in auto_explain's order (a statement after the
     * ones it ran inside: the outer one last), each query's first `queryChars` characters.
     */
    statements(queryChars: number): ExplainedStatement[] {
      return notices.flatMap((text) => {
        const match = /^duration: ([\d.]+) ms\s+plan:\s*([\s\S]*)$/.exec(text);
        if (!match) return [];
        const explain = JSON.parse(match[2]) as { "Query Text": string; Plan: PlanNode };
        return [
          {
            query: explain["Query Text"].replace(/\s+/g, " ").trim().slice(0, queryChars),
            milliseconds: Number(match[1]),
            root: explain.Plan,
            plan: walkPlan(explain.Plan),
          },
        ];
      });
    },
    /** Reports no more statements in this session (auto_explain stays loaded) and stops listening. */
    async stop() {
      await client.query("set auto_explain.log_min_duration = -1");
      client.off("notice", listen);
    },
  };
}
