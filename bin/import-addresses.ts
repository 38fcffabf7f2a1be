// `npm run import:addresses -- FILE...`: the address register (BAG) in its public CSV layout, a
// national file or one per province (see lib/addresses/import.ts).
import { runImportCommand } from "../lib/setup/import-cli.ts";
import { describeAddressImport, importAddresses } from "../lib/addresses/import.ts";

runImportCommand({
  usage:
    "npm run import:addresses -- FILE...   (the BAG's CSV layout: straat;huisnummer;...;lat;lon, .csv, .csv.gz or .csv.zst)",
  label: "addresses",
  async run(pool, input, file, onBatch) {
    return describeAddressImport(await importAddresses(pool, input, file, { onBatch }));
  },
});
