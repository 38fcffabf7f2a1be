// The AMBER Alert banner above the map while a child is missing (amberAlerts activeOnly, live):
// role=alert, so a screen reader says it as soon as it appears.
import type { Api } from "../api/client.ts";
import { readFragment, type ResultOf } from "../api/graphql.ts";
import { h, replaceChildren } from "../dom.ts";
import { t } from "../i18n.ts";
import { AmberFields, AmberQuery, AmberSubscription } from "./queries.ts";

type Alerts = ReadonlyArray<ResultOf<typeof AmberFields>>;

export interface AmberBanner {
  element: HTMLElement;
  reload(): Promise<void>;
  stop(): void;
}

export function createAmberBanner(api: Api, onError: (error: Error) => void): AmberBanner {
  const element = h("div", { class: "amber-banner", role: "alert", hidden: true });
  const show = (alerts: Alerts) => {
    element.hidden = alerts.length === 0;
    replaceChildren(
      element,
      ...alerts.map((alert) =>
        h(
          "p",
          {},
          h("strong", {}, alert.label),
          " ",
          alert.title ?? "",
          alert.descriptionExt ? ` (${alert.descriptionExt})` : "",
          alert.readMoreUrl?.startsWith("https://")
            ? h("a", { href: alert.readMoreUrl, rel: "noopener noreferrer", target: "_blank" }, t("amber.more"))
            : null,
        ),
      ),
    );
  };
  const unsubscribe = api.subscribe(
    AmberSubscription,
    {},
    (data) => show(readFragment(AmberFields, data.amberAlerts)),
    onError,
  );
  return {
    element,
    reload: async () => show(readFragment(AmberFields, (await api.request(AmberQuery)).amberAlerts)),
    stop: unsubscribe,
  };
}
