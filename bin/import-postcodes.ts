// `npm run import:postcodes -- FILE.csv`: PC4/PC6 postcodes with centres (see lib/places/postcode-import.ts).
import { runImportCommand } from "../lib/setup/import-cli.ts";
import { importPostcodes } from "../lib/places/postcode-import.ts";

runImportCommand({
  usage: "npm run import:postcodes -- FILE.csv   (postcode,city,municipality,latitude,longitude or x,y in RD New)",
  label: "postcodes",
  async run(pool, input, _file, onBatch) {
    const result = await importPostcodes(pool, input, { onBatch });
    return `${result.rows} rows: ${result.imported} postcodes imported or updated, ${result.rejected} rejected.`;
  },
});
