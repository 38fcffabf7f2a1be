// The open archive's index as a small HTML page (/archive/): for people and crawlers that follow
// links; index.json holds the same for programs.
import { escapeHtml } from "../../http/html-page.ts";
import type { ArchiveIndex } from "./archive-index.ts";

function size(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function archiveListing(index: ArchiveIndex): string {
  const feeds = index.feeds.map((feed) => `<li><b>${escapeHtml(feed.name)}</b>: ${escapeHtml(feed.title)}</li>`);
  const rows = index.days.flatMap((day) =>
    day.files.map(
      (file) =>
        `<tr><td>${escapeHtml(day.date)}</td><td><a href="${escapeHtml(file.path)}">${escapeHtml(file.feed)}.${file.format}</a></td>` +
        `<td>${file.rows}</td><td>${size(file.bytes)}</td><td><code>${escapeHtml(file.sha256)}</code></td></tr>`,
    ),
  );
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<title>Open archive</title><style>body{font:15px system-ui,sans-serif;margin:2rem}td,th{padding:.2rem .6rem;text-align:left}code{font-size:12px}</style>` +
    `</head><body><h1>Open archive</h1>` +
    `<p>Every public feed's history, one CSV and one Parquet file per feed per Dutch calendar day (${escapeHtml(index.timezone)}), ` +
    `published ${index.delayHours} hours after the day ends and kept for ${index.keepDays} days. ` +
    `The same list for programs: <a href="/archive/index.json">index.json</a>. What each column holds: <a href="${escapeHtml(index.columns)}">columns.md</a>.</p>` +
    `<ul>${feeds.join("")}</ul>` +
    (rows.length
      ? `<table><thead><tr><th>day</th><th>file</th><th>rows</th><th>size</th><th>SHA-256</th></tr></thead><tbody>${rows.join("")}</tbody></table>`
      : "<p>No day has been published yet.</p>") +
    `</body></html>`
  );
}
