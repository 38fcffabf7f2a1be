// The open incident: its messages, timeline, GRIP level, place and the signals of the other feeds
// that belong with it, live through the p2000Dossier subscription while it is open. A dialog that
// does not block the map: it takes focus when it opens, Escape or its button closes it, and focus
// goes back to where it came from.
import type { Api } from "../api/client.ts";
import { readFragment, type FragmentOf, type ResultOf } from "../api/graphql.ts";
import { h, replaceChildren } from "../dom.ts";
import { formatDateTime, t } from "../i18n.ts";
import { exerciseMessageUuid } from "./incidents.ts";
import {
  DossierDetail,
  DossierQuery,
  DossierSubscription,
  DossierSummary,
  ExerciseQuery,
  ExerciseSummary,
} from "./queries.ts";

type Detail = ResultOf<typeof DossierDetail>;
type MaskedDetail = FragmentOf<typeof DossierDetail>;

export interface IncidentPanel {
  element: HTMLElement;
  open(id: string): void;
  close(): void;
  /** Fetch the open incident again (after the live connection was lost). */
  reload(): Promise<void>;
  readonly openId: string | null;
}

function facts(rows: Array<[string, string | number | null | undefined]>): HTMLElement {
  return h(
    "dl",
    { class: "facts" },
    ...rows
      .filter(([, value]) => value !== null && value !== undefined && value !== "")
      .flatMap(([term, value]) => [h("dt", {}, term), h("dd", {}, String(value))]),
  );
}

function section(title: string, ...content: Array<Node | null>): HTMLElement {
  return h("section", {}, h("h3", {}, title), ...content);
}

function timelineText(entry: Detail["timeline"][number]): string {
  const change =
    entry.previousValue || entry.newValue
      ? `: ${[entry.previousValue, entry.newValue].filter(Boolean).join(" → ")}`
      : "";
  return `${t(`timeline.${entry.kind}`)}${change}`;
}

function drawDossier(body: HTMLElement, dossier: Detail): void {
  const summary = readFragment(DossierSummary, dossier);
  replaceChildren(
    body,
    facts([
      [t("panel.urgency"), summary.urgency?.code],
      [t("panel.grip"), summary.gripLevel],
      [t("panel.place"), [summary.street, summary.city].filter(Boolean).join(", ")],
      [t("panel.region"), summary.region?.name],
      [t("panel.started"), formatDateTime(summary.firstSended)],
    ]),
    section(
      t("panel.messages"),
      h(
        "ol",
        { class: "messages" },
        ...dossier.messages.map((message) =>
          h(
            "li",
            {},
            h("time", { datetime: message.sended }, formatDateTime(message.sended)),
            h("p", {}, message.message),
            message.capcodes.length
              ? h("p", { class: "capcodes" }, message.capcodes.map((c) => c.description ?? c.name).join(" · "))
              : null,
          ),
        ),
      ),
    ),
    section(
      t("panel.timeline"),
      h(
        "ol",
        { class: "timeline" },
        ...dossier.timeline.map((entry) =>
          h("li", {}, h("time", { datetime: entry.sended }, formatDateTime(entry.sended)), " ", timelineText(entry)),
        ),
      ),
    ),
    section(
      t("panel.related"),
      dossier.relatedSignals.length
        ? h(
            "ul",
            { class: "signals" },
            ...dossier.relatedSignals.map((signal) =>
              h(
                "li",
                {},
                h("strong", {}, t(`signal.${signal.kind}`)),
                " ",
                signal.title,
                h(
                  "span",
                  { class: "meta" },
                  [formatDateTime(signal.at), signal.distanceMetres !== null ? `${signal.distanceMetres} m` : null]
                    .filter(Boolean)
                    .join(" · "),
                ),
              ),
            ),
          )
        : h("p", {}, t("panel.noRelated")),
    ),
  );
}

export function createIncidentPanel(
  api: Api,
  onClosed: (id: string) => void,
  onError: (error: Error) => void,
): IncidentPanel {
  const heading = h("h2", { id: "incident-panel-heading", tabindex: "-1" });
  const body = h("div", { class: "panel-body" });
  const closeButton = h("button", { type: "button", class: "close", "aria-label": t("panel.close") }, "×");
  const element = h(
    "div",
    { class: "incident-panel", role: "dialog", "aria-labelledby": "incident-panel-heading", hidden: true },
    h("div", { class: "panel-header" }, heading, closeButton),
    body,
  );
  let openId: string | null = null;
  let unsubscribe: (() => void) | undefined;

  const showDossier = (masked: MaskedDetail | undefined) => {
    if (!masked) return;
    const dossier = readFragment(DossierDetail, masked);
    heading.textContent = readFragment(DossierSummary, dossier).title;
    drawDossier(body, dossier);
  };

  async function load(id: string): Promise<void> {
    const exercise = exerciseMessageUuid(id);
    if (exercise) {
      const { p2000Message } = await api.request(ExerciseQuery, { uuid: exercise });
      if (openId !== id || !p2000Message) return;
      const message = readFragment(ExerciseSummary, p2000Message);
      heading.textContent = `${t("map.exercise")}: ${message.message}`;
      replaceChildren(
        body,
        facts([
          [t("panel.place"), message.city],
          [t("panel.region"), message.region?.name],
          [t("panel.started"), formatDateTime(message.sended)],
        ]),
        section(t("panel.messages"), h("p", {}, message.message)),
      );
      return;
    }
    const { p2000Dossiers } = await api.request(DossierQuery, { uuid: id });
    if (openId === id) showDossier(p2000Dossiers[0]);
  }

  function close(): void {
    const id = openId;
    if (!id) return;
    openId = null;
    unsubscribe?.();
    unsubscribe = undefined;
    element.hidden = true;
    onClosed(id);
  }

  closeButton.addEventListener("click", close);
  element.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });

  return {
    element,
    get openId() {
      return openId;
    },
    open(id) {
      if (openId === id) return heading.focus();
      unsubscribe?.();
      openId = id;
      element.hidden = false;
      heading.textContent = t("panel.loading");
      body.replaceChildren();
      heading.focus();
      if (!exerciseMessageUuid(id)) {
        unsubscribe = api.subscribe(
          DossierSubscription,
          { uuid: id },
          (data) => showDossier(data.p2000Dossier ?? undefined),
          onError,
        );
      }
      load(id).catch(onError);
    },
    close,
    reload: async () => {
      if (openId) await load(openId);
    },
  };
}
