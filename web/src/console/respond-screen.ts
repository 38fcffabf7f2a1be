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
import "./console.css";
import "./monitors/monitor-texts.ts";
import { graphql } from "../api/graphql.ts";
import { ApiError, type Api } from "../api/client.ts";
import type { Screen } from "../context.ts";
import { h } from "../dom.ts";
import { addTexts, formatDateTime, language, t, withLanguage } from "../i18n.ts";
import { plainTextLine } from "../plain-words.ts";
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
});

const RespondMutation = graphql(`
  mutation ConsoleRespond($token: String!, $status: String!) {
    respondOnTheWay(token: $token, status: $status) {
      status
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

export const respondScreen: Screen = (root, { session, api }) => {
  const token = respondToken();
  history.replaceState(null, "", withLanguage("/respond"));
  document.title = `${t("respond.heading")} · ${t("app.title")}`;
  const outcome = h("output", { class: "form-status", "aria-live": "polite" });
  const say = (message: string) => (outcome.textContent = message);
  const current = h("p", { class: "respond-current", id: "respond-current" });
  const showCurrent = (status: string | null | undefined) =>
    (current.textContent = status === "going" || status === "cancelled" ? t(`respond.current.${status}`) : "");
  const answer = (status: "going" | "cancelled") => {
    const button = actionButton(
      t(`respond.${status}`),
      async () => {
        const { respondOnTheWay } = await session.auth.request(RespondMutation, { token, status });
        say(t(`respond.saved.${respondOnTheWay?.status === "going" ? "going" : "cancelled"}`));
        showCurrent(respondOnTheWay?.status);
      },
      (message) => say(refusal(message)),
      { className: status === "going" ? "primary" : undefined },
    );
    button.value = status;
    return button;
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
      showCurrent(respondLink.status);
      section.append(
        h("p", {}, t("respond.why")),
        ...(incident ? [incident] : []),
        current,
        h("p", { class: "respond-buttons" }, answer("going"), answer("cancelled")),
        outcome,
        h(
          "p",
          { class: "field-hint" },
          t("respond.validUntil").replace("{time}", formatDateTime(respondLink.expiresAt)),
        ),
      );
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
      section.append(
        h("p", {}, t("respond.why")),
        current,
        h("p", { class: "respond-buttons" }, answer("going"), answer("cancelled")),
        outcome,
      );
      say(code === "NETWORK_ERROR" ? t("form.offline") : refusal(message));
    },
  );
  return () => {
    closed = true;
    root.replaceChildren();
  };
};
