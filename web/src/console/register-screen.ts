// Register: the person, their organisation and its first environment in one step (the register
// mutation), then a verification link by e-mail; the answer says where it went (the inbox, or the
// service's log when the installation sends no e-mail). The hints say what an organisation and an
// environment are for, and the organisation's name when left empty, as the name typed makes it.
import { RegisterMutation } from "../account/account-queries.ts";
import { h, replaceChildren } from "../dom.ts";
import { addTexts, t } from "../i18n.ts";
import type { ConsoleScreen } from "./console-context.ts";
import { consoleForm, emailField, textField } from "./form.ts";
import { mailInLogNotice } from "./installation.ts";

addTexts({
  "register.heading": { nl: "Account aanmaken", en: "Create an account" },
  "register.displayName": { nl: "Je naam", en: "Your name" },
  "register.organization": { nl: "Organisatie", en: "Organisation" },
  "register.organizationHint": {
    nl: "Waar je omgevingen bij horen: je team, bedrijf of huishouden. Leeg: \u201c{default}\u201d.",
    en: "What your environments belong to: your team, company or household. Left empty: \u201c{default}\u201d.",
  },
  "register.yourName": { nl: "<je naam>", en: "<your name>" },
  "register.environment": { nl: "Eerste omgeving", en: "First environment" },
  "register.environmentHint": {
    nl: "Een omgeving heeft haar eigen monitors, kanalen en API-sleutels, los van andere omgevingen (bijvoorbeeld \u201cproduction\u201d en \u201ctest\u201d); je kunt er later meer maken. Leeg: \u201cproduction\u201d.",
    en: "An environment has its own monitors, channels and API tokens, apart from other environments (for example \u201cproduction\u201d and \u201ctest\u201d); you can make more later. Left empty: \u201cproduction\u201d.",
  },
  "register.submit": { nl: "Account aanmaken", en: "Create account" },
  "register.mailInLog": {
    nl: "Deze installatie verstuurt geen e-mail (er is geen SMTP_URL ingesteld): je bevestigingslink komt in het log van de dienst, op de regel die begint met \u201c>>> E-MAIL\u201d. Draai je de dienst zelf, kijk dan daar; anders vraag je hem aan wie hem beheert.",
    en: "This installation sends no e-mail (no SMTP_URL is set): your verification link will be in the service's log, on the line that starts with \u201c>>> E-MAIL\u201d. If you run the service, look there; otherwise ask whoever runs it.",
  },
  "register.done": {
    nl: "Je account is aangemaakt. We hebben een bevestigingslink gestuurd naar {email}: open die, en log daarna in.",
    en: "Your account is made. We have sent a verification link to {email}: open it, then sign in.",
  },
  "register.doneLog": {
    nl: "Je account is aangemaakt. Open de bevestigingslink voor {email} en log daarna in.",
    en: "Your account is made. Open the verification link for {email}, then sign in.",
  },
  "register.toSignIn": { nl: "Naar inloggen", en: "To sign in" },
  "register.haveAccount": { nl: "Al een account? Log in", en: "Have an account? Sign in" },
});

export const registerScreen: ConsoleScreen = (root, { session, link, api }) => {
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
  // The organisation's name when left empty, as register makes it: "<display name>'s organization",
  // or the e-mail address's first part without a name (migration 000084).
  const organizationHint = organization.element.querySelector(".field-hint")!;
  const showDefault = () => {
    const person =
      displayName.control.value.trim() ||
      email.control.value.trim().toLowerCase().split("@")[0] ||
      t("register.yourName");
    organizationHint.textContent = t("register.organizationHint").replace(
      "{default}",
      `${person.slice(0, 185)}'s organization`,
    );
  };
  displayName.control.addEventListener("input", showDefault);
  email.control.addEventListener("input", showDefault);
  showDefault();

  const section = h("section", { class: "console-narrow", "aria-labelledby": "register-heading" });
  // Said before and after: where the verification link goes when no e-mail leaves this installation.
  const mailNotice = h("p", { class: "notice", id: "register-mail-notice", hidden: true });
  const inLog = mailInLogNotice(api).then((notice) => {
    if (notice) {
      mailNotice.textContent = t("register.mailInLog");
      mailNotice.hidden = false;
    }
    return notice;
  });
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
      const notice = await inLog;
      replaceChildren(
        section,
        h("h1", { id: "register-heading" }, t("register.heading")),
        h(
          "p",
          { class: "notice", role: "status", id: "register-done" },
          notice
            ? `${t("register.doneLog").replace("{email}", email.control.value)} ${notice}`
            : t("register.done").replace("{email}", email.control.value),
        ),
        h("p", {}, link("/console/sign-in", t("register.toSignIn"))),
      );
    },
  });
  section.append(
    h("h1", { id: "register-heading" }, t("register.heading")),
    mailNotice,
    form.element,
    h("p", {}, link("/console/sign-in", t("register.haveAccount"))),
  );
  root.append(section);
  displayName.control.focus();
};
