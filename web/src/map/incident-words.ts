// An incident in words, as a person reads it rather than as the pager wrote it: the service
// (discipline), the kind of incident (P2000Category), the place, and the units paged (the capcodes'
// own descriptions, else the discipline and region the capcode list has for them). The list, the
// markers' tooltips, a place's list and the panel all say it the same way; the page's text itself
// stays in the panel ("Pager text").
import { h } from "../dom.ts";
import { formatDateTime, t } from "../i18n.ts";
import { kindName } from "../incident-kinds.ts";
import { disciplineColour, EXERCISE_COLOUR } from "./colours.ts";
import type { Incident } from "./incidents.ts";

/** A text of the page's own for a key, or null where none is registered. */
function known(key: string): string | null {
  const text = t(key);
  return text === key ? null : text;
}

/** The service: Brandweer, Ambulance, Politie, … in the reader's language. */
export function serviceName(slug: string | null, name: string | null): string | null {
  return (slug && known(`discipline.${slug}`)) || name;
}

/** "Ambulance · Medisch": the service and the kind, or what of them is known. */
export function headline(incident: Incident): string {
  const parts = [
    serviceName(incident.disciplineSlug, incident.disciplineName),
    kindName(incident.categoryCode, incident.categoryName),
  ].filter(Boolean);
  // A kind that repeats the service ("Ambulance · Ambulance") is said once.
  const unique = parts.filter((part, index) => parts.indexOf(part) === index);
  return unique.length ? unique.join(" · ") : t("incident.unknown");
}

/** The urgency as the services write it (A1, P 1 → P1), or "Oefening". */
export function badgeText(incident: Incident): string | null {
  if (incident.exercise) return t("map.exercise");
  return incident.urgencyCode?.replace(/\s+/g, "") ?? null;
}

export const colourOf = (incident: Incident): string =>
  incident.exercise ? EXERCISE_COLOUR : disciplineColour(incident.disciplineSlug);

/** The "demo" mark of a synthetic page, with its explanation for a pointer and a screen reader. */
export function demoMark(): HTMLElement {
  return h("span", { class: "demo-mark", title: t("demo.markTitle") }, t("demo.mark"));
}

/**
 * An incident's lines in a list (beside the map, and a place's list): the urgency, the service and
 * the kind as its title, then the place and time, then the pager's own text, small.
 */
export function incidentLines(incident: Incident, options: { place?: boolean } = {}): HTMLElement {
  const badge = badgeText(incident);
  return h(
    "span",
    { class: "incident-text" },
    h(
      "span",
      { class: "incident-title" },
      // Spaces between the parts, so a screen reader says "A1 Ambulance · Medisch demo".
      badge ? h("span", { class: "badge" }, badge) : null,
      badge ? " " : null,
      h("span", { class: "headline" }, headline(incident)),
      incident.demo ? " " : null,
      incident.demo ? demoMark() : null,
    ),
    h(
      "span",
      { class: "incident-meta" },
      [options.place === false ? null : incident.place, formatDateTime(incident.at)].filter(Boolean).join(" · "),
    ),
    h("span", { class: "incident-page" }, incident.title),
  );
}

/** What a marker's tooltip says: the title, the place and time, and whether it is demo data. */
export function tooltipContent(incident: Incident): HTMLElement {
  const badge = badgeText(incident);
  return h(
    "div",
    { class: "incident-tooltip" },
    h("strong", {}, badge ? `${badge} ` : "", headline(incident), incident.demo ? ` (${t("demo.mark")})` : ""),
    h("br", {}),
    [incident.place, formatDateTime(incident.at)].filter(Boolean).join(" · "),
  );
}

/** What the panel needs of a capcode (the capcodes of DossierDetail and ExerciseQuery, queries.ts). */
export interface CapcodeLike {
  name: string;
  description: string | null;
  kind: string;
  location: string | null;
  discipline: { slug: string; name: string } | null;
  region: { name: string } | null;
}

/**
 * A capcode in words: its description where the capcode list has one ("Ambulance-20-121 Breda"),
 * else its discipline and region (which the list knows from its number's block), with its number.
 */
export function capcodeLabel(capcode: CapcodeLike): string {
  const words =
    capcode.description ??
    ([
      serviceName(capcode.discipline?.slug ?? null, capcode.discipline?.name ?? null),
      capcode.region?.name ?? capcode.location,
    ]
      .filter(Boolean)
      .join(" ") ||
      null);
  return words ? `${words} (${capcode.name})` : capcode.name;
}

/**
 * The units paged: the unit capcodes of the messages, each once. Group calls (FLEX temporary group
 * addresses) and control-room monitor codes say nothing about who was sent: left out, unless the
 * page went only to those.
 */
export function unitsPaged(capcodes: readonly CapcodeLike[]): string[] {
  const units = capcodes.filter((capcode) => capcode.kind === "unit");
  const chosen = units.length ? units : capcodes.filter((capcode) => capcode.kind !== "group_call");
  return [...new Set(chosen.map(capcodeLabel))];
}
