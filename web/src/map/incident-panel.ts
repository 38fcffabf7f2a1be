// The open incident: its messages, timeline, GRIP level, place and the signals of the other feeds
// that belong with it, live through the p2000Dossier subscription while it is open. A dialog that
// does not block the map: it takes focus when it opens, Escape or its button closes it, and focus
// goes back to where it came from. Its title says the incident in words (the urgency, the service
// and the kind of incident), its first lines the place, the units paged and when it started, and
// its messages keep the pager's own text, with the page in plain words in the reader's language
// under it. A demo page says so.
import type { Api } from "../api/client.ts";
import { readFragment, type FragmentOf, type ResultOf } from "../api/graphql.ts";
import { h, replaceChildren } from "../dom.ts";
import { formatDateTime, language, t, withLanguage } from "../i18n.ts";
import { kindName } from "../incident-kinds.ts";
import { plainTextLine } from "../plain-words.ts";
import { describeDossier, describeExercise, exerciseMessageUuid, type Incident } from "./incidents.ts";
import {
  badgeText,
  capcodeLabel,
  demoMark,
  headline,
  serviceName,
  unitsPaged,
  type CapcodeLike,
} from "./incident-words.ts";
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
  /** Opens an incident; what is `known` of it (the list's) is shown until its details are loaded. */
  open(id: string, known?: Incident): void;
  /** Closes it; `quietly`: without telling (Back closed it, the screen knows). */
  close(options?: { quietly?: boolean }): void;
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

/** "A1 (spoed)": the urgency code with what it means. */
function urgencyText(incident: Incident): string | null {
  if (!incident.urgencyCode) return null;
  const level = incident.urgencyLevel ? t(`urgencyWord.${incident.urgencyLevel}`) : null;
  return level && level !== `urgencyWord.${incident.urgencyLevel}`
    ? `${incident.urgencyCode} (${level})`
    : incident.urgencyCode;
}

/** The first lines: what, where, who was sent, when. */
function keyFacts(incident: Incident, units: string[], extra: Array<[string, string | number | null | undefined]>) {
  return facts([
    [t("panel.service"), serviceName(incident.disciplineSlug, incident.disciplineName)],
    [t("panel.kind"), kindName(incident.categoryCode, incident.categoryName)],
    [t("panel.urgency"), urgencyText(incident)],
    [t("panel.place"), incident.place],
    [t("panel.units"), units.join(" · ")],
    ...extra,
  ]);
}

/** The demo's note, above the facts of a synthetic incident. */
const demoNote = (incident: Incident) => (incident.demo ? h("p", { class: "demo-note" }, t("demo.note")) : null);

/** One page as the pager showed it and in plain words, with its time and the units it went to. */
function messageItem(
  message: { sended: string; message: string; plainText: string | null; isDemo: boolean },
  capcodes: CapcodeLike[],
  /** Its own units line: for a dossier of several messages (the facts above name them all). */
  ownUnits: boolean,
) {
  const units = ownUnits ? unitsPaged(capcodes) : [];
  const all = capcodes.map(capcodeLabel);
  return h(
    "li",
    {},
    h("time", { datetime: message.sended }, formatDateTime(message.sended)),
    message.isDemo ? " " : null,
    message.isDemo ? demoMark() : null,
    h("p", { class: "page-text", lang: "nl" }, message.message),
    plainTextLine(message.plainText, message.message),
    units.length ? h("p", { class: "capcodes" }, `${t("panel.units")}: ${units.join(" · ")}`) : null,
    // Every capcode the page went to (group calls and monitor codes too), for who wants them all.
    all.length ? h("p", { class: "capcodes all-capcodes" }, `${t("panel.capcodes")}: ${all.join(" · ")}`) : null,
  );
}

function drawDossier(title: HTMLElement, body: HTMLElement, dossier: Detail): void {
  const summary = readFragment(DossierSummary, dossier);
  // A dossier without a position is not on the map, but a link can open its panel.
  const incident = describeDossier(summary);
  drawTitle(title, incident);
  const messageCapcodes: CapcodeLike[][] = dossier.messages.map((message) => message.capcodes);
  replaceChildren(
    body,
    demoNote(incident),
    keyFacts(incident, unitsPaged(messageCapcodes.flat()), [
      [t("panel.grip"), summary.gripLevel],
      [t("panel.region"), summary.region?.name],
      [t("panel.started"), formatDateTime(summary.firstSended)],
    ]),
    // Following it is the console's (a signed-in person's channels): followIncident there.
    h(
      "p",
      { class: "follow-link" },
      h(
        "a",
        { href: withLanguage(`/console/monitors/follow/${summary.uuid}`), id: "incident-follow" },
        t("panel.follow"),
      ),
    ),
    section(
      t("panel.messages"),
      h(
        "ol",
        { class: "messages" },
        ...dossier.messages.map((message, index) =>
          messageItem(message, messageCapcodes[index], dossier.messages.length > 1),
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

/** The panel's title: the urgency, the service and the kind, and the demo mark. */
function drawTitle(title: HTMLElement, incident: Incident): void {
  const badge = badgeText(incident);
  replaceChildren(
    title,
    badge ? h("span", { class: "badge" }, badge) : null,
    badge ? " " : null,
    headline(incident),
    incident.demo ? " " : null,
    incident.demo ? demoMark() : null,
  );
}

export function createIncidentPanel(
  api: Api,
  onClosed: (id: string) => void,
  onError: (error: Error) => void,
): IncidentPanel {
  const heading = h("h2", { id: "incident-panel-heading", tabindex: "-1" });
  // It scrolls on its own beside the map: focusable, so a keyboard scrolls it too.
  const body = h("div", { class: "panel-body", tabindex: "0", role: "region", "aria-label": t("panel.details") });
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
    drawDossier(heading, body, readFragment(DossierDetail, masked));
  };

  async function load(id: string): Promise<void> {
    const exercise = exerciseMessageUuid(id);
    if (exercise) {
      const { p2000Message } = await api.request(ExerciseQuery, { uuid: exercise, language });
      if (openId !== id || !p2000Message) return;
      const message = readFragment(ExerciseSummary, p2000Message);
      const incident = describeExercise(message);
      drawTitle(heading, incident);
      const capcodes: CapcodeLike[] = p2000Message.capcodes;
      replaceChildren(
        body,
        demoNote(incident),
        keyFacts(incident, unitsPaged(capcodes), [
          [t("panel.region"), message.region?.name],
          [t("panel.started"), formatDateTime(message.sended)],
        ]),
        section(
          t("panel.messages"),
          h(
            "ol",
            { class: "messages" },
            messageItem({ ...message, plainText: p2000Message.plainText }, capcodes, false),
          ),
        ),
      );
      return;
    }
    const { p2000Dossiers } = await api.request(DossierQuery, { uuid: id, language });
    if (openId === id) showDossier(p2000Dossiers[0]);
  }

  function close(options: { quietly?: boolean } = {}): void {
    const id = openId;
    if (!id) return;
    openId = null;
    unsubscribe?.();
    unsubscribe = undefined;
    element.hidden = true;
    if (!options.quietly) onClosed(id);
  }

  closeButton.addEventListener("click", () => close());
  element.addEventListener("keydown", (event) => {
    if (event.key === "Escape") close();
  });

  return {
    element,
    get openId() {
      return openId;
    },
    open(id, known) {
      if (openId === id) return heading.focus({ preventScroll: true });
      unsubscribe?.();
      openId = id;
      element.hidden = false;
      // What the list knows is shown at once; the messages, units and timeline follow.
      if (known) {
        drawTitle(heading, known);
        replaceChildren(
          body,
          demoNote(known),
          keyFacts(known, [], []),
          h("p", { class: "loading" }, t("panel.loading")),
        );
      } else {
        heading.textContent = t("panel.loading");
        body.replaceChildren();
      }
      // The screen puts the panel in view (map-screen.ts): the focus does not scroll the page.
      heading.focus({ preventScroll: true });
      if (!exerciseMessageUuid(id)) {
        unsubscribe = api.subscribe(
          DossierSubscription,
          { uuid: id, language },
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
