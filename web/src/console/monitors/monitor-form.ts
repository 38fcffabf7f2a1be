// The form for a new monitor and for changing one: its type (monitorTypes, P2000 first), name, the
// circle on the map for the types whose items have a place, the type's criteria picked from the
// reference lists, its channels and its notification rules in words. It builds the JSON strings the
// API takes (query, channels, notificationRules); nothing is typed as JSON. "Preview" asks
// monitorPreview with the same input and shows the past 30 days' matches on the map and per day;
// "Save" creates or updates the monitor; when it has channels, it first asks the same preview and,
// when that comes to more than NOISY_PER_DAY notifications a day, asks whether to save it anyway.
// Either way the API's BAD_USER_INPUT message is shown beside the field it names, and nothing typed
// is lost. A new monitor starts with one notification per incident (maxPerDossier 1), which the
// person may raise or empty.
import { h } from "../../dom.ts";
import { formatNumber, language, t, withLanguage } from "../../i18n.ts";
import type { ConsoleContext } from "../console-context.ts";
import { confirmDialog } from "../confirm.ts";
import { checkboxesField, consoleForm, selectField, textField, type FormField } from "../form.ts";
import { locationSearch } from "./address-search.ts";
import { circleMap, type CircleMap, type Place } from "./circle-map.ts";
import { criteriaFor, PLACE_TYPES, urgencyChoices, type Criteria, type Query } from "./criteria-fields.ts";
import {
  type Preview,
  CreateMonitorMutation,
  P2000ReferenceQuery,
  PreviewQuery,
  UpdateMonitorMutation,
  type Channel,
  type Monitor,
  type MonitorType,
} from "./monitor-queries.ts";
import { noisyWarning, perDay, previewPanel, previewSummary, type PreviewPanel } from "./monitor-preview.ts";
import { notificationRules, type Rules } from "./notification-rules.ts";

/** What the form holds across a change of type (which redraws the type's own fields). */
interface Draft {
  type: string;
  name: string;
  channels: string[];
  place: Place | null;
  radius: number | null;
  query: Query;
  rules: Rules;
}

function parsed<T>(json: string | null | undefined, fallback: T): T {
  try {
    return (json ? JSON.parse(json) : fallback) as T;
  } catch {
    return fallback;
  }
}

/** P2000 first (what most people come for), then the others as the API lists them. */
export function orderedTypes(types: MonitorType[]): MonitorType[] {
  return [...types].sort((a, b) => Number(b.value === "p2000") - Number(a.value === "p2000"));
}

/** A new monitor's rules: one notification per incident (what most people want of a pager monitor). */
export const NEW_MONITOR_RULES: Rules = { maxPerDossier: 1 };
const P2000_RULES = ["minUrgency", "maxPerDossier", "relatedSignals", "escalations", "language", "reAlert"];

export function typeLabel(types: MonitorType[], value: string): string {
  const text = t(`monitors.type.${value}`);
  return text === `monitors.type.${value}` ? (types.find((type) => type.value === value)?.label ?? value) : text;
}

/** The channels to send to, a checkbox each (`chosen` ticked); a link to make one when there are none. */
export function channelsField(channels: Channel[], chosen: string[]): FormField & { values(): string[] } {
  const link = h("a", { href: withLanguage("/console/channels") }, t("monitors.channels.make"));
  return checkboxesField({
    id: "monitor-channels",
    className: "monitor-channels",
    legend: t("monitors.channels.legend"),
    hint: channels.length ? [t("monitors.channels.hint")] : [t("monitors.channels.none"), " ", link],
    choices: channels.map((channel) => ({ value: channel.uuid, text: `${channel.name} (${channel.type})` })),
    chosen,
    apiNames: ["channels"],
  });
}

export function monitorForm(
  root: HTMLElement,
  context: ConsoleContext,
  options: { monitor: Monitor | null; channels: Channel[]; types: MonitorType[] },
): () => void {
  const { session, config } = context;
  const { monitor, channels } = options;
  const types = orderedTypes(options.types);
  let map: CircleMap | null = null;
  /** The type's criteria, whose areas have a map of their own to take down with the form's. */
  let criteriaShown: Criteria | null = null;
  // Minimum urgencies come from the P2000 reference (asked once, whatever the type changes to).
  const urgencies = context.api
    .request(P2000ReferenceQuery)
    .then((data) => urgencyChoices(data.p2000Urgencies ?? []))
    .catch(() => []);

  // Where the circle goes, as the person types it: public data, read with the page's credential.
  const searchLocations = locationSearch(context.api);

  function draw(draft: Draft): void {
    map?.remove();
    criteriaShown?.remove();
    map = PLACE_TYPES.has(draft.type) ? circleMap(config, searchLocations) : null;
    map?.set(draft.place, draft.radius);

    const type = selectField({
      id: "monitor-type",
      label: t("monitors.form.type"),
      value: draft.type,
      apiNames: ["type"],
      choices: types.map((one) => ({ value: one.value ?? "", text: typeLabel(types, one.value ?? "") })),
    });
    // The API describes each type in English; Dutch readers have the type's own name.
    const description = language === "en" ? types.find((one) => one.value === draft.type)?.label : null;
    if (description) {
      const hint = h("p", { class: "field-hint", id: "monitor-type-hint" }, description);
      type.element.append(hint);
      type.control.setAttribute(
        "aria-describedby",
        `monitor-type-hint ${type.control.getAttribute("aria-describedby")}`,
      );
    }
    const name = textField({
      id: "monitor-name",
      label: t("console.name"),
      required: true,
      value: draft.name,
      apiNames: ["name"],
    });
    const criteria = criteriaFor(draft.type, context.api, config);
    criteriaShown = criteria;
    criteria.fill(draft.query);
    const chosen = channelsField(channels, draft.channels);
    const rules = notificationRules(draft.type, urgencies);
    rules.fill(draft.rules);
    const preview = previewPanel();

    const current = (): Draft => ({
      type: type.control.value,
      name: name.control.value,
      channels: chosen.values(),
      place: map?.place() ?? null,
      radius: map ? map.radius() : draft.radius,
      query: criteria.read(),
      rules: rules.read(),
    });
    type.control.addEventListener("change", () => {
      const now = current();
      // The criteria belong to the old type; the rest carries over, and the P2000 rules a type
      // without them did not show (one notification per incident) stay for a way back.
      const unshown = Object.fromEntries(
        Object.entries(draft.rules).filter(([rule]) => draft.type !== "p2000" && P2000_RULES.includes(rule)),
      );
      draw({ ...now, query: {}, rules: { ...unshown, ...now.rules } });
      document.getElementById("monitor-type")?.focus();
    });

    const input = () => {
      const now = current();
      const place = PLACE_TYPES.has(now.type) ? now.place : null;
      return {
        name: now.name,
        type: now.type,
        query: JSON.stringify(now.query),
        channels: JSON.stringify(now.channels),
        notificationRules: JSON.stringify(now.rules),
        location: place ? { latitude: place.latitude, longitude: place.longitude } : null,
        radius: place ? now.radius : null,
      };
    };

    // Preview and Save share the form (its checks and its error display); the button pressed says which.
    let previewing = false;
    /** The last preview, and the input it was asked for (Save asks again only when that changed). */
    let previewed: { input: string; preview: Preview } | null = null;
    const askPreview = async (): Promise<Preview | null> => {
      const asked = input();
      const key = JSON.stringify(asked);
      if (previewed?.input === key) return previewed.preview;
      const { monitorPreview } = await session.api.request(PreviewQuery, { input: asked, language });
      if (monitorPreview) previewed = { input: key, preview: monitorPreview };
      return monitorPreview ?? null;
    };
    const previewButton = h(
      "button",
      { type: "button", class: "monitor-preview-button" },
      t("monitors.preview.button"),
    );
    const form = consoleForm({
      id: "monitor-form",
      className: "console-form monitor-form",
      fields: [type, name, ...(map ? [map.field] : []), ...criteria.fields, chosen, ...rules.fields],
      extra: [previewButton, preview.element],
      submitLabel: t("console.save"),
      submit: async () => {
        if (previewing) {
          previewing = false;
          previewButton.setAttribute("aria-busy", "true");
          try {
            const monitorPreview = await askPreview();
            if (!monitorPreview) return;
            showPreview(preview, monitorPreview);
            return previewSummary(monitorPreview);
          } finally {
            previewButton.removeAttribute("aria-busy");
          }
        }
        // Before a monitor with channels is saved: how many notifications a day it would send,
        // and a question when that is many (a catch-all monitor sends hundreds).
        if (chosen.values().length) {
          const expected = await askPreview();
          if (expected) showPreview(preview, expected);
          if (expected && noisyWarning(expected)) {
            const question = t("monitors.save.question")
              .replace("{perDay}", formatNumber(Math.round(perDay(expected))))
              .replace("{notifications}", formatNumber(expected.notifications))
              .replace("{days}", formatNumber(expected.byDay.length));
            if (!(await confirmDialog(question, t("monitors.save.anyway")))) return t("monitors.save.kept");
          }
        }
        const saved = monitor
          ? (await session.api.request(UpdateMonitorMutation, { input: { ...input(), uuid: monitor.uuid } }))
              .updateMonitor
          : (await session.api.request(CreateMonitorMutation, { input: input() })).createMonitor;
        if (saved) context.go(`/console/monitors/${saved.uuid}`);
      },
    });
    function showPreview(panel: PreviewPanel, shown: Preview): void {
      panel.show(shown);
      map?.showPoints(
        shown.items.flatMap((item) =>
          item.latitude !== null && item.longitude !== null
            ? [{ latitude: item.latitude, longitude: item.longitude, title: item.title }]
            : [],
        ),
      );
    }

    // The rules' fields were laid out by the form one after another; they go back into their group.
    const firstRule = rules.fields[0]?.element;
    firstRule?.before(rules.element);
    for (const field of rules.fields) rules.element.append(field.element);
    previewButton.addEventListener("click", () => {
      previewing = true;
      form.element.requestSubmit();
    });

    const cancel = h(
      "a",
      {
        href: withLanguage(monitor ? `/console/monitors/${monitor.uuid}` : "/console/monitors"),
        class: "monitor-cancel",
      },
      t("console.cancel"),
    );
    cancel.addEventListener("click", (event) => {
      event.preventDefault();
      context.go(monitor ? `/console/monitors/${monitor.uuid}` : "/console/monitors");
    });
    root.replaceChildren(
      h("h1", {}, monitor ? t("monitors.form.editHeading").replace("{name}", monitor.name) : t("monitors.new")),
      h("p", {}, t("monitors.form.why")),
      form.element,
      h("p", {}, cancel),
    );
  }

  const query = parsed<Query>(monitor?.query, {});
  draw({
    type: monitor?.type ?? "p2000",
    name: monitor?.name ?? "",
    channels: parsed<string[]>(monitor?.channels, []),
    place:
      monitor?.location?.latitude != null && monitor.location.longitude != null
        ? { latitude: monitor.location.latitude, longitude: monitor.location.longitude }
        : null,
    radius: monitor?.radius ?? null,
    query,
    rules: monitor ? parsed<Rules>(monitor.notificationRules, {}) : NEW_MONITOR_RULES,
  });
  return () => {
    map?.remove();
    criteriaShown?.remove();
  };
}
