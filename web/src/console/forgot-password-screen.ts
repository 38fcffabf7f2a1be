// A forgotten password: the reset link by e-mail (requestPasswordReset answers the same whether
// or not the address has an account, so the page says only that).
import { RequestResetMutation } from "../account/account-queries.ts";
import { h } from "../dom.ts";
import { addTexts, t } from "../i18n.ts";
import type { ConsoleScreen } from "./console-context.ts";
import { consoleForm, emailField } from "./form.ts";

addTexts({
  "forgot.heading": { nl: "Wachtwoord vergeten", en: "Forgot your password" },
  "forgot.why": {
    nl: "We sturen een link waarmee je een nieuw wachtwoord kiest (een uur geldig).",
    en: "We send a link to choose a new password with (valid for an hour).",
  },
  "forgot.submit": { nl: "Stuur de link", en: "Send the link" },
});

export const forgotPasswordScreen: ConsoleScreen = (root, { session }) => {
  const email = emailField("forgot-email");
  const form = consoleForm({
    id: "forgot-form",
    fields: [email],
    submitLabel: t("forgot.submit"),
    submit: async () =>
      (await session.auth.request(RequestResetMutation, { email: email.control.value })).requestPasswordReset,
  });
  root.append(
    h(
      "section",
      { class: "console-narrow", "aria-labelledby": "forgot-heading" },
      h("h1", { id: "forgot-heading" }, t("forgot.heading")),
      h("p", {}, t("forgot.why")),
      form.element,
    ),
  );
  email.control.focus();
};
