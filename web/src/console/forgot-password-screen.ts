// A forgotten password: the reset link by e-mail (requestPasswordReset answers the same whether
// or not the address has an account, so the page says only that), and where the link is when the
// installation sends no e-mail (the service's log).
import { RequestResetMutation } from "../account/account-queries.ts";
import { h } from "../dom.ts";
import { addTexts, t } from "../i18n.ts";
import type { ConsoleScreen } from "./console-context.ts";
import { consoleForm, emailField } from "./form.ts";
import { mailInLogNotice } from "./installation.ts";

addTexts({
  "forgot.heading": { nl: "Wachtwoord vergeten", en: "Forgot your password" },
  "forgot.why": {
    nl: "We sturen een link waarmee je een nieuw wachtwoord kiest (een uur geldig).",
    en: "We send a link to choose a new password with (valid for an hour).",
  },
  "forgot.submit": { nl: "Stuur de link", en: "Send the link" },
  "forgot.sent": {
    nl: "Als er een account bij dit adres hoort, hebben we er een link naartoe gestuurd om het wachtwoord opnieuw in te stellen.",
    en: "If an account exists for that address, we have sent it a link to reset the password.",
  },
  "forgot.made": {
    nl: "Als er een account bij dit adres hoort, is er een link gemaakt om het wachtwoord opnieuw in te stellen.",
    en: "If an account exists for that address, a link to reset its password was made.",
  },
});

export const forgotPasswordScreen: ConsoleScreen = (root, { session, api }) => {
  const email = emailField("forgot-email");
  const form = consoleForm({
    id: "forgot-form",
    fields: [email],
    submitLabel: t("forgot.submit"),
    submit: async () => {
      // The API answers the same (in English) whether or not the address has an account.
      await session.auth.request(RequestResetMutation, { email: email.control.value });
      const notice = await mailInLogNotice(api);
      return notice ? `${t("forgot.made")} ${notice}` : t("forgot.sent");
    },
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
