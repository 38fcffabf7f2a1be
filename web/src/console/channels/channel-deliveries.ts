// A channel's recent deliveries (the delivery log filtered to it): outcome, time and the error,
// in a disclosure that reads them when opened and again after a test send.
import type { UserSession } from "../../account/session.ts";
import { h, replaceChildren } from "../../dom.ts";
import { addTexts, formatDateTime, t } from "../../i18n.ts";
import { countText } from "../console-texts.ts";
import { ChannelDeliveriesQuery } from "./channel-api.ts";
import { failureText } from "./failure-text.ts";

addTexts({
  "channels.deliveries": { nl: "Recente leveringen", en: "Recent deliveries" },
  "channels.deliveries.none": { nl: "Nog niets geleverd.", en: "Nothing delivered yet." },
  "channels.deliveries.loading": { nl: "Laden…", en: "Loading…" },
  "channels.outcome.delivered": { nl: "afgeleverd", en: "delivered" },
  "channels.outcome.failed": { nl: "mislukt", en: "failed" },
  "channels.outcome.pending": { nl: "wacht", en: "pending" },
  "channels.outcome.retrying": { nl: "wordt opnieuw geprobeerd", en: "retrying" },
  "channels.deliveries.test": { nl: "Test", en: "Test" },
  "channels.deliveries.attempts.one": { nl: "{count} poging", en: "{count} attempt" },
  "channels.deliveries.attempts.other": { nl: "{count} pogingen", en: "{count} attempts" },
  "channels.answer": { nl: "antwoord {code}", en: "answer {code}" },
});

/** How many deliveries a channel's list shows. */
const RECENT = 10;

export interface DeliveriesView {
  element: HTMLDetailsElement;
  /** Open it and read the deliveries again. */
  refresh(): Promise<void>;
}

export function outcomeText(outcome: string): string {
  const key = `channels.outcome.${outcome}`;
  const text = t(key);
  return text === key ? outcome : text;
}

export function channelDeliveries(session: UserSession, channelUuid: string, idBase: string): DeliveriesView {
  const list = h("ul", { class: "deliveries" });
  const element = h(
    "details",
    { class: "channel-deliveries", id: `${idBase}-deliveries` },
    h("summary", {}, t("channels.deliveries")),
    list,
  );

  async function refresh(): Promise<void> {
    element.open = true;
    replaceChildren(list, h("li", {}, t("channels.deliveries.loading")));
    try {
      const { deliveries } = await session.api.request(ChannelDeliveriesQuery, {
        channel: channelUuid,
        first: RECENT,
      });
      replaceChildren(
        list,
        ...(deliveries.length
          ? deliveries.map((delivery) =>
              h(
                "li",
                { class: `delivery outcome-${delivery.outcome}` },
                h("span", { class: "delivery-outcome" }, outcomeText(delivery.outcome)),
                " · ",
                h(
                  "time",
                  { datetime: delivery.lastAttemptAt ?? delivery.created },
                  formatDateTime(delivery.deliveredAt ?? delivery.lastAttemptAt ?? delivery.created),
                ),
                " · ",
                delivery.test
                  ? t("channels.deliveries.test")
                  : [delivery.monitorName, delivery.itemTitle].filter(Boolean).join(": "),
                delivery.responseCode
                  ? ` · ${t("channels.answer").replace("{code}", String(delivery.responseCode))}`
                  : "",
                delivery.attempts > 1 ? ` · ${countText("channels.deliveries.attempts", delivery.attempts)}` : "",
                delivery.error
                  ? h("span", { class: "delivery-error" }, failureText(delivery.error, delivery.responseCode))
                  : null,
              ),
            )
          : [h("li", { class: "empty" }, t("channels.deliveries.none"))]),
      );
    } catch (error) {
      replaceChildren(list, h("li", { class: "field-error" }, (error as Error).message));
    }
  }

  // Read when opened by the person (a refresh opens it too, so it reads once).
  element.addEventListener("toggle", () => {
    if (element.open && !list.childElementCount) void refresh();
  });
  return { element, refresh };
}
