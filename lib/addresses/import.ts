// `npm run import:addresses`: a file of the address register (lib/addresses/register-file.ts) into
// the lookups that place P2000 pages and suggest addresses. The rows are streamed into an unlogged
// staging table with COPY (only a few kilobytes are in memory at a time, whatever the file's size),
// then each province the file holds replaces that province's streets, house numbers, postcodes and
// woonplaatsen in one transaction (app_private.replace_province_addresses): readers see the old
// province or the new one, never a half state, and importing a file again replaces what it covers.
import { randomUUID } from "node:crypto";
import { once } from "node:events";
import type { Readable } from "node:stream";
import type pg from "pg";
import { from as copyFrom } from "pg-copy-streams";
import { registerAddress, registerRecords, type RegisterAddress } from "./register-file.ts";

export type AddressSource = "import" | "shipped";

export interface ProvinceResult {
  province: string;
  streets: number;
  addresses: number;
  postcodes: number;
}

export interface AddressImportResult {
  /** Rows read. */
  rows: number;
  /** Rows that were no address (reported, skipped). */
  rejected: number;
  provinces: ProvinceResult[];
}

const COPY_COLUMNS =
  "import_uuid, province, municipality, woonplaats, street, house_number, postcode, latitude, longitude";

/** A value in COPY's text format: backslash, tab and line breaks escaped. */
function copyText(value: string): string {
  return value.replace(/[\\\t\n\r]/g, (c) => ({ "\\": "\\\\", "\t": "\\t", "\n": "\\n", "\r": "\\r" })[c] as string);
}

function copyLine(importUuid: string, a: RegisterAddress): string {
  return (
    [
      importUuid,
      copyText(a.province),
      copyText(a.municipality),
      copyText(a.woonplaats),
      copyText(a.street),
      String(a.houseNumber),
      a.postcode ?? "\\N",
      String(a.latitude),
      String(a.longitude),
    ].join("\t") + "\n"
  );
}

const ADDRESS_TABLES = [
  "app_hidden.address_streets",
  "app_hidden.address_numbers",
  "app_hidden.address_postcodes",
  "app_hidden.address_woonplaatsen",
  "app_public.postcodes",
];

/**
 * VACUUM (ANALYZE) of the lookup tables after their rows were replaced: the statistics for the
 * planner, and the visibility map, without which type-ahead's index-only scans read the table.
 */
export async function vacuumAddressTables(db: Pick<pg.ClientBase, "query">): Promise<void> {
  await db.query(`vacuum (analyze) ${ADDRESS_TABLES.join(", ")}`);
}

/** Streams one register file in and replaces the provinces it holds. */
export async function importAddresses(
  pool: pg.Pool,
  input: Readable,
  file: string,
  options: { source?: AddressSource; onBatch?: () => void; log?: (message: string) => void } = {},
): Promise<AddressImportResult> {
  const log = options.log ?? ((message) => console.error(message));
  const importUuid = randomUUID();
  const result: AddressImportResult = { rows: 0, rejected: 0, provinces: [] };
  const provinces = new Set<string>();
  const client = await pool.connect();
  try {
    const copy = client.query(copyFrom(`copy app_private.address_import_rows (${COPY_COLUMNS}) from stdin`));
    const copied = once(copy, "finish");
    // a failed COPY (the server went away) ends the loop below through the write that follows
    let copyError: Error | null = null;
    copy.on("error", (error: Error) => (copyError = error));
    try {
      for await (const record of registerRecords(input, file)) {
        if (copyError) throw copyError;
        result.rows++;
        const address = registerAddress(record);
        if (typeof address === "string") {
          result.rejected++;
          if (result.rejected <= 20) log(`Row ${result.rows}: ${address}; skipped.`);
          continue;
        }
        provinces.add(address.province);
        if (!copy.write(copyLine(importUuid, address))) await once(copy, "drain");
        if (result.rows % 20_000 === 0) options.onBatch?.();
      }
    } catch (error) {
      copy.destroy(error as Error);
      await copied.catch(() => {});
      throw error;
    }
    copy.end();
    await copied;
    // the staging table's statistics, or the province's aggregation is planned for ten rows
    await client.query("analyze app_private.address_import_rows");
    if (result.rejected > 20) log(`... ${result.rejected} rows skipped in all.`);
    for (const province of [...provinces].sort()) {
      await client.query("begin");
      try {
        const {
          rows: [counts],
        } = await client.query<{ streets: number; addresses: number; postcodes: number }>(
          "select * from app_private.replace_province_addresses($1, $2, $3)",
          [importUuid, province, options.source ?? "import"],
        );
        await client.query("commit");
        result.provinces.push({ province, ...counts });
      } catch (error) {
        await client.query("rollback");
        throw error;
      }
      options.onBatch?.();
    }
  } finally {
    // rows of a failed import are of no use to anybody
    await client
      .query("delete from app_private.address_import_rows where import_uuid = $1", [importUuid])
      .catch(() => {});
    client.release();
  }
  await vacuumAddressTables(pool);
  return result;
}

/** The summary line of an import. */
export function describeAddressImport(result: AddressImportResult): string {
  const parts = result.provinces.map(
    (p) => `${p.province}: ${p.addresses} addresses on ${p.streets} streets, ${p.postcodes} postcodes`,
  );
  return `${result.rows} rows, ${result.rejected} rejected. ${parts.join("; ") || "No province imported."}`;
}
