// The feature collections of the OGC API (docs/open-data.md#standard-geodata-ogc-api--features):
// the public feeds that have a place, chosen for a municipality's GIS. Each is read by
// app_private.ogc_features (migration of issue 50), which knows its table, order and geometry;
// this list holds what the API says about it and how its ids look. Left out: AMBER alerts (their
// provinces are guessed from the text, and a child's alert is no layer to keep), helicopter
// flights (a track says little without the incident, and its ends can be a patient's address),
// and P2000 pages one by one (an incident's pages share its place: the dossiers are the layer).
import { SHARE_KINDS, type ShareKind } from "../share-pages/kinds.ts";

export interface OgcCollection {
  id: string;
  title: string;
  description: string;
  /** A feature id's shape, checked before the database is asked (a malformed one is 404). */
  idPattern: RegExp;
  /** Whether its features have a time the datetime filter meets. */
  temporal: boolean;
  /** The share page kind whose page shows a feature (its `page` property), if any. */
  sharePage?: ShareKind;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export const OGC_COLLECTIONS: readonly OgcCollection[] = [
  {
    id: "p2000-incidents",
    title: "P2000 incidents",
    description:
      "Incidents of the emergency services' P2000 pager network (fire brigade, ambulance, police, KNRM): the pages " +
      "about one incident grouped, at the place the first one names. Time: when the first page was sent. " +
      "Incidents without a known place are not in this collection.",
    idPattern: UUID,
    temporal: true,
    sharePage: "incident",
  },
  {
    id: "traffic-incidents",
    title: "Traffic incidents",
    description:
      "Accidents and broken-down or abandoned vehicles on the main roads, from the NDW (national road traffic " +
      "data). Time: when the incident began (or was first seen).",
    idPattern: UUID,
    temporal: true,
    sharePage: "traffic",
  },
  {
    id: "weather-warnings",
    title: "Weather warnings",
    description:
      "Each change of a province's KNMI weather warning (code yellow, orange or red, or its end), with the " +
      "province as its shape. Time: the warned period (the announcement's hour when the warning ended).",
    idPattern: UUID,
    temporal: true,
    sharePage: "warning",
  },
  {
    id: "nl-alerts",
    title: "NL-Alerts",
    description:
      "The government's public warnings by cell broadcast, with the areas they were sent to. Time: from the " +
      "start to the stop of the broadcast (open while it runs).",
    idPattern: UUID,
    temporal: true,
    sharePage: "nlAlert",
  },
  {
    id: "fire-stations",
    title: "Fire stations",
    description: "Fire stations (kazernes) with their address and safety region. No time: no datetime meets them.",
    idPattern: /^[a-z0-9]+(-[a-z0-9]+)*$/,
    temporal: false,
  },
];

export function collectionById(id: string): OgcCollection | undefined {
  return OGC_COLLECTIONS.find((collection) => collection.id === id);
}

/** The path prefix of a share page kind (/incidents, /traffic, …). */
export function sharePagePrefix(kind: ShareKind): string {
  const spec = SHARE_KINDS.find((k) => k.kind === kind);
  if (!spec) throw new Error(`No share page kind ${kind}`);
  return spec.prefix;
}
