// The page behind the password-reset link (/auth/reset-password?token=…, the path the e-mail has):
// a new password through resetPassword, whose token is the link's. The token leaves the address bar
// at once (kept in memory for the form), so it stays out of the history.
import "./console.css";
import "./console-texts.ts";
import { ResetPasswordMutation } from "../account/account-queries.ts";
import type { Screen } from "../context.ts";
import { h } from "../dom.ts";
import { addTexts, t, withLanguage } from "../i18n.ts";
import { consoleForm, textField } from "./form.ts";

addTexts({
  "reset.heading": { nl: "Nieuw wachtwoord kiezen", en: "Choose a new password" },
  "reset.newPassword": { nl: "Nieuw wachtwoord", en: "New password" },
  "reset.submit": { nl: "Wachtwoord opslaan", en: "Save the password" },
  "reset.signIn": { nl: "Naar inloggen", en: "To sign in" },
});

export const resetPasswordScreen: Screen = (root, { session }) => {
  const token = new URLSearchParams(location.search).get("token") ?? "";
  history.replaceState(null, "", withLanguage("/auth/reset-password"));
  const password = textField({
    id: "reset-password",
    label: t("reset.newPassword"),
    type: "password",
    autocomplete: "new-password",
    required: true,
    hint: t("console.passwordRules"),
    apiNames: ["newPassword", "password"],
  });
  const done = h("p", { hidden: true }, h("a", { href: withLanguage("/console/sign-in") }, t("reset.signIn")));
  const form = consoleForm({
    id: "reset-form",
    fields: [password],
    submitLabel: t("reset.submit"),
    submit: async () => {
      const { resetPassword } = await session.auth.request(ResetPasswordMutation, {
        token,
        newPassword: password.control.value,
      });
      done.hidden = false;
      return resetPassword;
    },
  });
  root.append(
    h(
      "section",
      { class: "console-narrow", "aria-labelledby": "reset-heading" },
      h("h1", { id: "reset-heading" }, t("reset.heading")),
      form.element,
      done,
    ),
  );
  password.control.focus();
  return () => root.replaceChildren();
};
