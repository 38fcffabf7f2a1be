// The form a page for signed-in users only (WEB_REQUIRE_SIGN_IN) shows first: e-mail and
// password, the API's own error beside the form, nothing typed lost on an error.
import { ApiError } from "../api/client.ts";
import { h, replaceChildren } from "../dom.ts";
import { addTexts, t } from "../i18n.ts";
import { signIn } from "./page-credential.ts";

addTexts({
  "signIn.title": { nl: "Inloggen", en: "Sign in" },
  "signIn.why": {
    nl: "Deze kaart is alleen voor ingelogde gebruikers.",
    en: "This map is for signed-in users only.",
  },
  "signIn.email": { nl: "E-mailadres", en: "E-mail address" },
  "signIn.password": { nl: "Wachtwoord", en: "Password" },
  "signIn.submit": { nl: "Inloggen", en: "Sign in" },
  "signIn.busy": { nl: "Bezig met inloggen…", en: "Signing in…" },
});

export function showSignInForm(
  body: HTMLElement,
  graphqlPath: string,
  webClientToken: string,
  signedIn: (pageToken: string) => void,
): void {
  const email = h("input", { id: "sign-in-email", type: "email", autocomplete: "username", required: true });
  const password = h("input", {
    id: "sign-in-password",
    type: "password",
    autocomplete: "current-password",
    required: true,
  });
  const error = h("p", { id: "sign-in-error", class: "form-error", role: "alert" });
  const submit = h("button", { type: "submit" }, t("signIn.submit"));
  const form = h(
    "form",
    { class: "sign-in", "aria-describedby": "sign-in-error" },
    h("label", { for: "sign-in-email" }, t("signIn.email")),
    email,
    h("label", { for: "sign-in-password" }, t("signIn.password")),
    password,
    error,
    submit,
  );
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    submit.disabled = true;
    submit.textContent = t("signIn.busy");
    error.textContent = "";
    signIn(graphqlPath, webClientToken, email.value, password.value).then(signedIn, (failure: unknown) => {
      submit.disabled = false;
      submit.textContent = t("signIn.submit");
      error.textContent = failure instanceof ApiError || failure instanceof Error ? failure.message : String(failure);
      password.focus();
    });
  });
  replaceChildren(
    body,
    h("main", { id: "main", class: "sign-in-page" }, h("h1", {}, t("signIn.title")), h("p", {}, t("signIn.why")), form),
  );
  email.focus();
}
