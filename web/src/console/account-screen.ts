// The person's own account: their display name and password (the current one asked for when they
// have one; a magic-link-only account sets its first), where they are signed in (each session with
// its address, browser and last activity), and signing out one of them or every one but this.
import { graphql } from "../api/graphql.ts";
import { append, h, replaceChildren } from "../dom.ts";
import { addTexts, formatDateTime, t } from "../i18n.ts";
import type { ConsoleScreen } from "./console-context.ts";
import { confirmDialog } from "./confirm.ts";
import { actionButton, consoleForm, textField } from "./form.ts";

addTexts({
  "account.heading": { nl: "Profiel en sessies", en: "Profile and sessions" },
  "account.profile": { nl: "Profiel", en: "Profile" },
  "account.displayName": { nl: "Naam", en: "Display name" },
  "account.saved": { nl: "Opgeslagen.", en: "Saved." },
  "account.password": { nl: "Wachtwoord", en: "Password" },
  "account.firstPassword": {
    nl: "Je logt nu in met links per e-mail; met een wachtwoord kan het ook zo.",
    en: "You sign in with e-mailed links now; with a password you can also sign in directly.",
  },
  "account.currentPassword": { nl: "Huidig wachtwoord", en: "Current password" },
  "account.newPassword": { nl: "Nieuw wachtwoord", en: "New password" },
  "account.changePassword": { nl: "Wachtwoord wijzigen", en: "Change password" },
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

const UpdateMeMutation = graphql(`
  mutation ConsoleUpdateMe($displayName: String!) {
    updateMe(input: { displayName: $displayName }) {
      displayName
    }
  }
`);

const ChangePasswordMutation = graphql(`
  mutation ConsoleChangePassword($currentPassword: String, $newPassword: String!) {
    changePassword(input: { currentPassword: $currentPassword, newPassword: $newPassword })
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

export const accountScreen: ConsoleScreen = (root, { session, me, reload }) => {
  const displayName = textField({
    id: "account-name",
    label: t("account.displayName"),
    value: me?.me?.displayName ?? "",
    required: true,
    autocomplete: "name",
    apiNames: ["displayName", "name"],
  });
  const profile = consoleForm({
    id: "profile-form",
    fields: [displayName],
    submitLabel: t("console.save"),
    submit: async () => {
      await session.api.request(UpdateMeMutation, { displayName: displayName.control.value });
      reload();
      return t("account.saved");
    },
  });

  const hasPassword = me?.me?.hasPassword ?? true;
  const currentPassword = textField({
    id: "account-current-password",
    label: t("account.currentPassword"),
    type: "password",
    autocomplete: "current-password",
    required: true,
    apiNames: ["currentPassword", "current password"],
  });
  const newPassword = textField({
    id: "account-new-password",
    label: t("account.newPassword"),
    type: "password",
    autocomplete: "new-password",
    required: true,
    hint: t("console.passwordRules"),
    apiNames: ["newPassword", "password"],
  });
  const password = consoleForm({
    id: "password-form",
    fields: hasPassword ? [currentPassword, newPassword] : [newPassword],
    submitLabel: t("account.changePassword"),
    submit: async () => {
      const { changePassword } = await session.api.request(ChangePasswordMutation, {
        currentPassword: hasPassword ? currentPassword.control.value : null,
        newPassword: newPassword.control.value,
      });
      currentPassword.control.value = "";
      newPassword.control.value = "";
      await showSessions();
      return changePassword;
    },
  });

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

  append(
    root,
    h("h1", {}, t("account.heading")),
    h(
      "section",
      { class: "card", "aria-labelledby": "profile-heading" },
      h("h2", { id: "profile-heading" }, t("account.profile")),
      profile.element,
    ),
    h(
      "section",
      { class: "card", "aria-labelledby": "password-heading" },
      h("h2", { id: "password-heading" }, t("account.password")),
      hasPassword ? null : h("p", {}, t("account.firstPassword")),
      password.element,
    ),
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
