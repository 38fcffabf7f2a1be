// "Where": a person types their address (or a street, postcode or place) and picks one of the
// suggestions the API gives as they type (locationSuggestions); the monitor's circle is then
// centred there (circle-map.ts), or a station screen's place is set (screens-screen.ts). An ARIA combobox: the text field says whether its list is open
// (aria-expanded) and which suggestion is the active one (aria-activedescendant); the arrow keys
// move through the list, Enter takes the active suggestion, Escape closes the list (and then
// empties the field), a click takes one too. How many suggestions there are, or that there are
// none, is said in a polite live line under the field. Enter never submits the monitor form from
// here. Every text is set as text.
import type { Api } from "../../api/client.ts";
import { h, replaceChildren } from "../../dom.ts";
import { t } from "../../i18n.ts";
import { LocationSuggestionsQuery } from "./monitor-queries.ts";

export interface Suggestion {
  /** place, street, postcode or address (the API may add kinds: shown as it names them). */
  kind: string | null;
  label: string;
  detail: string | null;
  latitude: number;
  longitude: number;
}

/** The API's suggestions for a text, those with a point (public data: read with the page's credential). */
export function locationSearch(api: Api): (text: string) => Promise<Suggestion[]> {
  return async (search) =>
    (await api.request(LocationSuggestionsQuery, { search })).locationSuggestions.flatMap((found) =>
      found.label && found.latitude !== null && found.longitude !== null
        ? [
            {
              kind: found.kind,
              label: found.label,
              detail: found.detail,
              latitude: found.latitude,
              longitude: found.longitude,
            },
          ]
        : [],
    );
}

/** How long typing may pause before the API is asked. */
const TYPING_PAUSE_MS = 200;
/** The API answers from two characters on. */
const SHORTEST = 2;

export function kindName(kind: string | null): string {
  const key = `monitors.address.kind.${kind}`;
  const text = t(key);
  return text === key ? (kind ?? "") : text;
}

export interface AddressSearch {
  element: HTMLElement;
  input: HTMLInputElement;
  /** Empties the field (the circle was placed some other way). */
  clear(): void;
}

export function addressSearch(options: {
  id: string;
  /** The field's label and hint, when not the monitor circle's ("Address or place"). */
  label?: string;
  hint?: string;
  search(text: string): Promise<Suggestion[]>;
  onChoose(suggestion: Suggestion): void;
}): AddressSearch {
  const { id } = options;
  const listId = `${id}-options`;
  const hint = h("p", { class: "field-hint", id: `${id}-hint` }, options.hint ?? t("monitors.address.hint"));
  const status = h("p", { class: "address-status", id: `${id}-status`, "aria-live": "polite" });
  const input = h("input", {
    type: "text",
    id,
    role: "combobox",
    autocomplete: "off",
    spellcheck: "false",
    "aria-autocomplete": "list",
    "aria-expanded": "false",
    "aria-controls": listId,
    "aria-describedby": `${hint.id} ${status.id}`,
  });
  const list = h("ul", {
    id: listId,
    role: "listbox",
    class: "address-options",
    "aria-label": t("monitors.address.suggestions"),
  });
  list.hidden = true;
  const element = h(
    "div",
    { class: "address-search" },
    h("label", { for: id }, options.label ?? t("monitors.address.label")),
    h("div", { class: "address-combobox" }, input, list),
    hint,
    status,
  );

  let suggestions: Suggestion[] = [];
  let active = -1;
  let asked = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;

  const optionId = (index: number) => `${id}-option-${index}`;
  const isOpen = () => !list.hidden;

  function open(show: boolean): void {
    list.hidden = !show;
    input.setAttribute("aria-expanded", String(show));
    if (!show) setActive(-1);
  }

  function setActive(index: number): void {
    active = index;
    for (const [at, option] of [...list.children].entries()) option.setAttribute("aria-selected", String(at === index));
    if (index < 0) input.removeAttribute("aria-activedescendant");
    else {
      input.setAttribute("aria-activedescendant", optionId(index));
      list.children[index]?.scrollIntoView({ block: "nearest" });
    }
  }

  function show(found: Suggestion[], text: string): void {
    suggestions = found;
    replaceChildren(
      list,
      ...found.map((suggestion, index) => {
        const option = h(
          "li",
          { role: "option", id: optionId(index), "aria-selected": "false", class: "address-option" },
          h("span", { class: "address-option-label" }, suggestion.label),
          h(
            "span",
            { class: "address-option-detail" },
            [kindName(suggestion.kind), suggestion.detail].filter(Boolean).join(" · "),
          ),
        );
        // The field keeps the focus (a click would take it away before the choice).
        option.addEventListener("mousedown", (event) => event.preventDefault());
        option.addEventListener("click", () => choose(index));
        return option;
      }),
    );
    status.textContent = found.length
      ? t(found.length === 1 ? "monitors.address.countOne" : "monitors.address.count").replace(
          "{count}",
          String(found.length),
        )
      : t("monitors.address.none").replace("{text}", text);
    open(found.length > 0);
  }

  function choose(index: number): void {
    const suggestion = suggestions[index];
    if (!suggestion) return;
    input.value = suggestion.label;
    open(false);
    // The circle's own line says where the centre now is (aria-live there).
    status.textContent = "";
    options.onChoose(suggestion);
  }

  async function ask(text: string): Promise<void> {
    const mine = ++asked;
    try {
      const found = await options.search(text);
      // An answer to an older text is dropped: the newest question wins.
      if (mine === asked) show(found, text);
    } catch (error) {
      if (mine !== asked) return;
      suggestions = [];
      open(false);
      status.textContent = t("monitors.address.failed").replace("{message}", (error as Error).message);
    }
  }

  input.addEventListener("input", () => {
    clearTimeout(timer);
    const text = input.value.trim();
    if (text.length < SHORTEST) {
      asked++;
      suggestions = [];
      replaceChildren(list);
      open(false);
      status.textContent = "";
      return;
    }
    timer = setTimeout(() => void ask(text), TYPING_PAUSE_MS);
  });
  input.addEventListener("keydown", (event) => {
    const count = suggestions.length;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp": {
        if (!count) return;
        event.preventDefault();
        const down = event.key === "ArrowDown";
        if (!isOpen()) {
          open(true);
          setActive(down ? 0 : count - 1);
        } else setActive(down ? (active + 1) % count : active <= 0 ? count - 1 : active - 1);
        break;
      }
      case "Enter":
        // Never the form's submit from here; the active suggestion, else the first one shown.
        event.preventDefault();
        if (isOpen()) choose(active >= 0 ? active : 0);
        break;
      case "Escape":
        if (isOpen()) {
          event.preventDefault();
          event.stopPropagation();
          open(false);
        } else if (input.value) {
          event.preventDefault();
          input.value = "";
          input.dispatchEvent(new Event("input"));
        }
        break;
      case "Tab":
        open(false);
        break;
    }
  });
  input.addEventListener("blur", () => open(false));

  return {
    element,
    input,
    clear() {
      clearTimeout(timer);
      asked++;
      input.value = "";
      suggestions = [];
      replaceChildren(list);
      open(false);
      status.textContent = "";
    },
  };
}
