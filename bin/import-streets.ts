// `npm run import:streets -- FILE.geojson|FILE.geojsonl`: NWB wegvakken (street segments) in RD New
// (see lib/streets/import.ts), streamed, converted to WGS84 and upserted, with a progress bar; then
// one point per street and woonplaats, where P2000 messages naming the street are placed.
import { importStreets, isLineDelimited } from "../lib/streets/import.ts";
import { runImportCommand } from "../lib/setup/import-cli.ts";

runImportCommand({
  usage: "npm run import:streets -- FILE.geojson|FILE.geojsonl   (NWB wegvakken, RD New)",
  label: "street segments",
  async run(pool, input, file, onBatch) {
    const result = await importStreets(pool, input, { lineDelimited: isLineDelimited(file), onBatch });
    return (
      `${result.features} segments read: ${result.segments} with a street name imported (${result.changed} new or changed), ` +
      `${result.unnamed} without a street name, ${result.rejected} rejected; ${result.streetsChanged} streets new or changed.`
    );
  },
});
