// `npm run ingest:traffic -- FILE [FILE …]`: stores DATEX II situation publications (gzipped or
// plain XML, the v2 SOAP envelope or the v3 message container) once each, in the order given, as
// the poller does: each file is taken as the whole feed at its time, so incidents it lacks are
// closed (with --jams: the jams it lacks). A malformed or truncated file is rejected whole (nothing changes, exit 1).
import fs from "node:fs";
import { describeTrafficIngest, ingestTrafficDocument } from "../lib/feeds/traffic/ingest.ts";
import { runFeedCommand } from "../lib/setup/feed-cli.ts";

// --jams: the files are the jams feed (their AbnormalTraffic records are the whole list of jams).
const kind = process.argv.includes("--jams") ? "jams" : "incidents";
process.argv = process.argv.filter((argument) => argument !== "--jams");

await runFeedCommand({
  usage: "npm run ingest:traffic -- [--jams] FILE [FILE …]   (DATEX II XML, gzipped or plain)",
  async ingest(pool, file) {
    const result = await ingestTrafficDocument(pool, fs.createReadStream(file), file, kind);
    return { summary: describeTrafficIngest(result), problems: result.problems };
  },
});
