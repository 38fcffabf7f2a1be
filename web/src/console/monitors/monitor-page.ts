// One monitor's page: what it listens to, pause and resume, edit, delete (after a question), its
// feed URLs (made or replaced by rotateMonitorFeed and shown once, as a secret; ended by
// revokeMonitorFeed), its delivery log and who responded.
import { h, replaceChildren } from "../../dom.ts";
import { formatDateTime, formatNumber, t, withLanguage } from "../../i18n.ts";
import type { ConsoleContext } from "../console-context.ts";
import { confirmDialog } from "../confirm.ts";
import { actionButton } from "../form.ts";
import { secretBox } from "../secret-box.ts";
import { typeLabel } from "./monitor-form.ts";
import {
  DeleteMonitorMutation,
  DeliveriesQuery,
  MonitorQuery,
  MonitorTypesQuery,
  RevokeFeedMutation,
  RotateFeedMutation,
  UpdateMonitorMutation,
  type Monitor,
  type MonitorsResult,
  type MonitorType,
} from "./monitor-queries.ts";

export function monitorPage(root: HTMLElement, context: ConsoleContext, uuid: string): void {
  const { session } = context;
  const status = h("p", { class: "form-status", role: "status", id: "monitor-status" });
  const say = (message: string) => (status.textContent = message);
  const summary = h("div", { class: "monitor-summary" });
  const actions = h("div", { class: "monitor-actions" });
  const feed = h("div", {});
  const feedSecret = h("div", {});
  const deliveries = h("ul", { class: "rows", id: "monitor-deliveries" });
  const responders = h("ul", { class: "rows", id: "monitor-responders" });
  const heading = h("h1", {}, t("monitors.heading"));

  async function load(): Promise<void> {
    const [data, { monitorTypes }] = await Promise.all([
      session.api.request(MonitorQuery, { uuid }),
      context.api.request(MonitorTypesQuery),
    ]);
    if (!data.monitor) {
      replaceChildren(root, h("h1", {}, t("monitors.notFound")));
      return;
    }
    draw(data.monitor, data.channels, monitorTypes);
    await loadDeliveries();
  }

  function draw(monitor: Monitor, channels: MonitorsResult["channels"], types: MonitorType[]): void {
    heading.textContent = monitor.name;
    document.title = `${monitor.name} · ${t("monitors.heading")}`;
    const names = new Map((channels ?? []).map((channel) => [channel.uuid, `${channel.name} (${channel.type})`]));
    const chosen = (JSON.parse(monitor.channels) as string[]).map((one) => names.get(one) ?? one);
    const place =
      monitor.location?.latitude != null && monitor.location.longitude != null
        ? t("monitors.page.place")
            .replace("{km}", formatNumber(monitor.radius ?? 0))
            .replace("{lat}", monitor.location.latitude.toFixed(5))
            .replace("{lon}", monitor.location.longitude.toFixed(5))
        : t("monitors.page.everywhere");
    replaceChildren(
      summary,
      h(
        "dl",
        { class: "monitor-facts" },
        h("dt", {}, t("monitors.form.type")),
        h("dd", {}, typeLabel(types, monitor.type)),
        h("dt", {}, t("monitors.page.state")),
        h("dd", { id: "monitor-state" }, monitor.active ? t("monitors.active") : t("monitors.paused")),
        h("dt", {}, t("monitors.page.where")),
        h("dd", {}, place),
        h("dt", {}, t("monitors.channels.legend")),
        h("dd", {}, chosen.length ? chosen.join(", ") : t("monitors.channels.noneChosen")),
      ),
    );
    const edit = h(
      "a",
      { href: withLanguage(`/console/monitors/${uuid}/edit`), class: "button-link" },
      t("monitors.edit"),
    );
    edit.addEventListener("click", (event) => {
      event.preventDefault();
      context.go(`/console/monitors/${uuid}/edit`);
    });
    replaceChildren(
      actions,
      actionButton(
        monitor.active ? t("monitors.pause") : t("monitors.resume"),
        async () => {
          await session.api.request(UpdateMonitorMutation, { input: { uuid, active: !monitor.active } });
          await load();
          say(monitor.active ? t("monitors.pausedNow") : t("monitors.resumedNow"));
          (actions.querySelector("button") as HTMLButtonElement | null)?.focus();
        },
        say,
      ),
      edit,
      actionButton(
        t("console.delete"),
        async () => {
          const question = t("monitors.deleteQuestion").replace("{name}", monitor.name);
          if (!(await confirmDialog(question, t("console.delete")))) return;
          await session.api.request(DeleteMonitorMutation, { uuid });
          context.go("/console/monitors");
        },
        say,
        { className: "danger" },
      ),
    );
    replaceChildren(
      feed,
      h(
        "p",
        { id: "monitor-feed-state" },
        monitor.feedCreatedAt
          ? t("monitors.feed.since").replace("{when}", formatDateTime(monitor.feedCreatedAt))
          : t("monitors.feed.none"),
      ),
      h(
        "div",
        { class: "monitor-actions" },
        actionButton(
          monitor.feedCreatedAt ? t("monitors.feed.rotate") : t("monitors.feed.make"),
          async () => {
            if (
              monitor.feedCreatedAt &&
              !(await confirmDialog(t("monitors.feed.rotateQuestion"), t("monitors.feed.rotate")))
            )
              return;
            const { rotateMonitorFeed } = await session.api.request(RotateFeedMutation, { monitor: uuid });
            if (!rotateMonitorFeed) return;
            replaceChildren(
              feedSecret,
              secretBox("monitor-feed-atom", t("monitors.feed.atom"), rotateMonitorFeed.atomUrl),
              secretBox("monitor-feed-geojson", t("monitors.feed.geojson"), rotateMonitorFeed.geojsonUrl),
            );
            await load();
            (feedSecret.querySelector("input") as HTMLInputElement).focus();
          },
          say,
        ),
        monitor.feedCreatedAt
          ? actionButton(
              t("monitors.feed.revoke"),
              async () => {
                if (!(await confirmDialog(t("monitors.feed.revokeQuestion"), t("monitors.feed.revoke")))) return;
                await session.api.request(RevokeFeedMutation, { monitor: uuid });
                feedSecret.replaceChildren();
                await load();
                say(t("monitors.feed.revoked"));
              },
              say,
              { className: "danger" },
            )
          : null,
      ),
    );
    replaceChildren(
      responders,
      ...(monitor.responders.length
        ? monitor.responders.map((responder) =>
            h(
              "li",
              { class: "row" },
              h(
                "div",
                {},
                h(
                  "p",
                  { class: "row-title" },
                  `${responder.recipient}: ${t(`monitors.responder.${responder.status}`)}`,
                ),
                h(
                  "p",
                  { class: "row-meta" },
                  [responder.channel?.name, formatDateTime(responder.changed)].filter(Boolean).join(" · "),
                ),
              ),
            ),
          )
        : [h("li", { class: "empty" }, t("monitors.responders.none"))]),
    );
  }

  async function loadDeliveries(): Promise<void> {
    const { deliveries: log } = await session.api.request(DeliveriesQuery, { monitor: uuid });
    replaceChildren(
      deliveries,
      ...(log.length
        ? log.map((delivery) =>
            h(
              "li",
              { class: "row delivery" },
              h(
                "div",
                {},
                h("p", { class: "row-title" }, delivery.itemTitle ?? delivery.itemKind),
                h(
                  "p",
                  { class: "row-meta" },
                  [
                    formatDateTime(delivery.created),
                    delivery.channelName,
                    delivery.responseCode ? `HTTP ${delivery.responseCode}` : null,
                    t("monitors.deliveries.attempts").replace("{count}", String(delivery.attempts)),
                    delivery.error,
                  ]
                    .filter(Boolean)
                    .join(" · "),
                ),
              ),
              h("span", { class: `badge outcome-${delivery.outcome}` }, t(`monitors.outcome.${delivery.outcome}`)),
            ),
          )
        : [h("li", { class: "empty" }, t("monitors.deliveries.none"))]),
    );
  }

  const back = h("a", { href: withLanguage("/console/monitors") }, t("monitors.back"));
  back.addEventListener("click", (event) => {
    event.preventDefault();
    context.go("/console/monitors");
  });
  root.append(
    h("p", {}, back),
    heading,
    summary,
    actions,
    status,
    h(
      "section",
      { class: "card", "aria-labelledby": "monitor-feed-heading" },
      h("h2", { id: "monitor-feed-heading" }, t("monitors.feed.heading")),
      h("p", {}, t("monitors.feed.why")),
      feed,
      feedSecret,
    ),
    h(
      "section",
      { "aria-labelledby": "monitor-deliveries-heading" },
      h("h2", { id: "monitor-deliveries-heading" }, t("monitors.deliveries.heading")),
      actionButton(t("monitors.deliveries.refresh"), loadDeliveries, say),
      deliveries,
    ),
    h(
      "section",
      { "aria-labelledby": "monitor-responders-heading" },
      h("h2", { id: "monitor-responders-heading" }, t("monitors.responders.heading")),
      responders,
    ),
  );
  void load().catch((error: Error) => say(error.message));
}
