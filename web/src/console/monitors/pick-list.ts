// Picking values from a reference list: a search box that filters a list of checkboxes (the
// regions, disciplines, roads or routes the API lists), or, for a list too long to send at once
// (capcodes), asks the API for what matches the search. The picked values stay picked (and listed
// first) whatever the search shows. It is a form field: the API's message about its query field
// ("query.regions: …") is shown under it.
import { h, replaceChildren } from "../../dom.ts";
import { t } from "../../i18n.ts";
import type { FormField } from "../form.ts";

/** Lists this short are shown without a search box. */
const SHORT_LIST = 8;

export interface Choice {
  value: string;
  label: string;
}

export interface PickList extends FormField<HTMLInputElement> {
  values(): string[];
  /** Picks these values; `labels` names those the list may not hold (a saved value found by a search). */
  setValues(values: string[], labels?: Record<string, string>): void;
  /** Picks one more value, which no search found (an area drawn on a map), with its label. */
  add(choice: Choice): void;
}

export function pickList(options: {
  id: string;
  label: string;
  hint?: string;
  apiNames: string[];
  /** The whole list, loaded once; or, with `search`, nothing until the person searches. */
  load?: () => Promise<Choice[]>;
  /** Asks the API for the choices that match a search (at least 2 characters). */
  search?: (text: string) => Promise<Choice[]>;
  /** Shown under the list, above the field's error line (the areas' map). */
  extra?: HTMLElement;
  /** Told the picked values whenever they change, by a tick or by the page. */
  onChange?: (values: string[]) => void;
}): PickList {
  const { id } = options;
  const picked = new Map<string, string>();
  let choices: Choice[] = [];
  const control = h("input", { type: "search", id, autocomplete: "off", class: "pick-search" });
  const hint = options.hint ? h("p", { class: "field-hint", id: `${id}-hint` }, options.hint) : null;
  const error = h("p", { class: "field-error", id: `${id}-error`, hidden: true });
  const count = h("p", { class: "pick-count", id: `${id}-count`, "aria-live": "polite" });
  control.setAttribute("aria-describedby", [hint?.id, count.id, error.id].filter(Boolean).join(" "));
  const list = h("ul", { class: "pick-options", id: `${id}-options` });
  control.setAttribute("aria-controls", list.id);
  const searchLabel = h("label", { for: id, class: "pick-search-label" }, t("monitors.pick.search"));
  const element = h(
    "fieldset",
    { class: "field pick-list" },
    h("legend", {}, options.label),
    searchLabel,
    control,
    hint,
    count,
    list,
    options.extra,
    error,
  );
  const changed = () => options.onChange?.([...picked.keys()]);

  function draw(): void {
    const text = control.value.trim().toLowerCase();
    const shown = choices.filter(
      (choice) =>
        !picked.has(choice.value) &&
        (!text || choice.label.toLowerCase().includes(text) || choice.value.toLowerCase().includes(text)),
    );
    const pickedChoices = [...picked].map(([value, label]) => ({ value, label }));
    replaceChildren(list, ...[...pickedChoices, ...shown.slice(0, 200)].map(option));
    count.textContent = t("monitors.pick.count")
      .replace("{picked}", String(picked.size))
      .replace("{shown}", String(Math.min(shown.length, 200) + pickedChoices.length));
  }

  function option(choice: Choice): HTMLElement {
    const box = h("input", { type: "checkbox", value: choice.value, checked: picked.has(choice.value) });
    box.addEventListener("change", () => {
      if (box.checked) picked.set(choice.value, choice.label);
      else picked.delete(choice.value);
      changed();
      count.textContent = t("monitors.pick.count")
        .replace("{picked}", String(picked.size))
        .replace("{shown}", String(list.childElementCount));
    });
    return h("li", {}, h("label", { class: "checkbox" }, box, ` ${choice.label}`));
  }

  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  control.addEventListener("input", () => {
    if (!options.search) return draw();
    clearTimeout(searchTimer);
    const text = control.value.trim();
    if (text.length < 2) {
      choices = [];
      return draw();
    }
    searchTimer = setTimeout(async () => {
      choices = await options.search!(text).catch(() => []);
      if (control.value.trim() === text) draw();
    }, 250);
  });
  // Enter in the search box must not submit the monitor's form.
  control.addEventListener("keydown", (event) => {
    if (event.key === "Enter") event.preventDefault();
  });

  if (options.load)
    void options
      .load()
      .then((loaded) => {
        choices = loaded;
        // A short list (the kinds of an alert) needs no search.
        if (loaded.length <= SHORT_LIST) for (const part of [searchLabel, control, count]) part.hidden = true;
        // Values given before the list arrived get their labels.
        for (const choice of loaded) if (picked.has(choice.value)) picked.set(choice.value, choice.label);
        draw();
      })
      .catch((problem: Error) => (count.textContent = problem.message));
  else draw();

  return {
    element,
    control,
    apiNames: options.apiNames,
    setError(message) {
      error.textContent = message ?? "";
      error.hidden = !message;
      if (message) control.setAttribute("aria-invalid", "true");
      else control.removeAttribute("aria-invalid");
    },
    values: () => [...picked.keys()],
    setValues(values, labels = {}) {
      picked.clear();
      for (const value of values)
        picked.set(value, choices.find((choice) => choice.value === value)?.label ?? labels[value] ?? value);
      draw();
      changed();
    },
    add(choice) {
      picked.set(choice.value, choice.label);
      draw();
      changed();
    },
  };
}
