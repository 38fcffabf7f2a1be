// Planner statistics right after bulk writes. Autovacuum analyses a table once about 10% of it
// changed, but only at its next round (a minute or more later): until then the planner plans a
// freshly filled table from the statistics of the empty one (a hash join over every capcode
// instead of an index walk, ten times slower). Every bulk path (demo data, importers, the FLEX
// reader) therefore analyses what it filled itself, at once.
import type pg from "pg";

type Queryable = Pick<pg.ClientBase, "query">;

/** ANALYZE of the given tables (qualified names, written by us: never user input). */
export async function analyzeTables(db: Queryable, tables: readonly string[]): Promise<void> {
  if (tables.length > 0) await db.query(`analyze ${tables.join(", ")}`);
}

export interface RowsArriving {
  /** Reports rows stored (committed); analyses when they amount to autovacuum's threshold. */
  stored(rows: number): Promise<void>;
}

/**
 * For a writer that keeps storing rows (the FLEX reader): analyses when the rows stored since the
 * last ANALYZE reach autovacuum's rule (10% of the table, at least `minRows`), so a bulk load into
 * an empty table is analysed after its first thousand rows, then ever less often, and a live feed
 * into a large table leaves it to autovacuum.
 */
export function analyzeAsRowsArrive(
  db: Queryable,
  tables: readonly string[],
  mainTable: string,
  options: { minRows?: number; scaleFactor?: number } = {},
): RowsArriving {
  const minRows = options.minRows ?? 1_000;
  const scaleFactor = options.scaleFactor ?? 0.1;
  let sinceAnalyze = 0;
  let threshold: number | undefined;
  return {
    async stored(rows) {
      sinceAnalyze += rows;
      if (threshold === undefined) threshold = thresholdFor(await estimatedRows(db, mainTable));
      if (sinceAnalyze < threshold) return;
      await analyzeTables(db, tables);
      sinceAnalyze = 0;
      threshold = thresholdFor(await estimatedRows(db, mainTable));
    },
  };

  function thresholdFor(estimate: number): number {
    return Math.max(minRows, Math.ceil(estimate * scaleFactor));
  }
}

/** The planner's row estimate of a table (reltuples: -1 before its first ANALYZE, read as 0). */
async function estimatedRows(db: Queryable, table: string): Promise<number> {
  const {
    rows: [row],
  } = await db.query<{ rows: number }>(
    "select greatest(reltuples, 0)::float8 as rows from pg_class where oid = $1::regclass",
    [table],
  );
  return row?.rows ?? 0;
}
