// Sign in with a password or a magic link (which returns to the console with the session), with
// the links to register and to reset a forgotten password. It says why a session ended, and that
// an address was verified when the verification link led here.
import { LoginMutation, MagicLinkMutation } from "../account/account-queries.ts";
import { h } from "../dom.ts";
import { addTexts, t } from "../i18n.ts";
import type { ConsoleScreen } from "./console-context.ts";
import { consoleForm, emailField, textField } from "./form.ts";
import { mailInLogNotice } from "./installation.ts";
import { rememberAfterMagicLink } from "./magic-link-screen.ts";

addTexts({
  "signIn.heading": { nl: "Inloggen", en: "Sign in" },
  "signIn.submit": { nl: "Inloggen", en: "Sign in" },
  "signIn.magicHeading": { nl: "Of: een inloglink per e-mail", en: "Or: a sign-in link by e-mail" },
  "signIn.magicSubmit": { nl: "Stuur mij een inloglink", en: "E-mail me a sign-in link" },
  "signIn.magicSent": {
    nl: "Als er een account bij dit adres hoort, hebben we er een inloglink naartoe gestuurd.",
    en: "If an account exists for that address, we have sent it a sign-in link.",
  },
  "signIn.magicMade": {
    nl: "Als er een account bij dit adres hoort, is er een inloglink voor gemaakt.",
    en: "If an account exists for that address, a sign-in link was made for it.",
  },
  "signIn.register": { nl: "Nog geen account? Registreer", en: "No account yet? Register" },
  "signIn.forgot": { nl: "Wachtwoord vergeten?", en: "Forgot your password?" },
  "signIn.verified": {
    nl: "Je e-mailadres is bevestigd. Log in om verder te gaan.",
    en: "Your e-mail address is verified. Sign in to go on.",
  },
  "signIn.verifyFailed": {
    nl: "Deze bevestigingslink is niet (meer) geldig: hij is al gebruikt of verlopen.",
    en: "This verification link is not valid: it was used already or has expired.",
  },
  "signIn.ended.refused": {
    nl: "Je sessie is beëindigd: je bent elders uitgelogd, of je sessie is twee keer gebruikt (mogelijk door iemand anders). Log opnieuw in.",
    en: "Your session has ended: you were signed out elsewhere, or your session was used twice (perhaps by someone else). Sign in again.",
  },
  "signIn.ended.signedOut": { nl: "Je bent uitgelogd.", en: "You are signed out." },
});

/** A path inside the console to return to after signing in (never another site). */
export function nextPath(): string {
  const next = new URLSearchParams(location.search).get("next") ?? "";
  return next.startsWith("/console") && !next.startsWith("/console/sign-in") ? next : "/console";
}

export const signInScreen: ConsoleScreen = (root, { session, go, link, api }) => {
  const query = new URLSearchParams(location.search);
  const notices: HTMLElement[] = [];
  if (session.ended) {
    notices.push(
      h(
        "p",
        { class: session.ended === "refused" ? "notice warning" : "notice", role: "status" },
        t(`signIn.ended.${session.ended}`),
      ),
    );
  }
  if (query.get("verified") === "1") notices.push(h("p", { class: "notice", role: "status" }, t("signIn.verified")));
  if (query.get("verified") === "0") {
    notices.push(h("p", { class: "notice warning", role: "alert" }, t("signIn.verifyFailed")));
  }

  const email = emailField("sign-in-email", "username");
  const password = textField({
    id: "sign-in-password",
    label: t("console.password"),
    type: "password",
    autocomplete: "current-password",
    required: true,
    apiNames: ["password", "credentials"],
  });
  const passwordForm = consoleForm({
    id: "sign-in-form",
    fields: [email, password],
    submitLabel: t("signIn.submit"),
    submit: async () => {
      const { login } = await session.auth.request(LoginMutation, {
        email: email.control.value,
        password: password.control.value,
      });
      if (!login?.token || !login.refreshToken) throw new Error(t("error.load"));
      session.start({ accessToken: login.token, refreshToken: login.refreshToken });
      go(nextPath());
    },
  });

  const magicEmail = emailField("magic-link-email");
  const magicForm = consoleForm({
    id: "magic-link-form",
    fields: [magicEmail],
    submitLabel: t("signIn.magicSubmit"),
    submit: async () => {
      rememberAfterMagicLink(nextPath());
      const returnTo = new URL("/console/magic-link", location.origin).href;
      // The API answers the same whether or not the address has an account; said in the page's language.
      await session.auth.request(MagicLinkMutation, { email: magicEmail.control.value, returnTo });
      // Where the link is when the installation sends no e-mail: the service's log.
      const notice = await mailInLogNotice(api);
      return notice ? `${t("signIn.magicMade")} ${notice}` : t("signIn.magicSent");
    },
  });

  root.append(
    h(
      "section",
      { class: "console-narrow", "aria-labelledby": "sign-in-heading" },
      h("h1", { id: "sign-in-heading" }, t("signIn.heading")),
      ...notices,
      passwordForm.element,
      h("p", {}, link("/console/forgot-password", t("signIn.forgot"))),
      h("p", {}, link("/console/register", t("signIn.register"))),
      h("h2", {}, t("signIn.magicHeading")),
      magicForm.element,
    ),
  );
  email.control.focus();
};
