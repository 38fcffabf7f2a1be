// The environment's channels as rows: type, name and target (as masked as the API keeps it), and
// for each a test send whose outcome is said in words, its recent deliveries, and Delete after a
// confirmation.
import type { UserSession } from "../../account/session.ts";
import { ApiError } from "../../api/client.ts";
import { h, replaceChildren } from "../../dom.ts";
import { addTexts, formatDateTime, t } from "../../i18n.ts";
import { confirmDialog } from "../confirm.ts";
import { actionButton } from "../form.ts";
import { DeleteChannelMutation, SendTestMutation, type Channel, type TestResult } from "./channel-api.ts";
import { countText } from "../console-texts.ts";
import { channelDeliveries } from "./channel-deliveries.ts";
import { failureText } from "./failure-text.ts";
import { targetOf, typeLabel } from "./channel-kinds.ts";

addTexts({
  "channels.none": { nl: "Nog geen kanalen.", en: "No channels yet." },
  "channels.test": { nl: "Test sturen", en: "Send a test" },
  "channels.testing": { nl: "Test wordt verstuurd…", en: "Sending a test…" },
  "channels.testDelivered": {
    nl: "De test is afgeleverd ({detail}).",
    en: "The test was delivered ({detail}).",
  },
  "channels.testFailed": { nl: "De test is niet afgeleverd. {error}", en: "The test was not delivered. {error}" },
  "channels.made": { nl: "gemaakt", en: "made" },
  "channels.disabled": {
    nl: "Uitgeschakeld op {time}: de ontvanger bestaat niet meer ({reason}). Maak het kanaal opnieuw.",
    en: "Disabled on {time}: the receiver is gone ({reason}). Make the channel again.",
  },
  "channels.deleteQuestion": {
    nl: "Kanaal \u201c{name}\u201d verwijderen? Het verdwijnt ook van elke monitor.",
    en: "Delete the channel \u201c{name}\u201d? It is taken off every monitor too.",
  },
  "channels.deleted": { nl: "Kanaal \u201c{name}\u201d verwijderd.", en: "Channel \u201c{name}\u201d deleted." },
  "channels.headersCount.one": { nl: "{count} extra header", en: "{count} extra header" },
  "channels.headersCount.other": { nl: "{count} extra headers", en: "{count} extra headers" },
});

/** The outcome of a test send as a sentence. */
export function testOutcome(result: TestResult): string {
  const detail = [
    result.responseCode ? t("channels.answer").replace("{code}", String(result.responseCode)) : null,
    `${result.latencyMs} ms`,
  ]
    .filter(Boolean)
    .join(", ");
  return result.delivered
    ? t("channels.testDelivered").replace("{detail}", detail)
    : t("channels.testFailed").replace(
        "{error}",
        result.error ? failureText(result.error, result.responseCode) : (result.reply ?? result.outcome),
      );
}

/** Draws the rows into `list`; `say` is the screen's status line, `changed` reads the list again. */
export function drawChannels(
  list: HTMLElement,
  channels: Channel[],
  session: UserSession,
  say: (message: string) => void,
  changed: () => Promise<void>,
): void {
  replaceChildren(
    list,
    ...(channels.length
      ? channels.map((channel) => channelRow(channel, session, say, changed))
      : [h("li", { class: "empty" }, t("channels.none"))]),
  );
}

function channelRow(
  channel: Channel,
  session: UserSession,
  say: (message: string) => void,
  changed: () => Promise<void>,
): HTMLElement {
  const id = `channel-${channel.uuid}`;
  const outcome = h("p", { class: "form-status channel-outcome", role: "status", id: `${id}-outcome` });
  const deliveries = channelDeliveries(session, channel.uuid, id);
  const headers = channel.headers.length ? countText("channels.headersCount", channel.headers.length) : null;

  const test = actionButton(
    t("channels.test"),
    async () => {
      outcome.classList.remove("failed");
      outcome.textContent = t("channels.testing");
      try {
        const { sendTestNotification } = await session.api.request(SendTestMutation, { channel: channel.uuid });
        if (!sendTestNotification) return;
        outcome.textContent = testOutcome(sendTestNotification);
        outcome.classList.toggle("failed", !sendTestNotification.delivered);
      } catch (error) {
        // The rate limit (5 a minute) and a channel deleted elsewhere are said here, beside it.
        outcome.classList.add("failed");
        outcome.textContent =
          error instanceof ApiError && error.code === "NETWORK_ERROR" ? t("form.offline") : (error as Error).message;
      }
      await deliveries.refresh();
    },
    say,
    { ariaLabel: `${t("channels.test")}: ${channel.name}` },
  );
  const remove = actionButton(
    t("console.delete"),
    async () => {
      const question = t("channels.deleteQuestion").replace("{name}", channel.name);
      if (!(await confirmDialog(question, t("console.delete")))) return;
      await session.api.request(DeleteChannelMutation, { uuid: channel.uuid });
      await changed();
      say(t("channels.deleted").replace("{name}", channel.name));
      // Its button is gone with the row: the keyboard goes on from the list's heading.
      document.getElementById("channels-list-heading")?.focus();
    },
    say,
    { ariaLabel: `${t("console.delete")}: ${channel.name}`, className: "danger" },
  );

  return h(
    "li",
    { class: "row channel", id, "data-type": channel.type },
    h(
      "div",
      { class: "channel-about" },
      h("h3", { class: "row-title" }, channel.name, h("span", { class: "badge" }, typeLabel(channel.type))),
      h(
        "p",
        { class: "row-meta" },
        h("span", { class: "channel-target" }, targetOf(channel)),
        headers ? ` · ${headers}` : "",
        ` · ${t("channels.made")} ${formatDateTime(channel.created)}`,
      ),
      channel.disabledAt
        ? h(
            "p",
            { class: "notice warning" },
            t("channels.disabled")
              .replace("{time}", formatDateTime(channel.disabledAt))
              .replace("{reason}", failureText(channel.disabledReason)),
          )
        : null,
      outcome,
      deliveries.element,
    ),
    h("div", { class: "channel-actions" }, test, remove),
  );
}
