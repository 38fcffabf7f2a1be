// Each monitor type's criteria as form controls (docs/monitors.md, "query fields"): lists picked
// from the API's reference lists, words typed comma-separated or one per line, a switch, a number.
// The lists are public data, asked with the page's API credential (context.api). `read` builds the type's query object (fields left empty are left out), `fill` puts a saved
// monitor's query back. Each control names its query field ("query.regions") so that the API's
// message about it is shown under it.
import type { Api } from "../../api/client.ts";
import { h } from "../../dom.ts";
import { t } from "../../i18n.ts";
import { kindChoices } from "../../incident-kinds.ts";
import { selectField, textField, type FormField } from "../form.ts";
import type { BaseSource } from "../../map/base-map.ts";
import { AREAS_LABEL, areasCriterion } from "./area-picker.ts";
import { areaLabel, areasOf } from "./areas.ts";
import type { Criterion } from "./criterion.ts";
import {
  CapcodeSearchQuery,
  HighwaysQuery,
  MeteoReferenceQuery,
  P2000ReferenceQuery,
  ProvincesQuery,
  ReceiverNamesQuery,
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
  /** Takes down what the fields hold besides the page (the areas' map). */
  remove(): void;
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
  // Both "only these kinds" and "never these kinds" list them: asked once.
  let kinds: ReturnType<typeof kindChoices> | undefined;
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
        label: disciplineName(discipline.slug, discipline.name),
      })),
    urgencyList: async () => (await once()).p2000Urgencies ?? [],
    kinds: () => (kinds ??= kindChoices(api)),
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
    receivers: async () =>
      (await api.request(ReceiverNamesQuery)).p2000Receivers.map((receiver) => ({
        value: receiver.name,
        label: receiver.name,
      })),
    capcodes: async (search: string) =>
      ((await api.request(CapcodeSearchQuery, { search })).p2000Capcodes ?? []).map((capcode) => ({
        value: capcode.name,
        label: [capcode.name, capcode.description, capcode.location].filter(Boolean).join(" · "),
      })),
  };
}

export type Urgency = { code: string; name: string; rank: number; level: string };

/** A service in the reader's language, by its slug (as the map says it); the API's name for one it does not know. */
export function disciplineName(slug: string, name: string): string {
  const key = `monitors.discipline.${slug}`;
  return t(key) === key ? name : t(key);
}

/** An urgency code's name in the reader's language ("A1 Urgent"); the API's (Dutch) name for one it does not know. */
export function urgencyName(code: string, name: string): string {
  const key = `monitors.urgency.${code}`;
  return `${code} ${t(key) === key ? name : t(key)}`;
}

/** Urgency codes by rank, most urgent first, each once (A1 and P1 share a rank), exercises left out. */
export function urgencyChoices(urgencies: Urgency[]): Choice[] {
  const seen = new Set<string>();
  return [...urgencies]
    .filter((urgency) => urgency.level !== "exercise")
    .sort((a, b) => a.rank - b.rank || a.code.localeCompare(b.code))
    .filter((urgency) => !seen.has(urgency.code) && seen.add(urgency.code))
    .map((urgency) => ({ value: urgency.code, label: urgencyName(urgency.code, urgency.name) }));
}

/**
 * The urgency levels "at least" offers, most urgent first: for each rank (A0; A1 and P1; A2 and P2;
 * B1, B2 and P3), the codes of that rank and every more urgent one, which the query then lists.
 */
export function urgencyLevels(urgencies: Urgency[]): Array<{ rank: number; codes: string[] }> {
  const codes = urgencyChoices(urgencies).map((choice) => choice.value);
  const rankOf = new Map(urgencies.map((urgency) => [urgency.code, urgency.rank]));
  const ranks = [...new Set(codes.map((code) => rankOf.get(code)!))].sort((a, b) => a - b);
  return ranks.map((rank) => ({ rank, codes: codes.filter((code) => rankOf.get(code)! <= rank) }));
}

/** The words for "this urgency or more urgent", with the codes it takes. */
export function urgencyLevelText(level: { rank: number; codes: string[] }): string {
  const key = `monitors.atLeast.${level.rank}`;
  return (t(key) === key ? t("monitors.atLeast.other") : t(key)).replace("{codes}", level.codes.join(", "));
}

/**
 * Urgency as "at least": one choice, which stands for that level and every more urgent one
 * (choosing A1's level means A0 and A1, and P1 of the same rank); the query gets the list of codes
 * it implies. A saved list is shown as the least urgent level it reaches.
 */
function atLeastUrgency(load: () => Promise<Urgency[]>): Criterion {
  const field = selectField({
    id: "monitor-urgencies",
    label: t("monitors.query.p2000.urgencyAtLeast"),
    hint: t("monitors.urgencyAtLeastHint"),
    apiNames: ["query.urgencies"],
    choices: [{ value: "", text: t("monitors.rules.anyUrgency") }],
  });
  const select = field.control;
  let levels: Array<{ rank: number; codes: string[] }> = [];
  let wanted: string[] = [];
  const show = () => {
    // The most urgent level that holds every code saved (an older monitor may list A1 without A0).
    const reached = levels.find((level) => wanted.every((code) => level.codes.includes(code))) ?? levels.at(-1);
    select.value = wanted.length && reached ? String(reached.rank) : "";
  };
  void load()
    .then((urgencies) => {
      levels = urgencyLevels(urgencies);
      select.append(...levels.map((level) => h("option", { value: String(level.rank) }, urgencyLevelText(level))));
      show();
    })
    .catch(() => undefined);
  return {
    field,
    // Before the list has come, what was saved stays as it was.
    read: () =>
      levels.length
        ? levels.find((level) => String(level.rank) === select.value)?.codes
        : wanted.length
          ? wanted
          : undefined,
    fill: (value) => {
      wanted = strings(value);
      show();
    },
  };
}

/** A type's criteria; `mapSource` is the base map under the areas' map (every type with a position). */
export function criteriaFor(type: string, api: Api, mapSource: BaseSource): Criteria {
  const lists = references(api);
  // Only the type shown is made: its lists are asked for, and the areas (of every type with a
  // position: PLACE_TYPES) make a map.
  const byType: Record<string, () => Record<string, Criterion>> = {
    p2000: () => ({
      regions: pick(type, "regions", lists.regions),
      disciplines: pick(type, "disciplines", lists.disciplines),
      categories: pick(type, "categories", lists.kinds),
      excludeCategories: pick(type, "excludeCategories", lists.kinds),
      urgencies: atLeastUrgency(lists.urgencyList),
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
    }),
    accident: () => ({
      types: fixed(type, "types", ["accident", "breakdown", "unattended"]),
      roads: pick(type, "roads", lists.highways),
    }),
    aircraft: () => ({
      kinds: fixed(type, "kinds", ["trauma", "police"]),
      registrations: words(type, "registrations"),
    }),
    meteo_weather: () => ({
      regions: pick(type, "regions", lists.meteoRegions),
      levels: pick(type, "levels", lists.meteoLevels),
    }),
    rail_disruptions: () => ({ routes: pick(type, "routes", lists.railRoutes) }),
    matrix: () => ({
      roads: pick(type, "roads", lists.highways),
      minDelayMinutes: integer(type, "minDelayMinutes"),
    }),
    rss: () => ({ feeds: words(type, "feeds"), keywords: words(type, "keywords") }),
    nl_alert: () => ({ regions: pick(type, "regions", lists.regions) }),
    amber_alert: () => ({
      provinces: pick(type, "provinces", lists.provinces),
      kinds: fixed(type, "kinds", ["amber", "missing_child"]),
    }),
    receiver_silence: () => ({
      receivers: pick(type, "receivers", lists.receivers),
      minutes: integer(type, "minutes"),
    }),
  };
  // The areas come first, for every type with a place (the form shows them in this order).
  const criteria: Record<string, Criterion> = {
    ...(PLACE_TYPES.has(type) ? { areas: areasCriterion(api, mapSource) } : {}),
    ...byType[type]?.(),
  };
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
    remove() {
      for (const criterion of Object.values(criteria)) criterion.remove?.();
    },
  };
}

/** One criterion of a saved monitor in words: its name and what it holds. */
export interface Described {
  key: string;
  term: string;
  values: string[];
}

/**
 * A saved monitor's query in words, field by field in the form's order (the monitor's page): the
 * reference lists' names for what it holds (safety regions, services, provinces, routes), the
 * urgency as the "at least" level it stands for, and the words typed as they are.
 */
export async function describeQuery(type: string, query: Query, api: Api): Promise<Described[]> {
  const lists = references(api);
  const named = async (load: () => Promise<Choice[]>, values: string[]) => {
    const choices = await load().catch((): Choice[] => []);
    return values.map((value) => choices.find((choice) => choice.value === value)?.label ?? value);
  };
  const regionNames = async (values: string[]) => {
    const regions = (await api.request(P2000ReferenceQuery).catch(() => null))?.p2000Regions ?? [];
    return values.map((value) => {
      const region = regions.find((one) => one.slug === value || String(one.number) === value);
      return region ? `${region.number} ${region.name}` : value;
    });
  };
  const fixedNames = async (values: string[]) => values.map((value) => t(`monitors.value.${value}`));
  const areaNames = async () => areasOf(query.areas).map((area) => areaLabel(area));
  type Words = Record<string, (values: string[]) => Promise<string[]>>;
  const describe: Record<string, Words> = {
    p2000: {
      regions: regionNames,
      disciplines: async (values) => {
        const all = (await api.request(P2000ReferenceQuery).catch(() => null))?.p2000Disciplines ?? [];
        return values.map((value) => {
          const found = all.find((one) => one.slug === value || one.name.toLowerCase() === value.toLowerCase());
          return found ? disciplineName(found.slug, found.name) : value;
        });
      },
      categories: (values) => named(lists.kinds, values),
      excludeCategories: (values) => named(lists.kinds, values),
      urgencies: async (values) => {
        const urgencies = await lists.urgencyList().catch((): Urgency[] => []);
        const level = urgencyLevels(urgencies).find(
          (one) => one.codes.length === values.length && one.codes.every((code) => values.includes(code)),
        );
        if (level) return [urgencyLevelText(level)];
        return values.map((code) => urgencyName(code, urgencies.find((one) => one.code === code)?.name ?? ""));
      },
      capcodes: async (values) => values,
      keywords: async (values) => values,
      excludeKeywords: async (values) => values,
      includeExercises: async () => [t("monitors.page.yes")],
    },
    accident: { types: fixedNames, roads: async (values) => values },
    aircraft: { kinds: fixedNames, registrations: async (values) => values },
    meteo_weather: {
      regions: (values) => named(lists.meteoRegions, values),
      levels: fixedNames,
    },
    rail_disruptions: { routes: (values) => named(lists.railRoutes, values) },
    matrix: {
      roads: async (values) => values,
      minDelayMinutes: async ([minutes]) => [t("monitors.page.minutes").replace("{count}", minutes)],
    },
    rss: { feeds: async (values) => values, keywords: async (values) => values },
    nl_alert: { regions: regionNames },
    amber_alert: { provinces: (values) => named(lists.provinces, values), kinds: fixedNames },
    receiver_silence: {
      receivers: async (values) => values,
      minutes: async ([minutes]) => [t("monitors.page.minutes").replace("{count}", minutes)],
    },
  };
  const fields: Words = { ...(PLACE_TYPES.has(type) ? { areas: areaNames } : {}), ...describe[type] };
  const described: Described[] = [];
  for (const [key, words] of Object.entries(fields)) {
    const value = query[key];
    if (value === undefined || value === null || value === false) continue;
    const values = Array.isArray(value) ? value.map(String) : [String(value)];
    if (!values.length) continue;
    const term =
      key === "areas"
        ? t(AREAS_LABEL)
        : type === "p2000" && key === "urgencies"
          ? t("monitors.query.p2000.urgencyAtLeast")
          : t(`monitors.query.${type}.${key}`);
    described.push({ key, term, values: await words(values) });
  }
  return described;
}
