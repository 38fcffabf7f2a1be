// The newest-first list beside the map (below it on a phone): each incident a button with its
// discipline's colour, urgency, service and kind of incident, place and time, and the pager's own
// text, small (incident-words.ts), so a keyboard or screen reader reaches every incident the map
// shows. Demo data carries a "demo" mark.
import { h, replaceChildren } from "../dom.ts";
import { t } from "../i18n.ts";
import type { Incident } from "./incidents.ts";
import { colourOf, incidentLines } from "./incident-words.ts";

export interface IncidentList {
  element: HTMLElement;
  show(incidents: Incident[], selected: string | null): void;
  /** Focus the button of an incident (back from its panel). */
  focus(id: string, options?: FocusOptions): boolean;
  /** The button of an incident, when the list shows it. */
  button(id: string): HTMLButtonElement | undefined;
  /** Scrolls the list itself (on a wide screen it scrolls beside the map) by this many pixels. */
  scrollBy(pixels: number): void;
  /** Back to the newest: after a filter changed what the list holds. */
  scrollToTop(): void;
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
    dot.style.background = colourOf(incident);
    const button = h(
      "button",
      {
        type: "button",
        class: "incident",
        "data-id": incident.id,
        "data-demo": incident.demo ? "true" : null,
        "aria-current": selected ? "true" : null,
        onclick: () => onOpen(incident.id),
      },
      dot,
      incidentLines(incident),
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
    focus(id, options) {
      const button = buttons.get(id);
      button?.focus(options);
      return Boolean(button);
    },
    scrollToTop() {
      list.scrollTop = 0;
    },
    button: (id) => buttons.get(id),
    scrollBy(pixels) {
      list.scrollTop += pixels;
    },
  };
}
