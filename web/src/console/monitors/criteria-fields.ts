// Each monitor type's criteria as form controls (docs/monitors.md, "query fields"): lists picked
// from the API's reference lists, words typed comma-separated or one per line, a switch, a number.
// The lists are public data, asked with the page's API credential (context.api). `read` builds the type's query object (fields left empty are left out), `fill` puts a saved
// monitor's query back. Each control names its query field ("query.regions") so that the API's
// message about it is shown under it.
import type { Api } from "../../api/client.ts";
import { h } from "../../dom.ts";
import { t } from "../../i18n.ts";
import { textField, type FormField } from "../form.ts";
import {
  CapcodeSearchQuery,
  HighwaysQuery,
  MeteoReferenceQuery,
  P2000ReferenceQuery,
  ProvincesQuery,
  RailRoutesQuery,
} from "./monitor-queries.ts";
import { pickList, type Choice, type PickList } from "./pick-list.ts";

/** The types whose items have a place, so a circle on the map narrows them. */
export const PLACE_TYPES: ReadonlySet<string> = new Set(["p2000", "accident", "aircraft", "matrix", "nl_alert"]);

export type Query = Record<string, unknown>;

export interface Criteria {
  fields: FormField[];
  read(): Query;
  fill(query: Query): void;
}

interface Criterion {
  field: FormField;
  read(): unknown;
  fill(value: unknown): void;
}

const strings = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : []);

/** Words typed comma-separated or one per line. */
export function splitWords(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((word) => word.trim())
    .filter(Boolean);
}

function picked(list: PickList): Criterion {
  return {
    field: list,
    read: () => (list.values().length ? list.values() : undefined),
    fill: (value) => list.setValues(strings(value)),
  };
}

function pick(type: string, key: string, load: () => Promise<Choice[]>, hintKey?: string): Criterion {
  return picked(
    pickList({
      id: `monitor-${key}`,
      label: t(`monitors.query.${type}.${key}`),
      hint: hintKey ? t(hintKey) : undefined,
      apiNames: [`query.${key}`],
      load,
    }),
  );
}

/** A fixed list of values, each with its text. */
function fixed(type: string, key: string, values: string[]): Criterion {
  return pick(type, key, async () => values.map((value) => ({ value, label: t(`monitors.value.${value}`) })));
}

function words(type: string, key: string): Criterion {
  const field = textField({
    id: `monitor-${key}`,
    label: t(`monitors.query.${type}.${key}`),
    hint: t("monitors.wordsHint"),
    apiNames: [`query.${key}`],
    multiline: true,
  });
  return {
    field,
    read: () => {
      const list = splitWords(field.control.value);
      return list.length ? list : undefined;
    },
    fill: (value) => (field.control.value = strings(value).join("\n")),
  };
}

function integer(type: string, key: string): Criterion {
  const field = textField({
    id: `monitor-${key}`,
    label: t(`monitors.query.${type}.${key}`),
    apiNames: [`query.${key}`],
    type: "number",
    inputmode: "numeric",
  });
  field.control.setAttribute("min", "0");
  return {
    field,
    read: () => (field.control.value === "" ? undefined : Number(field.control.value)),
    fill: (value) => (field.control.value = value === undefined || value === null ? "" : String(value)),
  };
}

function checkbox(type: string, key: string): Criterion {
  const control = h("input", { type: "checkbox", id: `monitor-${key}` });
  const error = h("p", { class: "field-error", id: `monitor-${key}-error`, hidden: true });
  control.setAttribute("aria-describedby", error.id);
  const field: FormField = {
    element: h(
      "div",
      { class: "field" },
      h("label", { class: "checkbox" }, control, ` ${t(`monitors.query.${type}.${key}`)}`),
      error,
    ),
    control,
    apiNames: [`query.${key}`],
    setError(message) {
      error.textContent = message ?? "";
      error.hidden = !message;
    },
  };
  return {
    field,
    read: () => (control.checked ? true : undefined),
    fill: (value) => (control.checked = value === true),
  };
}

/** The reference lists, asked for once per form however many fields use them. */
function references(api: Api) {
  let p2000: ReturnType<typeof loadP2000> | undefined;
  const loadP2000 = () => api.request(P2000ReferenceQuery);
  const once = () => (p2000 ??= loadP2000());
  const highways = async () =>
    (await api.request(HighwaysQuery)).highways.map((road) => ({
      value: road.value ?? "",
      label: road.label && road.label !== road.value ? `${road.value} ${road.label}` : (road.value ?? ""),
    }));
  return {
    regions: async () =>
      ((await once()).p2000Regions ?? []).map((region) => ({
        value: region.slug,
        label: `${region.number} ${region.name}`,
      })),
    disciplines: async () =>
      ((await once()).p2000Disciplines ?? []).map((discipline) => ({
        value: discipline.slug,
        label: discipline.name,
      })),
    urgencies: async () => urgencyChoices((await once()).p2000Urgencies ?? []),
    highways,
    railRoutes: async () =>
      (await api.request(RailRoutesQuery)).railRoutes.map((route) => ({
        value: route.value ?? "",
        label: route.label ?? route.value ?? "",
      })),
    meteoRegions: async () =>
      (await api.request(MeteoReferenceQuery)).meteoRegions.map((region) => ({
        value: region.code ?? "",
        label: region.name ?? region.code ?? "",
      })),
    meteoLevels: async () =>
      (await api.request(MeteoReferenceQuery)).meteoColorCodes
        .filter((level) => level.value && ["yellow", "orange", "red"].includes(level.value))
        .map((level) => ({ value: level.value ?? "", label: t(`monitors.value.${level.value}`) })),
    provinces: async () =>
      (await api.request(ProvincesQuery)).nlProvinces.map((province) => ({
        value: province.code,
        label: province.name,
      })),
    capcodes: async (search: string) =>
      ((await api.request(CapcodeSearchQuery, { search })).p2000Capcodes ?? []).map((capcode) => ({
        value: capcode.name,
        label: [capcode.name, capcode.description, capcode.location].filter(Boolean).join(" · "),
      })),
  };
}

/** Urgency codes by rank, most urgent first, each once (A1 and P1 share a rank), exercises left out. */
export function urgencyChoices(
  urgencies: Array<{ code: string; name: string; rank: number; level: string }>,
): Choice[] {
  const seen = new Set<string>();
  return [...urgencies]
    .filter((urgency) => urgency.level !== "exercise")
    .sort((a, b) => a.rank - b.rank || a.code.localeCompare(b.code))
    .filter((urgency) => !seen.has(urgency.code) && seen.add(urgency.code))
    .map((urgency) => ({ value: urgency.code, label: `${urgency.code} ${urgency.name}` }));
}

export function criteriaFor(type: string, api: Api): Criteria {
  const lists = references(api);
  const byType: Record<string, Record<string, Criterion>> = {
    p2000: {
      regions: pick(type, "regions", lists.regions),
      disciplines: pick(type, "disciplines", lists.disciplines),
      urgencies: pick(type, "urgencies", lists.urgencies),
      capcodes: picked(
        pickList({
          id: "monitor-capcodes",
          label: t("monitors.query.p2000.capcodes"),
          hint: t("monitors.capcodesHint"),
          apiNames: ["query.capcodes"],
          search: lists.capcodes,
        }),
      ),
      keywords: words(type, "keywords"),
      excludeKeywords: words(type, "excludeKeywords"),
      includeExercises: checkbox(type, "includeExercises"),
    },
    accident: {
      types: fixed(type, "types", ["accident", "breakdown", "unattended"]),
      roads: pick(type, "roads", lists.highways),
    },
    aircraft: {
      kinds: fixed(type, "kinds", ["trauma", "police"]),
      registrations: words(type, "registrations"),
    },
    meteo_weather: {
      regions: pick(type, "regions", lists.meteoRegions),
      levels: pick(type, "levels", lists.meteoLevels),
    },
    rail_disruptions: { routes: pick(type, "routes", lists.railRoutes) },
    matrix: {
      roads: pick(type, "roads", lists.highways),
      minDelayMinutes: integer(type, "minDelayMinutes"),
    },
    rss: { feeds: words(type, "feeds"), keywords: words(type, "keywords") },
    nl_alert: { regions: pick(type, "regions", lists.regions) },
    amber_alert: {
      provinces: pick(type, "provinces", lists.provinces),
      kinds: fixed(type, "kinds", ["amber", "missing_child"]),
    },
  };
  const criteria = byType[type] ?? {};
  if (type === "rss") {
    // Feeds are URLs, one per line; the only required query field of any type.
    criteria.feeds.field.control.setAttribute("required", "");
    const hint = criteria.feeds.field.element.querySelector(".field-hint");
    if (hint) hint.textContent = t("monitors.feedsHint");
  }
  return {
    fields: Object.values(criteria).map((criterion) => criterion.field),
    read() {
      const query: Query = {};
      for (const [key, criterion] of Object.entries(criteria)) {
        const value = criterion.read();
        if (value !== undefined) query[key] = value;
      }
      return query;
    },
    fill(query) {
      for (const [key, criterion] of Object.entries(criteria)) criterion.fill(query[key]);
    },
  };
}
