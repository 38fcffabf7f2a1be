// Making a channel: a type picker, then only the fields that type needs (channel-kinds.ts) and a
// name. A webhook's signing secret, which the API gives only in this answer, is shown once with a
// copy button. The API's refusals land beside the field they name; what was typed stays.
//
// The picker offers what this installation can deliver (the public `installation` query): a type
// it cannot deliver (e-mail without SMTP_URL, SMS, Telegram, Pushover without their settings) is
// listed apart, disabled, with the setting its operator gives, and a note says so. It starts on
// what a person most likely wants: this browser (Web Push) where the browser can take pushes, the
// person has not blocked this site's notifications and the server has its keys, else ntfy (a free phone app, no account), else the first type it can
// deliver. "This browser" is made by the browser itself (web-push.ts), not typed in.
import type { UserSession } from "../../account/session.ts";
import { h, replaceChildren } from "../../dom.ts";
import { addTexts, t } from "../../i18n.ts";
import { consoleForm, selectField, textField, type FormField } from "../form.ts";
import type { Installation } from "../../api/installation.ts";
import { secretBox } from "../secret-box.ts";
import { CreateChannelMutation } from "./channel-api.ts";
import { kindFields, typeLabel, type KindField } from "./channel-kinds.ts";
import { pushSupported, webPushForm } from "./web-push.ts";

addTexts({
  "channels.new": { nl: "Nieuw kanaal", en: "New channel" },
  "channels.type": { nl: "Soort kanaal", en: "Kind of channel" },
  "channels.typeHint": {
    nl: "Waar de meldingen van je monitors heen gaan.",
    en: "Where your monitors' notifications go.",
  },
  "channels.unavailableGroup": {
    nl: "Niet ingesteld op deze installatie",
    en: "Not set up on this installation",
  },
  "channels.needs": { nl: "{type} \u2014 vraagt {setting}", en: "{type} \u2014 needs {setting}" },
  "channels.and": { nl: "en", en: "and" },
  "channels.unavailable": {
    nl: "Niet ingesteld op deze installatie: {list}. Wie de dienst beheert, zet elk aan door de genoemde instelling te geven en de dienst opnieuw te starten (de README noemt de instellingen).",
    en: "Not set up on this installation: {list}. Whoever runs the service enables each by giving the setting named and restarting it (the README lists the settings).",
  },
  "channels.unavailableItem": { nl: "{type} (vraagt {setting})", en: "{type} (needs {setting})" },
  "channels.notDeliverable": {
    nl: "Deze installatie kan dit soort kanaal niet afleveren: de beheerder heeft {setting} niet ingesteld.",
    en: "This installation cannot deliver this kind of channel: its operator has not set {setting}.",
  },
  "channels.nameHint": {
    nl: "Zodat je het kanaal herkent, bijvoorbeeld \u201cMeldkamerscherm\u201d.",
    en: "So you recognise the channel, for example \u201cDispatch board\u201d.",
  },
  "channels.create": { nl: "Kanaal maken", en: "Make the channel" },
  "channels.created": { nl: "Kanaal \u201c{name}\u201d gemaakt.", en: "Channel \u201c{name}\u201d made." },
  "channels.signingSecret": {
    nl: "Ondertekeningsgeheim van de webhook (controleer er de handtekening van elke levering mee)",
    en: "The webhook's signing secret (verify each delivery's signature with it)",
  },
  "channels.headerLine": {
    nl: "Elke regel is Naam: waarde; deze niet: \u201c{line}\u201d.",
    en: "Each line is Name: value; this one is not: \u201c{line}\u201d.",
  },
});

/** The settings a type needs, by name (the API may add words in English around them). */
export function settingNames(needs: string): string {
  const names = needs.replace(/\s*\([^)]*\)/g, "").match(/\b[A-Z][A-Z0-9_]{2,}\b/g);
  return names?.length ? names.join(` ${t("channels.and")} `) : needs;
}

/** Which type the picker starts on: this browser where it can, else ntfy, else the first it delivers. */
export function defaultType(offered: string[], pushReady: boolean): string | undefined {
  if (pushReady && offered.includes("webpush")) return "webpush";
  if (offered.includes("ntfy")) return "ntfy";
  return offered.find((type) => type !== "webpush") ?? offered[0];
}

/** The Create section; `created` runs after a channel is made (the list reads them again). */
export function channelForm(
  session: UserSession,
  types: Array<{ value: string | null; label: string | null }>,
  created: () => Promise<void>,
  options: { installation: Installation; webPushPublicKey: string | null; notifications: PermissionState },
): HTMLElement {
  const { installation } = options;
  const values = types.flatMap((type) => (type.value ? [type.value] : []));
  // This browser first (what most people want), then the others in the API's order.
  const ordered = [...values].sort((a, b) => Number(b === "webpush") - Number(a === "webpush"));
  const offered = ordered.filter((type) => installation.needs(type) === null);
  const unavailable = ordered.filter((type) => installation.needs(type) !== null);
  const label = (type: string) => typeLabel(type, types.find((one) => one.value === type)?.label);
  // This browser where it can take pushes and the person has not blocked them here.
  const pushReady = pushSupported() && options.webPushPublicKey !== null && options.notifications !== "denied";
  const picker = selectField({
    id: "channel-type",
    label: t("channels.type"),
    hint: t("channels.typeHint"),
    choices: offered.map((type) => ({ value: type, text: label(type) })),
    value: defaultType(offered, pushReady),
    apiNames: ["type"],
  });
  // What cannot be delivered here: listed apart, disabled, each with the setting that enables it.
  if (unavailable.length) {
    const setting = (type: string) => settingNames(installation.needs(type) ?? "");
    picker.control.append(
      h(
        "optgroup",
        { label: t("channels.unavailableGroup") },
        ...unavailable.map((type) =>
          h(
            "option",
            { value: type, disabled: true },
            t("channels.needs").replace("{type}", label(type)).replace("{setting}", setting(type)),
          ),
        ),
      ),
    );
    const unavailableNote = h(
      "p",
      { class: "notice warning", id: "channel-unavailable" },
      t("channels.unavailable").replace(
        "{list}",
        unavailable
          .map((type) =>
            t("channels.unavailableItem").replace("{type}", label(type)).replace("{setting}", setting(type)),
          )
          .join(", "),
      ),
    );
    picker.element.append(unavailableNote);
    picker.control.setAttribute(
      "aria-describedby",
      `${picker.control.getAttribute("aria-describedby")} ${unavailableNote.id}`,
    );
  }
  const name = textField({
    id: "channel-name",
    label: t("console.name"),
    hint: t("channels.nameHint"),
    required: true,
    apiNames: ["name"],
  });
  const formSlot = h("div", {});
  const secretSlot = h("div", {});

  function draw(): void {
    const type = picker.control.value;
    if (type === "webpush") {
      replaceChildren(formSlot, webPushForm(session, options.webPushPublicKey, options.notifications, created));
      return;
    }
    const needs = installation.needs(type);
    if (needs !== null) {
      replaceChildren(
        formSlot,
        h("p", { class: "notice warning" }, t("channels.notDeliverable").replace("{setting}", settingNames(needs))),
      );
      return;
    }
    const fields = kindFields(type).map((kind) => ({
      kind,
      field: textField({
        id: `channel-${kind.input}`,
        label: kind.label,
        hint: kind.hint,
        required: kind.required,
        type: kind.type,
        inputmode: kind.inputmode,
        autocomplete: kind.autocomplete,
        multiline: kind.multiline,
        apiNames: kind.apiNames,
      }),
    }));
    const form = consoleForm({
      id: "channel-form",
      // The name last: the first field a message names gets it, and "headers: each needs a valid
      // name" is about the headers. It is still shown first (below).
      fields: [...fields.map((entry) => entry.field), name],
      submitLabel: t("channels.create"),
      submit: async () => {
        replaceChildren(secretSlot);
        const input = inputOf(type, name.control.value, fields);
        if (!input) return;
        const { createChannel } = await session.api.request(CreateChannelMutation, { input });
        const made = createChannel?.channel?.name ?? name.control.value;
        for (const control of [name, ...fields.map((entry) => entry.field)]) control.control.value = "";
        if (createChannel?.signingSecret) {
          replaceChildren(
            secretSlot,
            secretBox("channel-secret", t("channels.signingSecret"), createChannel.signingSecret),
          );
        }
        await created();
        (secretSlot.querySelector("input") ?? name.control).focus();
        return t("channels.created").replace("{name}", made);
      },
    });
    form.element.prepend(name.element);
    replaceChildren(formSlot, form.element);
  }

  picker.control.addEventListener("change", () => {
    replaceChildren(secretSlot);
    draw();
  });
  draw();
  return h(
    "section",
    { class: "card", "aria-labelledby": "channel-new-heading" },
    h("h2", { id: "channel-new-heading" }, t("channels.new")),
    h("div", { class: "console-form channel-type" }, picker.element),
    formSlot,
    secretSlot,
  );
}

type Entry = { kind: KindField; field: FormField };

/** CreateChannelInput from the fields; null (with the reason beside the field) when a line is not a header. */
function inputOf(type: string, name: string, fields: Entry[]) {
  const input: Record<string, unknown> = { type, name };
  for (const { kind, field } of fields) {
    const value = field.control.value.trim();
    if (kind.input !== "headers") {
      if (value) input[kind.input] = value;
      continue;
    }
    const headers = [];
    for (const line of value.split("\n").filter((line) => line.trim())) {
      const colon = line.indexOf(":");
      if (colon < 1) {
        field.setError(t("channels.headerLine").replace("{line}", line.trim()));
        field.control.focus();
        return null;
      }
      headers.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
    }
    if (headers.length) input.headers = headers;
  }
  return input as { type: string; name: string };
}
