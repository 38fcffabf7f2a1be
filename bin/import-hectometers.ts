// `npm run import:hectometers -- FILE.geojson|FILE.csv`: NWB hectometre posts in RD New (see
// lib/roads/hectometer-import.ts), converted to WGS84 and upserted, with a progress bar.
import { importHectometers } from "../lib/roads/hectometer-import.ts";
import { runImportCommand } from "../lib/setup/import-cli.ts";

runImportCommand({
  usage: "npm run import:hectometers -- FILE.geojson|FILE.csv   (NWB hectopunten, RD New)",
  label: "hectometre posts",
  async run(pool, input, file, onBatch) {
    const result = await importHectometers(pool, input, file.toLowerCase().endsWith(".csv") ? "csv" : "geojson", {
      onBatch,
    });
    return `${result.rows} posts read: ${result.imported} imported or updated, ${result.rejected} rejected.`;
  },
});
