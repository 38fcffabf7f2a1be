// `npm run import:capcodes -- FILE.csv`: upserts a capcode list (capcode,discipline,region,location,
// description,remark) with a progress bar, against DATABASE_URL or the embedded default.
import { importCapcodes } from "../lib/p2000/capcode-import.ts";
import { runImportCommand } from "../lib/setup/import-cli.ts";

runImportCommand({
  usage: "npm run import:capcodes -- FILE.csv   (header: capcode,discipline,region,location,description,remark)",
  label: "capcodes",
  async run(pool, input, _file, onBatch) {
    const result = await importCapcodes(pool, input, { onBatch });
    return `${result.rows} rows: ${result.imported} capcodes imported or updated, ${result.rejected} rejected.`;
  },
});
