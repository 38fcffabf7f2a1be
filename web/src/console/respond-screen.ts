// The page behind a notification's respond link (/respond?token=…, the path notifications carry):
// two buttons that answer "going" or "cancelled" through respondOnTheWay, whose credential is the
// link's signed token. Opening the link changes nothing (mail scanners follow links); only a button
// press does. The token leaves the address bar at once, kept in memory for the buttons.
import "./console.css";
import { graphql } from "../api/graphql.ts";
import type { Screen } from "../context.ts";
import { h } from "../dom.ts";
import { addTexts, t, withLanguage } from "../i18n.ts";
import { actionButton } from "./form.ts";

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
});

const RespondMutation = graphql(`
  mutation ConsoleRespond($token: String!, $status: String!) {
    respondOnTheWay(token: $token, status: $status) {
      status
    }
  }
`);

export const respondScreen: Screen = (root, { session }) => {
  const token = new URLSearchParams(location.search).get("token") ?? "";
  history.replaceState(null, "", withLanguage("/respond"));
  document.title = `${t("respond.heading")} · ${t("app.title")}`;
  const outcome = h("output", { class: "form-status", "aria-live": "polite" });
  const say = (message: string) => (outcome.textContent = message);
  const answer = (status: "going" | "cancelled") => {
    const button = actionButton(
      t(`respond.${status}`),
      async () => {
        const { respondOnTheWay } = await session.auth.request(RespondMutation, { token, status });
        say(t(`respond.saved.${respondOnTheWay?.status === "going" ? "going" : "cancelled"}`));
      },
      say,
      { className: status === "going" ? "primary" : undefined },
    );
    button.value = status;
    return button;
  };
  root.append(
    h(
      "section",
      { class: "console-narrow respond", "aria-labelledby": "respond-heading" },
      h("h1", { id: "respond-heading" }, t("respond.heading")),
      h("p", {}, t("respond.why")),
      h("p", { class: "respond-buttons" }, answer("going"), answer("cancelled")),
      outcome,
    ),
  );
  return () => root.replaceChildren();
};
