// The person's own account: where they are signed in (each session with its address, browser and
// last activity), signing out one of them or every one but this, and signing out here.
import { graphql } from "../api/graphql.ts";
import { h, replaceChildren } from "../dom.ts";
import { addTexts, formatDateTime, t } from "../i18n.ts";
import type { ConsoleScreen } from "./console-context.ts";
import { confirmDialog } from "./confirm.ts";
import { actionButton, consoleForm } from "./form.ts";

addTexts({
  "account.heading": { nl: "Profiel en sessies", en: "Profile and sessions" },
  "account.sessions": { nl: "Waar je bent ingelogd", en: "Where you are signed in" },
  "account.thisSession": { nl: "deze sessie", en: "this session" },
  "account.lastActive": { nl: "laatst actief", en: "last active" },
  "account.since": { nl: "sinds", en: "since" },
  "account.endSession": { nl: "Uitloggen", en: "Sign out" },
  "account.endOthers": { nl: "Overal anders uitloggen", en: "Sign out everywhere else" },
  "account.endOthersQuestion": {
    nl: "Alle andere sessies uitloggen? Apparaten waar je bent ingelogd moeten opnieuw inloggen.",
    en: "Sign out every other session? Devices where you are signed in must sign in again.",
  },
  "account.endedOthers": { nl: "{count} andere sessie(s) uitgelogd.", en: "{count} other session(s) signed out." },
  "account.unknownBrowser": { nl: "onbekende browser", en: "unknown browser" },
});

const SessionsQuery = graphql(`
  query ConsoleSessions {
    mySessions {
      uuid
      created
      lastActivityAt
      ipAddress
      userAgent
      isCurrent
    }
  }
`);

const EndSessionMutation = graphql(`
  mutation ConsoleEndSession($uuid: String!) {
    deleteSession(uuid: $uuid)
  }
`);

const EndOtherSessionsMutation = graphql(`
  mutation ConsoleEndOtherSessions {
    deleteOtherSessions
  }
`);

export const accountScreen: ConsoleScreen = (root, { session }) => {
  const list = h("ul", { class: "rows", "aria-labelledby": "sessions-heading" });
  const endOthers = consoleForm({
    id: "end-others-form",
    fields: [],
    submitLabel: t("account.endOthers"),
    submit: async () => {
      if (!(await confirmDialog(t("account.endOthersQuestion"), t("account.endOthers")))) return;
      const { deleteOtherSessions } = await session.api.request(EndOtherSessionsMutation);
      await showSessions();
      return t("account.endedOthers").replace("{count}", String(deleteOtherSessions ?? 0));
    },
  });

  async function showSessions(): Promise<void> {
    const { mySessions } = await session.api.request(SessionsQuery);
    replaceChildren(
      list,
      ...(mySessions ?? []).map((one) =>
        h(
          "li",
          { class: "row" },
          h(
            "div",
            {},
            h(
              "p",
              { class: "row-title" },
              one.userAgent ?? t("account.unknownBrowser"),
              one.isCurrent ? h("span", { class: "badge" }, t("account.thisSession")) : null,
            ),
            h(
              "p",
              { class: "row-meta" },
              [
                one.ipAddress,
                `${t("account.lastActive")} ${formatDateTime(one.lastActivityAt)}`,
                `${t("account.since")} ${formatDateTime(one.created)}`,
              ]
                .filter(Boolean)
                .join(" · "),
            ),
          ),
          one.isCurrent
            ? null
            : actionButton(
                t("account.endSession"),
                async () => {
                  await session.api.request(EndSessionMutation, { uuid: one.uuid });
                  await showSessions();
                },
                endOthers.say,
                { ariaLabel: `${t("account.endSession")}: ${one.userAgent ?? t("account.unknownBrowser")}` },
              ),
        ),
      ),
    );
  }

  root.append(
    h("h1", {}, t("account.heading")),
    h(
      "section",
      { "aria-labelledby": "sessions-heading" },
      h("h2", { id: "sessions-heading" }, t("account.sessions")),
      list,
      endOthers.element,
    ),
  );
  void showSessions().catch((error: Error) => endOthers.say(error.message));
};
