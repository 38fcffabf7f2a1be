// P2000 receivers of the current environment (issue 48): register one (administrators; its token
// shown once, with the command that runs it next to the radio), each one's health over the last
// hour (when last heard, pages a minute, malformed lines and garbled pages, the regions its pages
// come from), a receiver quiet for ten minutes marked as such, and removing one after a
// confirmation (its token ends with it).
import { graphql } from "../api/graphql.ts";
import { h, replaceChildren } from "../dom.ts";
import { addTexts, formatDateTime, formatNumber, t } from "../i18n.ts";
import type { ConsoleScreen } from "./console-context.ts";
import { confirmDialog } from "./confirm.ts";
import { actionButton, consoleForm, statusLine, textField } from "./form.ts";
import { secretBox } from "./secret-box.ts";

addTexts({
  "receivers.heading": { nl: "Ontvangers", en: "Receivers" },
  "receivers.why": {
    nl: "Een ontvanger is een radio (een SDR met multimon-ng) die P2000-berichten hoort en ze met een eigen sleutel naar deze dienst stuurt. Beheerders melden ontvangers aan: wat ze sturen wordt openbaar.",
    en: "A receiver is a radio (an SDR with multimon-ng) that hears P2000 pages and sends them to this service with a token of its own. Administrators register receivers: what they send becomes public.",
  },
  "receivers.new": { nl: "Nieuwe ontvanger", en: "New receiver" },
  "receivers.description": { nl: "Beschrijving (waar, antenne, wie)", en: "Description (where, antenna, who)" },
  "receivers.create": { nl: "Ontvanger aanmelden", en: "Register the receiver" },
  "receivers.token": { nl: "De sleutel van deze ontvanger", en: "This receiver's token" },
  "receivers.run": {
    nl: "Start hem naast de radio (de sleutel in NLIS_TOKEN, niet op de opdrachtregel):",
    en: "Run it next to the radio (the token in NLIS_TOKEN, not on the command line):",
  },
  "receivers.list": {
    nl: "Ontvangers van deze omgeving (afgelopen uur)",
    en: "Receivers of this environment (last hour)",
  },
  "receivers.none": { nl: "Nog geen ontvangers.", en: "No receivers yet." },
  "receivers.lastHeard": { nl: "laatst gehoord", en: "last heard" },
  "receivers.never": { nl: "nog nooit gehoord", en: "never heard yet" },
  "receivers.quiet": { nl: "Stil", en: "Quiet" },
  "receivers.perMinute": { nl: "{n} berichten per minuut", en: "{n} pages a minute" },
  "receivers.malformed": { nl: "{n}% onleesbare regels", en: "{n}% malformed lines" },
  "receivers.garbled": { nl: "{n}% verminkte berichten", en: "{n}% garbled pages" },
  "receivers.regions": { nl: "uit", en: "from" },
  "receivers.delete": { nl: "Verwijderen", en: "Remove" },
  "receivers.deleteQuestion": {
    nl: "Ontvanger \u201c{name}\u201d verwijderen? Zijn sleutel werkt dan meteen niet meer; de berichten die hij stuurde blijven.",
    en: "Remove the receiver \u201c{name}\u201d? Its token stops working at once; the pages it sent stay.",
  },
  "receivers.deleted": { nl: "Ontvanger verwijderd.", en: "Receiver removed." },
});

const ReceiversQuery = graphql(`
  query ConsoleReceivers {
    p2000Receivers {
      uuid
      name
      description
    }
    p2000ReceiverStatistics(minutes: 60) {
      receiverUuid
      lastHeardAt
      pagesPerMinute
      malformedShare
      garbledShare
      regions {
        name
        pages
      }
    }
  }
`);

const CreateReceiverMutation = graphql(`
  mutation ConsoleCreateReceiver($name: String!, $description: String) {
    createP2000Receiver(input: { name: $name, description: $description }) {
      token
    }
  }
`);

const DeleteReceiverMutation = graphql(`
  mutation ConsoleDeleteReceiver($uuid: String!) {
    deleteP2000Receiver(uuid: $uuid)
  }
`);

/** A receiver not heard for this long is marked quiet (a receiver_silence monitor's default). */
const QUIET_AFTER_MS = 10 * 60_000;

const percent = (share: number | null | undefined) => formatNumber(Math.round((share ?? 0) * 1000) / 10);

export const receiversScreen: ConsoleScreen = (root, { session }) => {
  const list = h("ul", { class: "rows", "aria-labelledby": "receivers-list-heading" });
  const tokenSlot = h("div", {});
  const { element: status, say } = statusLine();
  const name = textField({ id: "receiver-name", label: t("console.name"), required: true, apiNames: ["name"] });
  const description = textField({
    id: "receiver-description",
    label: t("receivers.description"),
    apiNames: ["description"],
  });
  const form = consoleForm({
    id: "receiver-form",
    fields: [name, description],
    submitLabel: t("receivers.create"),
    submit: async () => {
      const { createP2000Receiver } = await session.api.request(CreateReceiverMutation, {
        name: name.control.value,
        description: description.control.value || null,
      });
      const token = createP2000Receiver?.token ?? "";
      const endpoint = new URL("/graphql", window.location.origin).href;
      replaceChildren(
        tokenSlot,
        secretBox("receiver-token", t("receivers.token"), token),
        h("p", {}, t("receivers.run")),
        h(
          "pre",
          { class: "command" },
          `rtl_fm -f 169.65M -M fm -s 22050 | multimon-ng -a FLEX -t raw - \\\n  | NLIS_TOKEN=… npm run ingest:flex -- --to ${endpoint} -`,
        ),
      );
      name.control.value = "";
      description.control.value = "";
      await show();
      (tokenSlot.querySelector("input") as HTMLInputElement).focus();
    },
  });

  async function show(): Promise<void> {
    const { p2000Receivers, p2000ReceiverStatistics } = await session.api.request(ReceiversQuery);
    const health = new Map(p2000ReceiverStatistics.map((row) => [row.receiverUuid, row]));
    replaceChildren(
      list,
      ...(p2000Receivers.length
        ? p2000Receivers.map((receiver) => {
            const row = health.get(receiver.uuid);
            const heard = row?.lastHeardAt ?? null;
            const quiet = heard === null || Date.now() - Date.parse(heard) > QUIET_AFTER_MS;
            const regions = (row?.regions ?? []).slice(0, 3).map((region) => `${region?.name} (${region?.pages})`);
            return h(
              "li",
              { class: "row receiver" },
              h(
                "div",
                {},
                h(
                  "p",
                  { class: "row-title" },
                  receiver.name,
                  ...(quiet ? [h("span", { class: "badge quiet" }, t("receivers.quiet"))] : []),
                ),
                receiver.description ? h("p", { class: "row-meta" }, receiver.description) : null,
                h(
                  "p",
                  { class: "row-meta" },
                  [
                    heard ? `${t("receivers.lastHeard")} ${formatDateTime(heard)}` : t("receivers.never"),
                    t("receivers.perMinute").replace(
                      "{n}",
                      formatNumber(Math.round((row?.pagesPerMinute ?? 0) * 100) / 100),
                    ),
                    t("receivers.malformed").replace("{n}", percent(row?.malformedShare)),
                    t("receivers.garbled").replace("{n}", percent(row?.garbledShare)),
                    regions.length ? `${t("receivers.regions")} ${regions.join(", ")}` : null,
                  ]
                    .filter(Boolean)
                    .join(" · "),
                ),
              ),
              actionButton(
                t("receivers.delete"),
                async () => {
                  const question = t("receivers.deleteQuestion").replace("{name}", receiver.name);
                  if (!(await confirmDialog(question, t("receivers.delete")))) return;
                  await session.api.request(DeleteReceiverMutation, { uuid: receiver.uuid });
                  await show();
                  say(t("receivers.deleted"));
                },
                say,
                { ariaLabel: `${t("receivers.delete")}: ${receiver.name}`, className: "danger" },
              ),
            );
          })
        : [h("li", { class: "empty" }, t("receivers.none"))]),
    );
  }

  root.append(
    h("h1", {}, t("receivers.heading")),
    h("p", {}, t("receivers.why")),
    h(
      "section",
      { class: "card", "aria-labelledby": "receiver-new-heading" },
      h("h2", { id: "receiver-new-heading" }, t("receivers.new")),
      form.element,
      tokenSlot,
    ),
    h(
      "section",
      { "aria-labelledby": "receivers-list-heading" },
      h("h2", { id: "receivers-list-heading" }, t("receivers.list")),
      status,
      list,
    ),
  );
  void show().catch((error: Error) => say(error.message));
};
