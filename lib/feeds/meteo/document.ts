// The weather feed's documents as they arrive from upstream (formats in
// shared/research/feed-formats.md): KNMI's 48-hour province warnings as XML, and 10-minute station
// observations as normalised JSON rows. parseMeteoDocument tells the two apart by their first
// character, so one fetcher can hand over whatever file it downloaded.
import { FeedDocumentError, stripBom } from "../records.ts";
import { parseObservationsJson, type ObservationsDocument } from "./observations-parser.ts";
import { parseWarningsXml, type WarningsDocument } from "./warnings-parser.ts";

export function parseMeteoDocument(text: string): WarningsDocument | ObservationsDocument {
  const start = stripBom(text).trimStart();
  if (start.startsWith("<")) return parseWarningsXml(text);
  if (start.startsWith("[")) return parseObservationsJson(text);
  throw new FeedDocumentError("neither a warnings XML nor an observations JSON array");
}
