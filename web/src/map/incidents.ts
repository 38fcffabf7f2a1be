// The incidents the map shows, kept current: the newest dossiers with a position on load (and after a
// reconnect), then each new message from the p2000Messages subscription merged in (a real message
// carries its dossier as it is now; an exercise, which has no dossier, is an incident of its own).
// The map keeps the newest MAP_INCIDENTS: a page left open for days does not grow without end.
import type { Api } from "../api/client.ts";
import { readFragment, type ResultOf } from "../api/graphql.ts";
import { MAP_INCIDENTS } from "./map-limits.ts";
import { DossierSummary, ExerciseSummary, IncidentsQuery, MessagesSubscription } from "./queries.ts";
import type { ViewState } from "./view-state.ts";

export interface Incident {
  /** A dossier's uuid, or `exercise:<message uuid>`. */
  id: string;
  exercise: boolean;
  /** One of the demo's synthetic pages (DEMO_DATA), which no pager sent. */
  demo: boolean;
  /** The text of its first page, as the pager showed it. */
  title: string;
  /** What kind of incident (P2000Category: brand, medisch, ongeval, …), when the text says. */
  categoryCode: string | null;
  categoryName: string | null;
  place: string | null;
  /** The place (woonplaats) alone. */
  city: string | null;
  latitude: number;
  longitude: number;
  /**
   * How the position was found: 'place' (the centre of the place: incidents there share one point),
   * 'street', 'address', 'postcode', 'hectometre'; null when not known.
   */
  precision: string | null;
  /** When it last had a message. */
  at: string;
  disciplineSlug: string | null;
  disciplineName: string | null;
  urgencyCode: string | null;
  urgencyLevel: string | null;
  /** 0 is the most urgent; 9 for none. */
  urgencyRank: number;
  regionNumber: string | null;
  regionName: string | null;
  gripLevel: number | null;
  messageCount: number;
}

const EXERCISE_PREFIX = "exercise:";

export function exerciseMessageUuid(id: string): string | null {
  return id.startsWith(EXERCISE_PREFIX) ? id.slice(EXERCISE_PREFIX.length) : null;
}

function place(city: string | null, street?: string | null): string | null {
  return [street, city].filter(Boolean).join(", ") || null;
}

/** The precision of a dossier's position: that of its message the position came from. */
function dossierPrecision(d: ResultOf<typeof DossierSummary>): string | null {
  const source = d.messages.find((m) => m.latitude === d.latitude && m.longitude === d.longitude);
  return source?.positionPrecision ?? null;
}

/** An incident on the map: a dossier with a position. */
export function fromDossier(d: ResultOf<typeof DossierSummary>): Incident | null {
  return d.latitude === null || d.longitude === null ? null : describeDossier(d);
}

/** A dossier in the list's terms, placed or not (a panel opened by a link may show one without a position). */
export function describeDossier(d: ResultOf<typeof DossierSummary>): Incident {
  return {
    id: d.uuid,
    exercise: false,
    demo: d.messages.some((m) => m.isDemo),
    title: d.title,
    categoryCode: d.category?.code ?? null,
    categoryName: d.category?.name ?? null,
    place: place(d.city, d.street),
    city: d.city,
    latitude: d.latitude ?? Number.NaN,
    longitude: d.longitude ?? Number.NaN,
    precision: dossierPrecision(d),
    at: d.lastSended,
    disciplineSlug: d.discipline?.slug ?? null,
    disciplineName: d.discipline?.name ?? null,
    urgencyCode: d.urgency?.code ?? null,
    urgencyLevel: d.urgency?.level ?? null,
    urgencyRank: d.urgency?.rank ?? 9,
    regionNumber: d.region?.number ?? null,
    regionName: d.region?.name ?? null,
    gripLevel: d.gripLevel,
    messageCount: d.messageCount,
  };
}

/** An exercise on the map: its message, with a position. */
export function fromExercise(m: ResultOf<typeof ExerciseSummary>): Incident | null {
  return m.latitude === null || m.longitude === null ? null : describeExercise(m);
}

/** An exercise message in the list's terms, placed or not. */
export function describeExercise(m: ResultOf<typeof ExerciseSummary>): Incident {
  return {
    id: EXERCISE_PREFIX + m.uuid,
    exercise: true,
    demo: m.isDemo,
    title: m.message,
    categoryCode: m.category?.code ?? null,
    categoryName: m.category?.name ?? null,
    place: place(m.city, m.street),
    city: m.city,
    latitude: m.latitude ?? Number.NaN,
    longitude: m.longitude ?? Number.NaN,
    precision: m.positionPrecision,
    at: m.sended,
    disciplineSlug: m.discipline?.slug ?? null,
    disciplineName: m.discipline?.name ?? null,
    urgencyCode: null,
    urgencyLevel: "exercise",
    urgencyRank: 9,
    regionNumber: m.region?.number ?? null,
    regionName: m.region?.name ?? null,
    gripLevel: null,
    messageCount: 1,
  };
}

export function shown(incident: Incident, state: ViewState): boolean {
  if (incident.exercise && !state.exercises) return false;
  if (state.region && incident.regionNumber !== state.region) return false;
  if (state.disciplines.length && !state.disciplines.includes(incident.disciplineSlug ?? "")) return false;
  if (state.categories.length && !state.categories.includes(incident.categoryCode ?? "")) return false;
  if (state.urgency && !incident.exercise && incident.urgencyLevel !== state.urgency) return false;
  return true;
}

export function newestFirst(incidents: Iterable<Incident>): Incident[] {
  return [...incidents].sort((a, b) => b.at.localeCompare(a.at) || a.id.localeCompare(b.id));
}

export class IncidentStore {
  readonly #api: Api;
  readonly #byId = new Map<string, Incident>();
  readonly #listeners = new Set<() => void>();
  #unsubscribe: (() => void) | undefined;

  constructor(api: Api) {
    this.#api = api;
  }

  get all(): Incident[] {
    return newestFirst(this.#byId.values());
  }

  get(id: string): Incident | undefined {
    return this.#byId.get(id);
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Subscribe first, then load, so a message stored in between is not lost (merging is idempotent). */
  async start(onError: (error: Error) => void): Promise<void> {
    this.#unsubscribe = this.#api.subscribe(
      MessagesSubscription,
      {},
      (data) => {
        for (const message of data.p2000Messages ?? []) {
          const incident = message.dossier
            ? fromDossier(readFragment(DossierSummary, message.dossier))
            : message.exerciseType === "oefening"
              ? fromExercise(readFragment(ExerciseSummary, message))
              : null;
          if (incident) this.#byId.set(incident.id, incident);
        }
        this.#changed();
      },
      onError,
    );
    await this.reload();
  }

  /** The newest incidents as they are now: on load and after the live connection was lost. */
  async reload(): Promise<void> {
    const { exercises, ...pages } = await this.#api.request(IncidentsQuery);
    for (const dossier of Object.values(pages).flat()) {
      const incident = fromDossier(readFragment(DossierSummary, dossier));
      if (incident) this.#byId.set(incident.id, incident);
    }
    for (const message of exercises ?? []) {
      const incident = fromExercise(readFragment(ExerciseSummary, message));
      if (incident) this.#byId.set(incident.id, incident);
    }
    this.#changed();
  }

  stop(): void {
    this.#unsubscribe?.();
  }

  #changed(): void {
    // Sorted only when over the cap (the screen sorts what it shows anyway).
    if (this.#byId.size > MAP_INCIDENTS) for (const old of this.all.slice(MAP_INCIDENTS)) this.#byId.delete(old.id);
    for (const listener of this.#listeners) listener();
  }
}
