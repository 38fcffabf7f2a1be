// `npm run import:fire-brigade -- FILE.csv|FILE.json`: fire stations or vehicles (see
// lib/fire/fire-brigade-import.ts), upserted with a progress bar.
import { importFireBrigade } from "../lib/fire/fire-brigade-import.ts";
import { runImportCommand } from "../lib/setup/import-cli.ts";

runImportCommand({
  usage:
    "npm run import:fire-brigade -- FILE.csv|FILE.json   (stations: slug,name,region,post,...; vehicles: call_number,station,...)",
  label: "fire brigade",
  async run(pool, input, file, onBatch) {
    const { stations, vehicles } = await importFireBrigade(
      pool,
      input,
      file.toLowerCase().endsWith(".json") ? "json" : "csv",
      { onBatch },
    );
    return (
      `Stations: ${stations.imported} imported or updated, ${stations.rejected} rejected. ` +
      `Vehicles: ${vehicles.imported} imported or updated, ${vehicles.rejected} rejected.`
    );
  },
});
