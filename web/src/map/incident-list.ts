// The newest-first list beside the map (below it on a phone): each incident a button with its
// discipline's colour, urgency, text, place and time, so a keyboard or screen reader reaches every
// incident the map shows.
import { h, replaceChildren } from "../dom.ts";
import { formatDateTime, t } from "../i18n.ts";
import { disciplineColour, EXERCISE_COLOUR } from "./colours.ts";
import type { Incident } from "./incidents.ts";

export interface IncidentList {
  element: HTMLElement;
  show(incidents: Incident[], selected: string | null): void;
  /** Focus the button of an incident (back from its panel). */
  focus(id: string): boolean;
}

export function createIncidentList(onOpen: (id: string) => void): IncidentList {
  const heading = h("h2", { id: "incident-list-heading" }, t("map.list"));
  const count = h("span", { class: "incident-count" });
  const list = h("ul", { class: "incident-list", "aria-labelledby": "incident-list-heading" });
  const element = h(
    "section",
    { class: "incident-list-section" },
    h("div", { class: "list-header" }, heading, count),
    list,
  );
  const buttons = new Map<string, HTMLButtonElement>();

  function item(incident: Incident, selected: boolean): HTMLElement {
    const dot = h("span", { class: "dot", "aria-hidden": "true" });
    dot.style.background = incident.exercise ? EXERCISE_COLOUR : disciplineColour(incident.disciplineSlug);
    const badge = incident.exercise ? t("map.exercise") : (incident.urgencyCode ?? incident.disciplineName);
    const button = h(
      "button",
      {
        type: "button",
        class: "incident",
        "data-id": incident.id,
        "aria-current": selected ? "true" : null,
        onclick: () => onOpen(incident.id),
      },
      dot,
      h(
        "span",
        { class: "incident-text" },
        h("span", { class: "incident-title" }, badge ? h("span", { class: "badge" }, badge) : null, incident.title),
        h(
          "span",
          { class: "incident-meta" },
          [incident.place, formatDateTime(incident.at)].filter(Boolean).join(" · "),
        ),
      ),
    );
    buttons.set(incident.id, button);
    return h("li", {}, button);
  }

  return {
    element,
    show(incidents, selected) {
      buttons.clear();
      count.textContent = `${incidents.length} ${t(incidents.length === 1 ? "map.countOne" : "map.count")}`;
      if (!incidents.length) replaceChildren(list, h("li", { class: "empty" }, t("map.empty")));
      else replaceChildren(list, ...incidents.map((incident) => item(incident, incident.id === selected)));
    },
    focus(id) {
      const button = buttons.get(id);
      button?.focus();
      return Boolean(button);
    },
  };
}
