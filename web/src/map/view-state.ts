// What a person chose to see, kept in the URL's query so a view can be shared: the filters, the
// feeds switched off and the open incident. The URL is rewritten in place (replaceState, no history
// entry per click) and keeps every parameter it does not own, such as `lang`; opening an incident
// is the one change that adds a history entry (pushViewState), so Back closes it.

export const FEEDS = ["incidents", "traffic", "weather", "alerts", "aircraft"] as const;
export type Feed = (typeof FEEDS)[number];

export const URGENCY_LEVELS = ["urgent", "less_urgent", "not_urgent"] as const;
export type UrgencyLevel = (typeof URGENCY_LEVELS)[number];

export interface ViewState {
  /** Safety region number ("01" to "25"), or null for the whole country. */
  region: string | null;
  /** Discipline slugs to show; empty shows all. */
  disciplines: string[];
  /** Kinds of incident (p2000Categories codes) to show; empty shows all. */
  categories: string[];
  /** Urgency level to show; null shows all. */
  urgency: UrgencyLevel | null;
  /** Show exercise messages too. */
  exercises: boolean;
  /** Feeds switched off (all are on by default, so a plain link shows everything). */
  off: Feed[];
  /** The open incident: a dossier uuid, or `exercise:<message uuid>`. */
  incident: string | null;
}

const OWN_PARAMETERS = ["region", "discipline", "category", "urgency", "exercises", "off", "incident"];

const list = (value: string | null): string[] => (value ? value.split(",").filter(Boolean) : []);

export function readViewState(search: string): ViewState {
  const query = new URLSearchParams(search);
  const region = query.get("region");
  const urgency = query.get("urgency");
  return {
    region: region && /^\d{2}$/.test(region) ? region : null,
    disciplines: list(query.get("discipline")),
    categories: list(query.get("category")),
    urgency: (URGENCY_LEVELS as readonly string[]).includes(urgency ?? "") ? (urgency as UrgencyLevel) : null,
    exercises: query.get("exercises") === "1",
    off: list(query.get("off")).filter((feed): feed is Feed => (FEEDS as readonly string[]).includes(feed)),
    incident: query.get("incident"),
  };
}

/** The current URL with this state in its query; other parameters stay. */
export function urlFor(state: ViewState, href: string): string {
  const url = new URL(href);
  for (const name of OWN_PARAMETERS) url.searchParams.delete(name);
  if (state.region) url.searchParams.set("region", state.region);
  if (state.disciplines.length) url.searchParams.set("discipline", state.disciplines.join(","));
  if (state.categories.length) url.searchParams.set("category", state.categories.join(","));
  if (state.urgency) url.searchParams.set("urgency", state.urgency);
  if (state.exercises) url.searchParams.set("exercises", "1");
  if (state.off.length) url.searchParams.set("off", state.off.join(","));
  if (state.incident) url.searchParams.set("incident", state.incident);
  return url.pathname + url.search + url.hash;
}

export function writeViewState(state: ViewState): void {
  history.replaceState(history.state, "", urlFor(state, location.href));
}

/** What marks a history entry the map added for an open incident. */
interface IncidentEntry {
  mapIncident: true;
}

/** A new history entry with this state (an incident opened), marked as the map's own. */
export function pushViewState(state: ViewState): void {
  history.pushState({ mapIncident: true } satisfies IncidentEntry, "", urlFor(state, location.href));
}

/** The history entry now is one the map added for an incident (Back leaves it for the map without). */
export function ownEntry(): boolean {
  return (history.state as Partial<IncidentEntry> | null)?.mapIncident === true;
}

export function feedOn(state: ViewState, feed: Feed): boolean {
  return !state.off.includes(feed);
}
