// Making a channel: a type picker, then only the fields that type needs (channel-kinds.ts) and a
// name. A webhook's signing secret, which the API gives only in this answer, is shown once with a
// copy button. The API's refusals land beside the field they name; what was typed stays.
import type { UserSession } from "../../account/session.ts";
import { h, replaceChildren } from "../../dom.ts";
import { addTexts, t } from "../../i18n.ts";
import { consoleForm, selectField, textField, type FormField } from "../form.ts";
import { secretBox } from "../secret-box.ts";
import { CreateChannelMutation } from "./channel-api.ts";
import { kindFields, typeLabel, type KindField } from "./channel-kinds.ts";

addTexts({
  "channels.new": { nl: "Nieuw kanaal", en: "New channel" },
  "channels.type": { nl: "Soort kanaal", en: "Kind of channel" },
  "channels.typeHint": {
    nl: "Waar de meldingen van je monitors heen gaan. Voor meldingen in deze browser: zie hieronder.",
    en: "Where your monitors' notifications go. For notifications in this browser: see below.",
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

/** The Create section; `created` runs after a channel is made (the list reads them again). */
export function channelForm(
  session: UserSession,
  types: Array<{ value: string | null; label: string | null }>,
  created: () => Promise<void>,
): HTMLElement {
  const choices = types
    .filter((type) => type.value && type.value !== "webpush")
    .map((type) => ({ value: type.value!, text: typeLabel(type.value!, type.label) }));
  const picker = selectField({
    id: "channel-type",
    label: t("channels.type"),
    hint: t("channels.typeHint"),
    choices,
    value: choices.some((choice) => choice.value === "webhook") ? "webhook" : choices[0]?.value,
    apiNames: ["type"],
  });
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
