// Alert documents in the sources' real shapes, written from short descriptions: the tests'
// fixtures and the demo data go through the real parsers and ingestion with them.

export interface SampleAmberAlert {
  alertId: string;
  type: "Alert" | "Cancel";
  /** 10: AMBER Alert; 5: missing-child alert. Written as a string when asked, as the source sometimes does. */
  level: 10 | 5;
  levelAsString?: boolean;
  sent: Date;
  title: string;
  descriptionHtml: string;
  imageUrl?: string;
  readMoreUrl?: string;
}

/** The police's alert list: a JSON array of alert messages. */
export function amberAlertsJson(alerts: SampleAmberAlert[]): string {
  return JSON.stringify(
    alerts.map((a) => ({
      AlertId: a.alertId,
      State: "Actual",
      Type: a.type,
      AlertLevel: a.levelAsString ? String(a.level) : a.level,
      Sent: String(Math.floor(a.sent.getTime() / 1000)),
      Message: {
        Title: a.title,
        Description: a.descriptionHtml,
        DescriptionExt: "Sinds gisteren vermist",
        Readmore_URL: a.readMoreUrl ?? null,
        Media: { Image: a.imageUrl ?? null },
      },
    })),
  );
}

export interface SampleNlAlert {
  id: string;
  messageNl: string;
  messageEn?: string;
  startAt: Date;
  stopAt?: Date;
  /** Each area as [lat, lon] corners. */
  areas: Array<Array<[number, number]>>;
}

const iso = (date: Date) => date.toISOString().replace(/\.\d{3}Z$/, "Z");

/** One page of the public NL-Alert list: {"data": [...]}. */
export function nlAlertsJson(alerts: SampleNlAlert[]): string {
  return JSON.stringify({
    data: alerts.map((a) => ({
      id: a.id,
      message: a.messageEn ? `${a.messageNl}***${a.messageEn}` : a.messageNl,
      type: "nl-alert",
      start_at: iso(a.startAt),
      stop_at: a.stopAt ? iso(a.stopAt) : null,
      area: a.areas.map((corners) => corners.map(([lat, lon]) => `${lat},${lon}`).join(" ")),
      resource_uri: `https://api.public-warning.app/api/v1/providers/nl-alert/alerts/${a.id}`,
    })),
  });
}

/** A square of about two kilometres around a place, closed as the source closes its rings. */
export function squareAround(lat: number, lon: number, halfDegrees = 0.01): Array<[number, number]> {
  const round = (value: number) => Math.round(value * 1e5) / 1e5;
  const corners: Array<[number, number]> = [
    [lat - halfDegrees, lon - halfDegrees],
    [lat - halfDegrees, lon + halfDegrees],
    [lat + halfDegrees, lon + halfDegrees],
    [lat + halfDegrees, lon - halfDegrees],
    [lat - halfDegrees, lon - halfDegrees],
  ];
  return corners.map(([y, x]) => [round(y), round(x)]);
}
