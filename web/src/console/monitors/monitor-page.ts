// One monitor's page: what it listens to (every criterion it has, in words, its rules, and its
// circle and areas on a small map), pause and resume, edit, delete (after a question), its feed URLs (made
// or replaced by rotateMonitorFeed and shown once, as a secret; ended by revokeMonitorFeed), its
// delivery log (failures said in words) and who responded.
import { h, replaceChildren } from "../../dom.ts";
import { formatDateTime, formatNumber, t, withLanguage } from "../../i18n.ts";
import type { ConsoleContext } from "../console-context.ts";
import { confirmDialog } from "../confirm.ts";
import { countText } from "../console-texts.ts";
import { failureText } from "../channels/failure-text.ts";
import { actionButton } from "../form.ts";
import { secretBox } from "../secret-box.ts";
import { areaMap } from "./area-shapes.ts";
import { areasOf, isDrawn } from "./areas.ts";
import { describeQuery, PLACE_TYPES, urgencyChoices, type Described, type Query } from "./criteria-fields.ts";
import { typeLabel } from "./monitor-form.ts";
import { describeRules, type Rules } from "./notification-rules.ts";
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
  P2000ReferenceQuery,
} from "./monitor-queries.ts";

function parsed<T>(json: string | null | undefined, fallback: T): T {
  try {
    return (json ? JSON.parse(json) : fallback) as T;
  } catch {
    return fallback;
  }
}

/** A term and its values as the description list's rows (several values as a list). */
function factRows(term: string, values: Array<string | Node>, id?: string): HTMLElement[] {
  return [
    h("dt", {}, term),
    h(
      "dd",
      { id },
      values.length > 1
        ? h("ul", { class: "monitor-values" }, ...values.map((value) => h("li", {}, value)))
        : values[0],
    ),
  ];
}

/** Returns how to take the page down (its map). */
export function monitorPage(root: HTMLElement, context: ConsoleContext, uuid: string): () => void {
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
  const mapSlot = h("div", { class: "monitor-area" });
  let map: ReturnType<typeof areaMap> | null = null;
  /** The circle and areas the map shows, so a redraw (after Pause) keeps the map that is there. */
  let mapOf = "";
  let disposed = false;

  async function load(): Promise<void> {
    const [data, { monitorTypes }] = await Promise.all([
      session.api.request(MonitorQuery, { uuid }),
      context.api.request(MonitorTypesQuery),
    ]);
    if (disposed) return;
    if (!data.monitor) {
      replaceChildren(root, h("h1", {}, t("monitors.notFound")));
      return;
    }
    const query = parsed<Query>(data.monitor.query, {});
    // The criteria in words, and the urgency names the rules use: public reference data.
    const [described, urgencies] = await Promise.all([
      describeQuery(data.monitor.type, query, context.api),
      data.monitor.type === "p2000"
        ? context.api
            .request(P2000ReferenceQuery)
            .then((reference) => urgencyChoices(reference.p2000Urgencies ?? []))
            .catch(() => [])
        : Promise.resolve([]),
    ]);
    if (disposed) return;
    draw(
      data.monitor,
      query,
      data.channels,
      monitorTypes,
      described,
      describeRules(parsed<Rules>(data.monitor.notificationRules, {}), urgencies),
    );
    await loadDeliveries();
  }

  function draw(
    monitor: Monitor,
    query: Query,
    channels: MonitorsResult["channels"],
    types: MonitorType[],
    described: Described[],
    rules: string[],
  ): void {
    heading.textContent = monitor.name;
    document.title = `${monitor.name} · ${t("monitors.heading")}`;
    const names = new Map((channels ?? []).map((channel) => [channel.uuid, `${channel.name} (${channel.type})`]));
    const chosen = (JSON.parse(monitor.channels) as string[]).map((one) => names.get(one) ?? one);
    const centre =
      monitor.location?.latitude != null && monitor.location.longitude != null
        ? { latitude: monitor.location.latitude, longitude: monitor.location.longitude }
        : null;
    // The area: the circle; else the areas, regions or provinces it is limited to (listed below
    // too); "all of the Netherlands" only when it has none of them.
    const areas = described.find((one) => ["areas", "regions", "provinces"].includes(one.key));
    const place = centre
      ? t("monitors.page.place")
          .replace("{km}", formatNumber(monitor.radius ?? 0))
          .replace("{lat}", centre.latitude.toFixed(5))
          .replace("{lon}", centre.longitude.toFixed(5))
      : areas
        ? t("monitors.page.inRegions").replace("{names}", areas.values.join(", "))
        : PLACE_TYPES.has(monitor.type) || monitor.type === "meteo_weather" || monitor.type === "amber_alert"
          ? t("monitors.page.everywhere")
          : null;
    replaceChildren(
      summary,
      h(
        "dl",
        { class: "monitor-facts", id: "monitor-facts" },
        ...factRows(t("monitors.form.type"), [typeLabel(types, monitor.type)]),
        ...factRows(
          t("monitors.page.state"),
          [monitor.active ? t("monitors.active") : t("monitors.paused")],
          "monitor-state",
        ),
        // A follow (followIncident) hears of its one incident: that is all it listens to.
        ...(monitor.followsIncident
          ? factRows(
              t("monitors.page.follows"),
              [
                h(
                  "a",
                  {
                    href: withLanguage(`/?incident=${encodeURIComponent(monitor.followsIncident)}`),
                    id: "monitor-follows",
                  },
                  t("monitors.page.followsLink"),
                ),
              ],
              "monitor-follows-incident",
            )
          : [
              ...(place ? factRows(t("monitors.page.where"), [place], "monitor-where") : []),
              ...(described.length
                ? described.flatMap((one) => factRows(one.term, one.values, `monitor-criterion-${one.key}`))
                : factRows(t("monitors.page.criteria"), [t("monitors.page.everything")])),
            ]),
        ...factRows(t("monitors.page.rules"), rules, "monitor-rules"),
        ...factRows(t("monitors.channels.legend"), [
          chosen.length ? chosen.join(", ") : t("monitors.channels.noneChosen"),
        ]),
      ),
    );
    // The circle and the areas on a small map (made once: a redraw after Pause keeps it). Named
    // areas without an outline (gemeenten, woonplaatsen, postcode areas) are in the list only.
    const queryAreas = PLACE_TYPES.has(monitor.type) ? areasOf(query.areas) : [];
    const drawn = queryAreas.filter(isDrawn);
    const wanted = centre || drawn.length ? JSON.stringify([centre, monitor.radius, drawn]) : "";
    if (wanted !== mapOf) {
      map?.remove();
      map = wanted
        ? areaMap(context.config, { centre, radiusKm: monitor.radius ?? 0, areas: drawn }, t("monitors.page.mapLabel"))
        : null;
      const notDrawn = map && drawn.length < queryAreas.length;
      replaceChildren(
        mapSlot,
        map?.element ?? null,
        notDrawn ? h("p", { class: "field-hint", id: "monitor-area-not-drawn" }, t("monitors.page.notDrawn")) : null,
      );
      mapOf = wanted;
    }
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
              secretBox("monitor-feed-ics", t("monitors.feed.ics"), rotateMonitorFeed.icsUrl),
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
                    // A failure's words name the status themselves.
                    delivery.responseCode && !delivery.error ? `HTTP ${delivery.responseCode}` : null,
                    countText("monitors.deliveries.attempts", delivery.attempts),
                    delivery.error ? failureText(delivery.error, delivery.responseCode) : null,
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
    h("div", { class: "monitor-about" }, summary, mapSlot),
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
  return () => {
    disposed = true;
    map?.remove();
  };
}
