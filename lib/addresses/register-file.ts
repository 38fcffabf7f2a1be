// The address register's public CSV layout (BAG, as ../shared/data/bag-addresses/README.md and the
// national file an operator downloads write it): `;`-separated, UTF-8, one header line
//   straat;huisnummer;huisletter;huisnummertoevoeging;postcode;woonplaats;gemeente;provincie;lat;lon
// plain (.csv), gzip (.csv.gz) or Zstandard (.csv.zst). Read as a stream: the national file holds
// about 10 million addresses.
import { parse } from "csv-parse";
import * as fzstd from "fzstd";
import path from "node:path";
import { pipeline, type Readable, Transform } from "node:stream";
import zlib from "node:zlib";
import { number, text, type RawRecord } from "../db/table-import.ts";

export const REGISTER_COLUMNS = [
  "straat",
  "huisnummer",
  "huisletter",
  "huisnummertoevoeging",
  "postcode",
  "woonplaats",
  "gemeente",
  "provincie",
  "lat",
  "lon",
] as const;

export interface RegisterAddress {
  street: string;
  houseNumber: number;
  postcode: string | null;
  woonplaats: string;
  municipality: string;
  province: string;
  latitude: number;
  longitude: number;
}

/**
 * Zstandard as a stream, through fzstd: Node's own zstd decompressor ends without an error on a
 * truncated file, which would replace a province with the half that was read.
 */
function zstdDecompressor(): Transform {
  const stream = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      try {
        decompressor.push(chunk);
        done();
      } catch (error) {
        done(error as Error);
      }
    },
    flush(done) {
      try {
        decompressor.push(new Uint8Array(0), true);
        done();
      } catch (error) {
        done(new Error(`the Zstandard file ends too soon (${(error as Error).message})`));
      }
    },
  });
  // (the stream's callbacks run only once data comes, after this line)
  const decompressor = new fzstd.Decompress((data) => stream.push(data));
  return stream;
}

/** The decompressor a file's name asks for, or null for plain CSV. */
export function decompressorFor(file: string): Transform | null {
  const extension = path.extname(file).toLowerCase();
  if (extension === ".zst") return zstdDecompressor();
  if (extension === ".gz") return zlib.createGunzip();
  return null;
}

/** The file's records (lower-case column names), decompressed as its name says. */
export function registerRecords(input: Readable, file: string): AsyncIterable<RawRecord> {
  const parser = parse({
    delimiter: ";",
    columns: (header: string[]) => header.map((h) => h.trim().toLowerCase()),
    trim: true,
    skip_empty_lines: true,
    relax_column_count: true,
    relax_quotes: true,
    bom: true,
  });
  const decompressor = decompressorFor(file);
  // pipeline() passes an error of any stage (a truncated .zst) on to the parser, so the reader's
  // loop fails with it instead of waiting forever.
  const onError = (error: Error | null) => error && parser.destroy(error);
  if (decompressor) pipeline(input, decompressor, parser, onError);
  else pipeline(input, parser, onError);
  return parser as AsyncIterable<RawRecord>;
}

/** One address of the register, or why the row is not one. */
export function registerAddress(record: RawRecord): RegisterAddress | string {
  const street = text(record.straat);
  const woonplaats = text(record.woonplaats);
  const municipality = text(record.gemeente);
  const province = text(record.provincie);
  if (!street || !woonplaats || !municipality || !province) return "street, woonplaats, gemeente or provincie missing";
  const houseNumber = number(record.huisnummer);
  if (houseNumber === null || !Number.isInteger(houseNumber) || houseNumber <= 0 || houseNumber > 999_999) {
    return `"${text(record.huisnummer)}" is not a house number`;
  }
  const latitude = number(record.lat);
  const longitude = number(record.lon);
  if (latitude === null || longitude === null || latitude < 50 || latitude > 54 || longitude < 3 || longitude > 8) {
    return `${street} ${houseNumber} ${woonplaats} has no position in the Netherlands`;
  }
  const code = text(record.postcode).toUpperCase().replace(/\s/g, "");
  return {
    street,
    houseNumber,
    // a malformed postcode costs the address its postcode, not its place on the street
    postcode: /^[1-9]\d{3}[A-Z]{2}$/.test(code) ? code : null,
    woonplaats,
    municipality,
    province,
    latitude,
    longitude,
  };
}
