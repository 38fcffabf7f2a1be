// The filters and the feed switches, in a disclosure so they take no room on a phone until asked
// for. Every change goes to the view state (and so to the URL) through onChange.
import { h } from "../dom.ts";
import { t } from "../i18n.ts";
import { DISCIPLINE_COLOURS } from "./colours.ts";
import { FEEDS, URGENCY_LEVELS, feedOn, type ViewState } from "./view-state.ts";

export interface SafetyRegion {
  number: string;
  name: string;
}

function select(
  id: string,
  label: string,
  value: string,
  options: Array<{ value: string; text: string }>,
  onChange: (value: string) => void,
): HTMLElement {
  const element = h(
    "select",
    { id, onchange: (event: Event) => onChange((event.target as HTMLSelectElement).value) },
    h("option", { value: "" }, t("filters.all")),
    ...options.map((option) => h("option", { value: option.value, selected: option.value === value }, option.text)),
  );
  return h("div", { class: "filter" }, h("label", { for: id }, label), element);
}

function checkbox(id: string, label: string, checked: boolean, onChange: (checked: boolean) => void): HTMLElement {
  return h(
    "div",
    { class: "check" },
    h("input", {
      type: "checkbox",
      id,
      checked,
      onchange: (event: Event) => onChange((event.target as HTMLInputElement).checked),
    }),
    h("label", { for: id }, label),
  );
}

export function createFilters(
  current: () => ViewState,
  regions: SafetyRegion[],
  kinds: Array<{ value: string; label: string }>,
  onChange: (next: Partial<ViewState>) => void,
): HTMLElement {
  const state = current();
  const open = Boolean(
    state.region ||
    state.disciplines.length ||
    state.categories.length ||
    state.urgency ||
    state.exercises ||
    state.off.length,
  );
  return h(
    "details",
    { class: "map-filters", open },
    h("summary", {}, t("filters.title")),
    h(
      "div",
      { class: "filter-grid" },
      select(
        "filter-region",
        t("filters.region"),
        state.region ?? "",
        regions.map((region) => ({ value: region.number, text: region.name })),
        (value) => onChange({ region: value || null }),
      ),
      select(
        "filter-discipline",
        t("filters.discipline"),
        state.disciplines.length === 1 ? state.disciplines[0] : "",
        Object.keys(DISCIPLINE_COLOURS).map((slug) => ({ value: slug, text: t(`discipline.${slug}`) })),
        (value) => onChange({ disciplines: value ? [value] : [] }),
      ),
      select(
        "filter-category",
        t("filters.category"),
        state.categories.length === 1 ? state.categories[0] : "",
        kinds.map((kind) => ({ value: kind.value, text: kind.label })),
        (value) => onChange({ categories: value ? [value] : [] }),
      ),
      select(
        "filter-urgency",
        t("filters.urgency"),
        state.urgency ?? "",
        URGENCY_LEVELS.map((level) => ({ value: level, text: t(`urgency.${level}`) })),
        (value) => onChange({ urgency: (value || null) as ViewState["urgency"] }),
      ),
      checkbox("filter-exercises", t("filters.exercises"), state.exercises, (exercises) => onChange({ exercises })),
      h(
        "fieldset",
        { class: "feeds" },
        h("legend", {}, t("filters.feeds")),
        ...FEEDS.map((feed) =>
          checkbox(`feed-${feed}`, t(`feed.${feed}`), feedOn(state, feed), (on) =>
            onChange({ off: on ? current().off.filter((one) => one !== feed) : [...current().off, feed] }),
          ),
        ),
      ),
    ),
  );
}
