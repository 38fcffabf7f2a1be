// The page behind a notification's respond link (/respond?token=…, the path notifications carry):
// two buttons that answer "going" or "cancelled" through respondOnTheWay, whose credential is the
// link's signed token. Opening the link changes nothing (mail scanners follow links); only a button
// press does. The token leaves the address bar at once, kept in memory for the buttons.
//
// The link is checked as the page opens (issue 44), not only after a press. A missing, cut-off or
// malformed token, or one whose expiry has passed, is said at once from the token itself (its
// payload "notification.monitor.incident.channel.expiry", app_private.responder_token), with no
// request. Any other token is asked of the service with respondLink, which checks it exactly as
// respondOnTheWay does (signature, expiry, the notification still there) and writes nothing: a
// refused link is said in the same words as a refused press, without buttons; a valid one shows its
// incident (public data, read with the page's credential) with the notified page in plain words in
// the reader's language, the recipient's current answer, and the buttons.
//
// Issue 49: after "going" the responder may say when they will be there (quick buttons: the same
// answer again with arrivalMinutes; going is recorded at the first tap, the estimate is extra), and
// under the answer they may say whether they are available for alerts at all, until a time
// (respondAvailability, the same link as credential): the station screen and the console show both.
import "./console.css";
import "./monitors/monitor-texts.ts";
import { graphql } from "../api/graphql.ts";
import { ApiError, type Api } from "../api/client.ts";
import type { Screen } from "../context.ts";
import { h, replaceChildren } from "../dom.ts";
import { addTexts, dateFormat, formatDateTime, language, t, withLanguage } from "../i18n.ts";
import { plainTextLine } from "../plain-words.ts";
import { availabilityForm, type Availability } from "./availability.ts";
import { actionButton } from "./form.ts";
import { disciplineName, urgencyName } from "./monitors/criteria-fields.ts";

addTexts({
  "respond.heading": { nl: "Ga je?", en: "Are you going?" },
  "respond.why": {
    nl: "Laat je team weten of je onderweg bent naar deze melding.",
    en: "Let your team know whether you are on your way to this alert.",
  },
  "respond.going": { nl: "Ik ben onderweg", en: "I am on my way" },
  "respond.cancelled": { nl: "Ik kom niet", en: "I am not coming" },
  "respond.saved.going": { nl: "Opgeslagen: je bent onderweg.", en: "Saved: you are on your way." },
  "respond.saved.cancelled": { nl: "Opgeslagen: je komt niet.", en: "Saved: you are not coming." },
  "respond.invalid": { nl: "Deze reageerlink is niet geldig.", en: "This respond link is not valid." },
  "respond.invalidWhy": {
    nl: "Hij is onvolledig of veranderd. Open de link uit de melding zelf (sommige apps knippen lange links af).",
    en: "It is incomplete or was changed. Open the link from the notification itself (some apps cut long links short).",
  },
  "respond.expired": { nl: "Deze reageerlink is verlopen.", en: "This respond link has expired." },
  "respond.expiredWhy": {
    nl: "Een reactie kan tot 24 uur na de melding; deze link gold tot {time}.",
    en: "Answers are taken until 24 hours after the notification; this link was valid until {time}.",
  },
  "respond.gone": {
    nl: "Deze reageerlink hoort bij een melding die niet meer bestaat.",
    en: "This respond link belongs to a notification that no longer exists.",
  },
  "respond.current.going": { nl: "Je hebt gezegd dat je onderweg bent.", en: "You said you are on your way." },
  "respond.current.cancelled": { nl: "Je hebt gezegd dat je niet komt.", en: "You said you are not coming." },
  "respond.checking": { nl: "De link wordt gecontroleerd…", en: "Checking the link…" },
  "respond.validUntil": { nl: "Je kunt reageren tot {time}.", en: "You can answer until {time}." },
  "respond.incident": { nl: "De melding", en: "The alert" },
  "respond.arrival": { nl: "Wanneer ben je er?", en: "When will you be there?" },
  "respond.minutes": { nl: "{minutes} min", en: "{minutes} min" },
  "respond.saved.arriving": {
    nl: "Opgeslagen: je bent onderweg, rond {time} daar.",
    en: "Saved: you are on your way, there around {time}.",
  },
  "respond.current.arriving": {
    nl: "Je hebt gezegd dat je onderweg bent, rond {time} daar.",
    en: "You said you are on your way, there around {time}.",
  },
  "respond.availability": { nl: "Ben je beschikbaar?", en: "Are you available?" },
  "respond.availabilityWhy": {
    nl: "Voor alle meldingen, niet alleen deze: het stationsscherm en de console van je team tonen het.",
    en: "For every alert, not only this one: the station screen and your team's console show it.",
  },
});

/** The arrival estimates offered after "going", in minutes. */
const ARRIVAL_MINUTES = [5, 10, 15, 30];

const RespondMutation = graphql(`
  mutation ConsoleRespond($token: String!, $status: String!, $arrivalMinutes: Int) {
    respondOnTheWay(token: $token, status: $status, arrivalMinutes: $arrivalMinutes) {
      status
      arrivesAt
    }
  }
`);

const AvailabilityMutation = graphql(`
  mutation ConsoleRespondAvailability($token: String!, $status: String, $until: DateTime) {
    respondAvailability(token: $token, status: $status, until: $until) {
      availability
      until
    }
  }
`);

const LinkQuery = graphql(`
  query ConsoleRespondLink($token: String!) {
    respondLink(token: $token) {
      dossierUuid
      messageUuid
      expiresAt
      status
      arrivesAt
      availability
      availableUntil
    }
  }
`);

const IncidentQuery = graphql(`
  query ConsoleRespondIncident($uuid: String!) {
    p2000Dossiers(filter: { dossier: { uuid: $uuid } }, first: 1) {
      uuid
      title
      lastSended
      street
      city
      urgency {
        code
        name
      }
      discipline {
        slug
        name
      }
    }
  }
`);

const MessageQuery = graphql(`
  query ConsoleRespondMessage($uuid: String!, $language: String!) {
    p2000Message(uuid: $uuid) {
      uuid
      message
      plainText(language: $language)
      sended
      street
      city
      urgency {
        code
        name
      }
      discipline {
        slug
        name
      }
    }
  }
`);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type TokenCheck =
  { state: "invalid" } | { state: "expired"; expires: Date } | { state: "ok"; incident: string; expires: Date };

/**
 * What can be told of a respond token without its key: its form (two base64url parts, the second
 * a 32-byte HMAC, as respond_on_the_way checks them), its payload's five fields, and its expiry.
 */
export function checkToken(token: string, now: number = Date.now()): TokenCheck {
  const parts = token.split(".");
  if (parts.length !== 2 || !/^[A-Za-z0-9_-]+$/.test(parts[0]) || !/^[A-Za-z0-9_-]{43}$/.test(parts[1]))
    return { state: "invalid" };
  let claims: string[];
  try {
    const base64 = parts[0].replace(/-/g, "+").replace(/_/g, "/");
    claims = atob(base64.padEnd(Math.ceil(base64.length / 4) * 4, "=")).split(".");
  } catch {
    return { state: "invalid" };
  }
  if (claims.length !== 5 || !claims.slice(0, 4).every((claim) => UUID.test(claim)) || !/^\d+$/.test(claims[4]))
    return { state: "invalid" };
  const expires = new Date(Number(claims[4]) * 1000);
  if (expires.getTime() < now) return { state: "expired", expires };
  return { state: "ok", incident: claims[2], expires };
}

/** The service's refusals of a respond link, in the reader's language. */
function refusal(message: string): string {
  if (message === "This respond link is not valid.") return t("respond.invalid");
  if (message === "This respond link has expired.") return t("respond.expired");
  if (message.startsWith("This respond link belongs to a notification")) return t("respond.gone");
  return message;
}

/** The incident the link is about (its dossier, else its message), as public data; null when not found. */
async function incidentOf(
  api: Api,
  link: { dossierUuid: string | null; messageUuid: string | null },
): Promise<HTMLElement | null> {
  const [dossiers, message] = await Promise.all([
    link.dossierUuid ? api.request(IncidentQuery, { uuid: link.dossierUuid }).catch(() => null) : null,
    link.messageUuid ? api.request(MessageQuery, { uuid: link.messageUuid, language }).catch(() => null) : null,
  ]);
  const dossier = dossiers?.p2000Dossiers[0];
  const found = dossier
    ? { ...dossier, text: dossier.title, at: dossier.lastSended }
    : message?.p2000Message
      ? { ...message.p2000Message, text: message.p2000Message.message, at: message.p2000Message.sended }
      : null;
  if (!found) return null;
  const facts = [
    found.urgency ? urgencyName(found.urgency.code, found.urgency.name) : null,
    found.discipline ? disciplineName(found.discipline.slug, found.discipline.name) : null,
    [found.street, found.city].filter(Boolean).join(", ") || null,
    formatDateTime(found.at),
  ].filter(Boolean);
  return h(
    "section",
    { class: "card respond-incident", id: "respond-incident", "aria-labelledby": "respond-incident-heading" },
    h("h2", { id: "respond-incident-heading" }, t("respond.incident")),
    h("p", { class: "row-title" }, found.text),
    // The page the notification was about, in plain words.
    plainTextLine(message?.p2000Message?.plainText, message?.p2000Message?.message),
    h("p", { class: "row-meta" }, facts.join(" · ")),
  );
}

/** The refusal of a link, said at once without buttons: not valid, expired (until when), or gone. */
function problem(kind: "invalid" | "expired" | "gone", expires: Date | null): HTMLElement {
  const why =
    kind === "invalid"
      ? t("respond.invalidWhy")
      : kind === "expired" && expires
        ? t("respond.expiredWhy").replace("{time}", formatDateTime(expires.toISOString()))
        : null;
  return h(
    "div",
    { class: "notice warning", role: "alert", id: "respond-problem" },
    h("p", {}, t(`respond.${kind}`)),
    why ? h("p", {}, why) : null,
  );
}

/** Where this tab keeps the link's token, which the address bar no longer shows, for a reload. */
const TOKEN_KEY = "nlis.respond-token";

/**
 * The link's token: from the address (kept in this tab's sessionStorage), or, when the page is
 * reloaded, the one kept; a new visit without one in its address has none.
 */
function respondToken(): string {
  const fromAddress = new URLSearchParams(location.search).get("token");
  if (fromAddress !== null) {
    sessionStorage.setItem(TOKEN_KEY, fromAddress);
    return fromAddress;
  }
  const navigation = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming | undefined;
  return navigation?.type === "reload" ? (sessionStorage.getItem(TOKEN_KEY) ?? "") : "";
}

/** A time of day in Dutch time ("14:35"), as an arrival is said. */
const timeOfDay = (iso: string) =>
  dateFormat({ timeStyle: "short", timeZone: "Europe/Amsterdam" }).format(new Date(iso));

export const respondScreen: Screen = (root, { session, api }) => {
  const token = respondToken();
  history.replaceState(null, "", withLanguage("/respond"));
  document.title = `${t("respond.heading")} · ${t("app.title")}`;
  const outcome = h("output", { class: "form-status", "aria-live": "polite" });
  const say = (message: string) => (outcome.textContent = message);
  const current = h("p", { class: "respond-current", id: "respond-current" });
  // The estimates, offered while the answer is "going".
  const arrival = h("div", { class: "respond-arrival", id: "respond-arrival" });
  const showCurrent = (status: string | null | undefined, arrivesAt: string | null = null) => {
    current.textContent =
      status === "going" && arrivesAt
        ? t("respond.current.arriving").replace("{time}", timeOfDay(arrivesAt))
        : status === "going" || status === "cancelled"
          ? t(`respond.current.${status}`)
          : "";
    replaceChildren(
      arrival,
      ...(status === "going"
        ? [
            h("p", { id: "respond-arrival-label" }, t("respond.arrival")),
            h(
              "p",
              { class: "respond-buttons", role: "group", "aria-labelledby": "respond-arrival-label" },
              ...ARRIVAL_MINUTES.map((minutes) =>
                respondButton(t("respond.minutes").replace("{minutes}", String(minutes)), "going", minutes),
              ),
            ),
          ]
        : []),
    );
  };
  /** A button that answers: going or cancelled, going with an arrival estimate. */
  function respondButton(label: string, status: "going" | "cancelled", arrivalMinutes: number | null = null) {
    return actionButton(
      label,
      async () => {
        const { respondOnTheWay } = await session.auth.request(RespondMutation, { token, status, arrivalMinutes });
        const arrivesAt = respondOnTheWay?.status === "going" ? (respondOnTheWay.arrivesAt ?? null) : null;
        say(
          arrivesAt
            ? t("respond.saved.arriving").replace("{time}", timeOfDay(arrivesAt))
            : t(`respond.saved.${respondOnTheWay?.status === "going" ? "going" : "cancelled"}`),
        );
        showCurrent(respondOnTheWay?.status, arrivesAt);
      },
      (message) => say(refusal(message)),
    );
  }
  const answer = (status: "going" | "cancelled") => {
    const button = respondButton(t(`respond.${status}`), status);
    if (status === "going") button.classList.add("primary");
    button.value = status;
    return button;
  };
  /** The answers: the buttons, the estimates after "going", what was said. */
  const answers = () => [
    current,
    h("p", { class: "respond-buttons" }, answer("going"), answer("cancelled")),
    arrival,
    outcome,
  ];
  /**
   * Available for alerts or not, with the same link, starting from what is stored (saving it
   * unchanged keeps it); a refused link said in the reader's language.
   */
  const availability = (current: Availability = { availability: null, until: null }) => {
    const form = availabilityForm({
      id: "respond-availability-form",
      label: t("availability.label"),
      current,
      submitLabel: t("console.save"),
      save: async (status, until) => {
        try {
          return (await session.auth.request(AvailabilityMutation, { token, status, until })).respondAvailability;
        } catch (error) {
          if (error instanceof ApiError && error.code === "NETWORK_ERROR") throw error;
          throw new Error(refusal((error as Error).message), { cause: error });
        }
      },
    });
    return h(
      "section",
      { class: "console-narrow respond-availability", "aria-labelledby": "respond-availability-heading" },
      h("h2", { id: "respond-availability-heading" }, t("respond.availability")),
      h("p", {}, t("respond.availabilityWhy")),
      form.element,
    );
  };
  const check = checkToken(token);
  const section = h(
    "section",
    { class: "console-narrow respond", "aria-labelledby": "respond-heading" },
    h("h1", { id: "respond-heading" }, t("respond.heading")),
  );
  root.append(section);
  if (check.state !== "ok") {
    // Said at once from the token itself, without buttons that could only fail.
    section.append(problem(check.state, check.state === "expired" ? check.expires : null));
    return () => root.replaceChildren();
  }
  const checking = h("p", { class: "field-hint", "aria-live": "polite" }, t("respond.checking"));
  section.append(checking);
  let closed = false;
  void session.auth.request(LinkQuery, { token }).then(
    async ({ respondLink }) => {
      if (closed) return;
      if (!respondLink) {
        checking.remove();
        section.append(problem("gone", null));
        return;
      }
      // The incident first, then the buttons under it: a card arriving above buttons already shown
      // would move them under a finger about to tap (a test's click landed beside them).
      const incident = await incidentOf(api, respondLink);
      if (closed) return;
      checking.remove();
      showCurrent(respondLink.status, respondLink.arrivesAt ?? null);
      section.append(
        h("p", {}, t("respond.why")),
        ...(incident ? [incident] : []),
        ...answers(),
        h(
          "p",
          { class: "field-hint" },
          t("respond.validUntil").replace("{time}", formatDateTime(respondLink.expiresAt)),
        ),
      );
      root.append(availability({ availability: respondLink.availability, until: respondLink.availableUntil ?? null }));
    },
    (error: unknown) => {
      if (closed) return;
      checking.remove();
      const code = error instanceof ApiError ? error.code : undefined;
      const message = (error as Error).message;
      if (code === "UNAUTHENTICATED" || code === "NOT_FOUND") {
        // The service refused the link (a forged or changed signature, or a notification gone).
        const kind =
          message === "This respond link has expired." ? "expired" : code === "NOT_FOUND" ? "gone" : "invalid";
        section.append(problem(kind, check.expires));
        return;
      }
      // The check could not be made (no connection): the buttons still work, checked when pressed.
      section.append(h("p", {}, t("respond.why")), ...answers());
      root.append(availability());
      say(code === "NETWORK_ERROR" ? t("form.offline") : refusal(message));
    },
  );
  return () => {
    closed = true;
    root.replaceChildren();
  };
};
