// The open archive's run (lib/open-data/archive/publish.ts, docs/open-data.md): ten minutes past
// each hour, the days that are due come out as CSV and Parquet files, a bounded number per run,
// and the days past keeping are deleted. With ARCHIVE_ENABLED off it runs and writes nothing.
import type { Task } from "graphile-worker";
import type pg from "pg";
import { publishArchive, type ArchiveConfig } from "../lib/open-data/archive/publish.ts";

/** `pool`: a feed's day is read through a cursor on a connection of its own. */
export const makeArchivePublish =
  (config: ArchiveConfig, pool: pg.Pool): Task =>
  async (_payload, helpers) => {
    if (!config.enabled) return;
    const run = await publishArchive(pool, config);
    if (run.published.length || run.deleted.length) {
      helpers.logger.info(
        `Open archive: published ${run.published.join(", ") || "no day"}, deleted ${run.deleted.join(", ") || "no day"}` +
          (run.remaining ? `; ${run.remaining} days left for the next runs.` : "."),
      );
    }
  };
