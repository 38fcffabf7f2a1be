// Documents in the upstream formats, written from a short list of warnings: the demo data of a new
// installation, the benchmark's ten years of history and the tests' fixtures all go through the
// real parser and ingestion path with them. The XML has the layout of KNMI's 48-hour warnings
// (every hour × phenomenon × location, status 0 where nothing is warned).

const HOUR = 3_600_000;

/** Every location id of the warnings feed: the twelve provinces and the two Wadden areas. */
export const KNMI_LOCATIONS = ["GR", "FR", "DR", "NH", "FL", "OV", "GL", "UT", "ZH", "ZE", "NB", "LB", "WAE", "WAB"];
export const KNMI_PHENOMENA = ["wind", "rain", "thunderstorm", "snow", "iciness", "visibility"];

export interface SampleWarning {
  phenomenon: string;
  locations: string[];
  /** First and last hour of the warning (UTC, whole hours), both included. */
  from: Date;
  to: Date;
  status: 1 | 2 | 3;
  text: string;
}

const xmlText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

/** The warning in force for a phenomenon, location and hour; later entries win. */
function warningAt(
  warnings: SampleWarning[],
  phenomenon: string,
  location: string,
  time: number,
): SampleWarning | undefined {
  return warnings.findLast(
    (w) =>
      w.phenomenon === phenomenon &&
      w.locations.includes(location) &&
      w.from.getTime() <= time &&
      time <= w.to.getTime(),
  );
}

function locationXml(location: string, warning: SampleWarning | undefined): string {
  const head = `<location><location_id>${location}</location_id><location_warning_status>${warning?.status ?? 0}</location_warning_status>`;
  return `      ${head}${warning ? `<text><text_data>${xmlText(warning.text)}</text_data></text>` : ""}</location>`;
}

function timesliceXml(time: number, warnings: SampleWarning[], phenomena: string[]): string {
  const lines = phenomena.map((phenomenon) =>
    [
      "    <phenomenon>",
      `      <phenomenon_id>${phenomenon}</phenomenon_id>`,
      ...KNMI_LOCATIONS.map((location) => locationXml(location, warningAt(warnings, phenomenon, location, time))),
      "    </phenomenon>",
    ].join("\n"),
  );
  const id = new Date(time).toISOString().replace(".000Z", "Z");
  return ["   <timeslice>", `    <timeslice_id>${id}</timeslice_id>`, ...lines, "   </timeslice>"].join("\n");
}

/** The document around timeslice elements written elsewhere (a test's hand-made bad records). */
export function warningsDocumentXml(comment: string, timeslices: string[]): string {
  return [
    `<?xml version="1.0" encoding="UTF-8"?>`,
    `<!-- ${comment.replace(/--/g, "- -")} -->`,
    "<report>",
    " <data>",
    "  <cube>",
    ...timeslices,
    "  </cube>",
    " </data>",
    "</report>",
    "",
  ].join("\n");
}

/** A warnings document whose timeslices start at the whole hour `issuedAt` and run `hours` hours. */
export function warningsXml(
  issuedAt: Date,
  warnings: SampleWarning[],
  comment: string,
  hours = 48,
  phenomena = KNMI_PHENOMENA,
): string {
  const first = Math.floor(issuedAt.getTime() / HOUR) * HOUR;
  return warningsDocumentXml(
    comment,
    Array.from({ length: hours }, (_, i) => timesliceXml(first + i * HOUR, warnings, phenomena)),
  );
}
