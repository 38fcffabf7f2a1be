// The shared shape of the import commands (`npm run import:<what> -- FILE...`): check the files,
// open DATABASE_URL or the embedded default, and for each file in turn show a progress bar over the
// bytes read and print a summary.
import { Presets, SingleBar } from "cli-progress";
import fs from "node:fs";
import pg from "pg";
import { loadConfig } from "../config.ts";
import { prepareDatabase } from "./installation.ts";

export interface ImportCommand {
  usage: string;
  label: string;
  /** Imports the stream; returns the summary line. */
  run(pool: pg.Pool, input: fs.ReadStream, file: string, onBatch: () => void): Promise<string>;
}

export function runImportCommand(command: ImportCommand): void {
  const main = async () => {
    const files = process.argv.slice(2);
    if (files.length === 0 || files.some((file) => !fs.existsSync(file))) {
      console.error(`Usage: ${command.usage}`);
      process.exit(2);
    }
    const database = await prepareDatabase(loadConfig().database);
    const pool = new pg.Pool({ connectionString: database.ownerUrl, max: 2 });
    try {
      for (const file of files) {
        const input = fs.createReadStream(file);
        const totalKiB = Math.ceil(fs.statSync(file).size / 1024);
        const bar = new SingleBar(
          {
            format: `${command.label} ${files.length > 1 ? `${file} ` : ""}[{bar}] {percentage}% | {value}/{total} KiB`,
            stream: process.stderr,
            noTTYOutput: true,
            notTTYSchedule: 2000,
          },
          Presets.shades_classic,
        );
        bar.start(totalKiB, 0);
        try {
          const summary = await command.run(pool, input, file, () => bar.update(Math.ceil(input.bytesRead / 1024)));
          bar.update(totalKiB);
          bar.stop();
          console.log(files.length > 1 ? `${file}: ${summary}` : summary);
        } finally {
          bar.stop();
        }
      }
    } finally {
      await pool.end();
      await database.close();
    }
  };
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
