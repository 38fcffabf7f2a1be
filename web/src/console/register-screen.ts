// Register: the person, their organisation and its first environment in one step (the register
// mutation), then a verification link by e-mail; the answer says where it went.
import { RegisterMutation } from "../account/account-queries.ts";
import { h, replaceChildren } from "../dom.ts";
import { addTexts, t } from "../i18n.ts";
import type { ConsoleScreen } from "./console-context.ts";
import { consoleForm, emailField, textField } from "./form.ts";

addTexts({
  "register.heading": { nl: "Account aanmaken", en: "Create an account" },
  "register.displayName": { nl: "Je naam", en: "Your name" },
  "register.organization": { nl: "Organisatie", en: "Organisation" },
  "register.organizationHint": {
    nl: "Bijvoorbeeld je team of je huishouden; leeg: \u201c<naam>'s organization\u201d.",
    en: "For example your team or household; empty: \u201c<name>'s organization\u201d.",
  },
  "register.environment": { nl: "Eerste omgeving", en: "First environment" },
  "register.environmentHint": {
    nl: "Monitors, kanalen en sleutels horen bij een omgeving; leeg: \u201cproduction\u201d.",
    en: "Monitors, channels and tokens belong to an environment; empty: \u201cproduction\u201d.",
  },
  "register.submit": { nl: "Account aanmaken", en: "Create account" },
  "register.done": {
    nl: "Je account is aangemaakt. We hebben een bevestigingslink gestuurd naar {email}: open die, en log daarna in.",
    en: "Your account is made. We have sent a verification link to {email}: open it, then sign in.",
  },
  "register.toSignIn": { nl: "Naar inloggen", en: "To sign in" },
  "register.haveAccount": { nl: "Al een account? Log in", en: "Have an account? Sign in" },
});

export const registerScreen: ConsoleScreen = (root, { session, link }) => {
  const displayName = textField({
    id: "register-name",
    label: t("register.displayName"),
    autocomplete: "name",
    apiNames: ["displayName", "display name", "name"],
  });
  const email = emailField("register-email");
  const password = textField({
    id: "register-password",
    label: t("console.password"),
    type: "password",
    autocomplete: "new-password",
    required: true,
    hint: t("console.passwordRules"),
    apiNames: ["password"],
  });
  const organization = textField({
    id: "register-organization",
    label: t("register.organization"),
    autocomplete: "organization",
    hint: t("register.organizationHint"),
    apiNames: ["organizationName", "organization"],
  });
  const environment = textField({
    id: "register-environment",
    label: t("register.environment"),
    hint: t("register.environmentHint"),
    apiNames: ["environmentName", "environment"],
  });
  const section = h("section", { class: "console-narrow", "aria-labelledby": "register-heading" });
  const form = consoleForm({
    id: "register-form",
    fields: [displayName, email, password, organization, environment],
    submitLabel: t("register.submit"),
    submit: async () => {
      const optional = (value: string) => value.trim() || null;
      await session.auth.request(RegisterMutation, {
        email: email.control.value,
        password: password.control.value,
        displayName: optional(displayName.control.value),
        organizationName: optional(organization.control.value),
        environmentName: optional(environment.control.value),
      });
      replaceChildren(
        section,
        h("h1", { id: "register-heading" }, t("register.heading")),
        h("p", { class: "notice", role: "status" }, t("register.done").replace("{email}", email.control.value)),
        h("p", {}, link("/console/sign-in", t("register.toSignIn"))),
      );
    },
  });
  section.append(
    h("h1", { id: "register-heading" }, t("register.heading")),
    form.element,
    h("p", {}, link("/console/sign-in", t("register.haveAccount"))),
  );
  root.append(section);
  displayName.control.focus();
};
