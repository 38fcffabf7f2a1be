// The environment's monitors: name, type, active or paused, its channels; each links to its page.
import { statusLine } from "../form.ts";
import { h, replaceChildren } from "../../dom.ts";
import { t, withLanguage } from "../../i18n.ts";
import type { ConsoleContext } from "../console-context.ts";
import { typeLabel } from "./monitor-form.ts";
import { MonitorsQuery, MonitorTypesQuery } from "./monitor-queries.ts";

function link(context: ConsoleContext, path: string, text: string, className?: string): HTMLAnchorElement {
  const anchor = h("a", { href: withLanguage(path), class: className }, text);
  anchor.addEventListener("click", (event) => {
    event.preventDefault();
    context.go(path);
  });
  return anchor;
}

export function monitorList(root: HTMLElement, context: ConsoleContext): void {
  const list = h("ul", { class: "rows", "aria-labelledby": "monitors-list-heading" });
  const { element: status, say } = statusLine();
  root.append(
    h("h1", {}, t("monitors.heading")),
    h("p", {}, t("monitors.why")),
    h("p", {}, link(context, "/console/monitors/new", t("monitors.new"), "button-link primary")),
    h(
      "section",
      { "aria-labelledby": "monitors-list-heading" },
      h("h2", { id: "monitors-list-heading" }, t("monitors.list")),
      status,
      list,
    ),
  );
  void Promise.all([context.session.api.request(MonitorsQuery), context.api.request(MonitorTypesQuery)])
    .then(([{ monitors, channels }, { monitorTypes }]) => {
      const names = new Map((channels ?? []).map((channel) => [channel.uuid, channel.name]));
      const rows = (monitors ?? []).map((monitor) => {
        const channelNames = (JSON.parse(monitor.channels) as string[]).map((uuid) => names.get(uuid) ?? uuid);
        return h(
          "li",
          { class: "row" },
          h(
            "div",
            {},
            h(
              "p",
              { class: "row-title" },
              link(context, `/console/monitors/${monitor.uuid}`, monitor.name),
              h(
                "span",
                { class: monitor.active ? "badge" : "badge paused" },
                monitor.active ? t("monitors.active") : t("monitors.paused"),
              ),
            ),
            h(
              "p",
              { class: "row-meta" },
              [
                typeLabel(monitorTypes, monitor.type),
                channelNames.length
                  ? `${t("monitors.channels.legend")}: ${channelNames.join(", ")}`
                  : t("monitors.channels.noneChosen"),
              ].join(" · "),
            ),
          ),
        );
      });
      replaceChildren(list, ...(rows.length ? rows : [h("li", { class: "empty" }, t("monitors.none"))]));
    })
    .catch((error: Error) => say(error.message));
}
