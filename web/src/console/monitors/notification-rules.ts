// A monitor's notification rules in words (docs/monitors.md, notificationRules): "not between 23:00
// and 07:00", "only when at least as urgent as A2", "at most 2 per incident", "at most 3 every 60
// minutes", "also tell me of related signals", "only of bursts: 3 within 30 minutes, per place",
// "alert again when fewer than 2 answer they are coming within 5 minutes". The P2000-only rules are
// offered for P2000 monitors.
// `read` builds the rules object the API takes; fields left empty are left out.
import { h } from "../../dom.ts";
import { formatNumber, t } from "../../i18n.ts";
import { countText } from "../console-texts.ts";
import type { FormField } from "../form.ts";
import type { Choice } from "./pick-list.ts";

export type Rules = Record<string, unknown>;

/** notificationRules.burst: told of bursts of matches rather than of each match. */
type BurstRule = { count?: number; minutes?: number; quietMinutes?: number; per?: string };

const burstOf = (rules: Rules): BurstRule | undefined => rules.burst as BurstRule | undefined;

/** notificationRules.reAlert: the channels alerted again when too few answered "going" in time. */
type ReAlertRule = { coming?: number; minutes?: number };

const reAlertOf = (rules: Rules): ReAlertRule | undefined => rules.reAlert as ReAlertRule | undefined;

export interface RulesFields {
  element: HTMLElement;
  fields: FormField[];
  read(): Rules;
  fill(rules: Rules): void;
}

function field(
  id: string,
  apiNames: string[],
  control: HTMLInputElement | HTMLSelectElement,
  ...line: Array<Node | string>
): FormField & { row: HTMLElement } {
  const error = h("p", { class: "field-error", id: `${id}-error`, hidden: true });
  const row = h("div", { class: "field rule" }, h("p", { class: "rule-line" }, ...line), error);
  control.setAttribute(
    "aria-describedby",
    [control.getAttribute("aria-describedby"), error.id].filter(Boolean).join(" "),
  );
  return {
    element: row,
    row,
    control,
    apiNames,
    setError(message) {
      error.textContent = message ?? "";
      error.hidden = !message;
      if (message) control.setAttribute("aria-invalid", "true");
      else control.removeAttribute("aria-invalid");
    },
  };
}

const number = (id: string, label: string) => {
  const input = h("input", {
    type: "number",
    id,
    min: "1",
    inputmode: "numeric",
    class: "rule-number",
    "aria-label": label,
  });
  return input;
};

/** The kinds of related signal a monitor can be told of (notificationRules.relatedSignals as a list). */
const RELATED_SIGNAL_KINDS = ["traffic_incident", "aircraft_landing", "aircraft_takeoff", "nl_alert"] as const;

export function notificationRules(type: string, urgencies: Promise<Choice[]>): RulesFields {
  const p2000 = type === "p2000";

  const quiet = h("input", { type: "checkbox", id: "rule-quiet" });
  const from = h("input", { type: "time", id: "rule-quiet-from", "aria-label": t("monitors.rules.quietFrom") });
  const to = h("input", { type: "time", id: "rule-quiet-to", "aria-label": t("monitors.rules.quietTo") });
  from.value = "23:00";
  to.value = "07:00";
  const quietField = field(
    "rule-quiet",
    ["quietHours"],
    from,
    h("label", { class: "checkbox" }, quiet, ` ${t("monitors.rules.quiet")}`),
    " ",
    from,
    ` ${t("monitors.rules.and")} `,
    to,
  );

  const urgency = h(
    "select",
    { id: "rule-urgency", "aria-label": t("monitors.rules.urgencyLabel") },
    h("option", { value: "" }, t("monitors.rules.anyUrgency")),
  );
  void urgencies.then((choices) => {
    const wanted = urgency.dataset.wanted ?? urgency.value;
    urgency.append(...choices.map((choice) => h("option", { value: choice.value }, choice.label)));
    urgency.value = wanted;
  });
  const urgencyField = field("rule-urgency", ["minUrgency"], urgency, `${t("monitors.rules.urgency")} `, urgency);

  const perIncident = number("rule-per-incident", t("monitors.rules.perIncidentLabel"));
  const perIncidentField = field(
    "rule-per-incident",
    ["maxPerDossier"],
    perIncident,
    `${t("monitors.rules.atMost")} `,
    perIncident,
    ` ${t("monitors.rules.perIncident")}`,
  );

  const count = number("rule-period-count", t("monitors.rules.periodCountLabel"));
  const minutes = number("rule-period-minutes", t("monitors.rules.periodMinutesLabel"));
  minutes.max = "10080";
  const periodField = field(
    "rule-period",
    ["maxPerPeriod"],
    count,
    `${t("monitors.rules.atMost")} `,
    count,
    ` ${t("monitors.rules.every")} `,
    minutes,
    ` ${t("monitors.rules.minutes")}`,
  );

  // Related signals, of every kind or of the kinds ticked (relatedSignals: true, or their list).
  const related = h("input", { type: "checkbox", id: "rule-related" });
  const relatedKinds = RELATED_SIGNAL_KINDS.map((kind) =>
    h("input", { type: "checkbox", id: `rule-related-${kind}`, value: kind, checked: true }),
  );
  const relatedField = field(
    "rule-related",
    ["relatedSignals"],
    related,
    h("label", { class: "checkbox" }, related, ` ${t("monitors.rules.related")}`),
    h(
      "span",
      { class: "rule-kinds", id: "rule-related-kinds" },
      ...relatedKinds.map((box) =>
        h("label", { class: "checkbox" }, box, ` ${t(`monitors.rules.relatedKind.${box.value}`)}`),
      ),
    ),
  );
  const escalations = h("input", { type: "checkbox", id: "rule-escalations" });
  const escalationsField = field(
    "rule-escalations",
    ["escalations"],
    escalations,
    h("label", { class: "checkbox" }, escalations, ` ${t("monitors.rules.escalations")}`),
  );

  // The language of the page in plain words its notifications carry (P2000Message.plainText).
  const plainLanguage = h(
    "select",
    { id: "rule-language" },
    ...(["nl", "en"] as const).map((code) => h("option", { value: code }, t(`monitors.rules.language.${code}`))),
  );
  const languageField = field(
    "rule-language",
    ["language"],
    plainLanguage,
    h("label", { for: "rule-language" }, t("monitors.rules.languageLabel")),
    " ",
    plainLanguage,
  );

  // A burst rule tells of bursts, not of single incidents: the rules about single incidents are
  // off while it is on (the API refuses them together).
  const burst = h("input", { type: "checkbox", id: "rule-burst" });
  const burstCount = number("rule-burst-count", t("monitors.rules.burstCountLabel"));
  burstCount.min = "2";
  burstCount.max = "1000";
  const burstMinutes = number("rule-burst-minutes", t("monitors.rules.burstMinutesLabel"));
  burstMinutes.max = "1440";
  const burstQuiet = number("rule-burst-quiet", t("monitors.rules.burstQuietLabel"));
  burstQuiet.max = "1440";
  const burstPer = h(
    "select",
    { id: "rule-burst-per", "aria-label": t("monitors.rules.burstPerLabel") },
    ...(["monitor", "area", "place"] as const).map((per) =>
      h("option", { value: per }, t(`monitors.rules.burstPer.${per}`)),
    ),
  );
  const burstField = field(
    "rule-burst",
    ["burst"],
    burstCount,
    h("label", { class: "checkbox" }, burst, ` ${t("monitors.rules.burst")}`),
    ` ${t("monitors.rules.atLeast")} `,
    burstCount,
    ` ${t("monitors.rules.within")} `,
    burstMinutes,
    ` ${t("monitors.rules.burstMinutes")} `,
    burstPer,
    `; ${t("monitors.rules.burstQuiet")} `,
    burstQuiet,
    ` ${t("monitors.rules.burstQuietMinutes")}`,
  );
  // Alerted again when fewer than N answered "going" (the respond link) within M minutes.
  const reAlert = h("input", { type: "checkbox", id: "rule-realert" });
  const reAlertComing = number("rule-realert-coming", t("monitors.rules.reAlertComingLabel"));
  reAlertComing.max = "99";
  const reAlertMinutes = number("rule-realert-minutes", t("monitors.rules.reAlertMinutesLabel"));
  reAlertMinutes.max = "60";
  const reAlertField = field(
    "rule-realert",
    ["reAlert"],
    reAlertComing,
    h("label", { class: "checkbox" }, reAlert, ` ${t("monitors.rules.reAlert")}`),
    " ",
    reAlertComing,
    ` ${t("monitors.rules.reAlertComing")} `,
    reAlertMinutes,
    ` ${t("monitors.rules.reAlertMinutes")}`,
  );

  // What can be set follows what is ticked: the related kinds with their rule, the single-incident
  // rules without a burst rule.
  const singleIncidentRules = [perIncident, related, escalations, reAlert, reAlertComing, reAlertMinutes];
  const sync = () => {
    for (const control of singleIncidentRules) control.disabled = burst.checked;
    for (const box of relatedKinds) box.disabled = burst.checked || !related.checked;
  };
  related.addEventListener("change", sync);
  burst.addEventListener("change", sync);
  /** A saved burst rule shown, or none: then its numbers are a new rule's, "at least 3 within 30 minutes". */
  const showBurst = (rule: BurstRule | undefined) => {
    burst.checked = Boolean(rule);
    burstCount.value = rule?.count ? String(rule.count) : "3";
    burstMinutes.value = rule?.minutes ? String(rule.minutes) : "30";
    burstQuiet.value = rule?.quietMinutes ? String(rule.quietMinutes) : "";
    burstPer.value = rule?.per ?? "monitor";
    sync();
  };
  showBurst(undefined);
  /** A saved reAlert rule shown, or none: then its numbers are a new rule's, "fewer than 2 within 5 minutes". */
  const showReAlert = (rule: ReAlertRule | undefined) => {
    reAlert.checked = Boolean(rule);
    reAlertComing.value = String(rule?.coming ?? 2);
    reAlertMinutes.value = String(rule?.minutes ?? 5);
  };
  showReAlert(undefined);

  const fields: FormField[] = p2000
    ? [
        quietField,
        urgencyField,
        perIncidentField,
        periodField,
        relatedField,
        escalationsField,
        reAlertField,
        burstField,
        languageField,
      ]
    : [quietField, periodField];
  const element = h(
    "fieldset",
    { class: "field rules" },
    h("legend", {}, t("monitors.rules.legend")),
    h("p", { class: "field-hint" }, t("monitors.rules.hint")),
    ...fields.map((one) => one.element),
  );

  return {
    element,
    fields,
    read() {
      const rules: Rules = {};
      if (quiet.checked) rules.quietHours = { from: from.value, to: to.value };
      if (p2000 && urgency.value) rules.minUrgency = urgency.value;
      if (p2000 && perIncident.value && !burst.checked) rules.maxPerDossier = Number(perIncident.value);
      if (count.value || minutes.value)
        rules.maxPerPeriod = { count: Number(count.value), minutes: Number(minutes.value) };
      if (p2000 && related.checked && !burst.checked) {
        const kinds = relatedKinds.filter((box) => box.checked).map((box) => box.value);
        rules.relatedSignals = kinds.length === relatedKinds.length ? true : kinds;
      }
      if (p2000 && escalations.checked && !burst.checked) rules.escalations = true;
      if (p2000 && reAlert.checked && !burst.checked)
        rules.reAlert = { coming: Number(reAlertComing.value), minutes: Number(reAlertMinutes.value) };
      if (p2000 && burst.checked)
        rules.burst = {
          count: Number(burstCount.value),
          minutes: Number(burstMinutes.value),
          ...(burstQuiet.value ? { quietMinutes: Number(burstQuiet.value) } : {}),
          per: burstPer.value,
        };
      // Dutch is the service's default: only English is said.
      if (p2000 && plainLanguage.value === "en") rules.language = "en";
      return rules;
    },
    fill(rules) {
      const quietHours = rules.quietHours as { from?: string; to?: string } | undefined;
      quiet.checked = Boolean(quietHours);
      if (quietHours?.from) from.value = quietHours.from;
      if (quietHours?.to) to.value = quietHours.to;
      urgency.dataset.wanted = typeof rules.minUrgency === "string" ? rules.minUrgency : "";
      urgency.value = urgency.dataset.wanted;
      perIncident.value = rules.maxPerDossier ? String(rules.maxPerDossier) : "";
      const period = rules.maxPerPeriod as { count?: number; minutes?: number } | undefined;
      count.value = period?.count ? String(period.count) : "";
      minutes.value = period?.minutes ? String(period.minutes) : "";
      const relatedRule = rules.relatedSignals;
      related.checked = relatedRule === true || Array.isArray(relatedRule);
      for (const box of relatedKinds) box.checked = !Array.isArray(relatedRule) || relatedRule.includes(box.value);
      escalations.checked = rules.escalations === true;
      plainLanguage.value = rules.language === "en" ? "en" : "nl";
      showReAlert(reAlertOf(rules));
      showBurst(burstOf(rules));
    },
  };
}

/** A saved monitor's rules as sentences (the monitor's page); none: every match is sent. */
export function describeRules(rules: Rules, urgencies: Choice[]): string[] {
  const said: string[] = [];
  const quiet = rules.quietHours as { from?: string; to?: string } | undefined;
  if (quiet?.from && quiet.to)
    said.push(t("monitors.page.rule.quiet").replace("{from}", quiet.from).replace("{to}", quiet.to));
  if (typeof rules.minUrgency === "string") {
    const code = rules.minUrgency;
    said.push(
      t("monitors.page.rule.urgency").replace(
        "{urgency}",
        urgencies.find((choice) => choice.value === code)?.label ?? code,
      ),
    );
  }
  if (typeof rules.maxPerDossier === "number")
    said.push(countText("monitors.page.rule.perIncident", rules.maxPerDossier));
  const period = rules.maxPerPeriod as { count?: number; minutes?: number } | undefined;
  if (period?.count && period.minutes)
    said.push(
      t("monitors.page.rule.period")
        .replace("{count}", formatNumber(period.count))
        .replace("{minutes}", formatNumber(period.minutes)),
    );
  if (rules.relatedSignals === true) said.push(t("monitors.page.rule.related"));
  else if (Array.isArray(rules.relatedSignals))
    said.push(
      t("monitors.page.rule.relatedKinds").replace(
        "{kinds}",
        rules.relatedSignals.map((kind) => t(`monitors.rules.relatedKind.${String(kind)}`)).join(", "),
      ),
    );
  if (rules.escalations === true) said.push(t("monitors.page.rule.escalations"));
  const reAlertRule = reAlertOf(rules);
  if (reAlertRule?.coming && reAlertRule.minutes)
    said.push(
      t("monitors.page.rule.reAlert")
        .replace("{coming}", formatNumber(reAlertRule.coming))
        .replace("{minutes}", formatNumber(reAlertRule.minutes)),
    );
  const burst = burstOf(rules);
  if (burst?.count && burst.minutes)
    said.push(
      t(`monitors.page.rule.burst.${burst.per === "area" || burst.per === "place" ? burst.per : "monitor"}`)
        .replace("{count}", formatNumber(burst.count))
        .replace("{minutes}", formatNumber(burst.minutes))
        .replace("{quiet}", formatNumber(burst.quietMinutes ?? burst.minutes)),
    );
  if (rules.language === "en") said.push(t("monitors.page.rule.english"));
  return said.length ? said : [t("monitors.page.rule.none")];
}
