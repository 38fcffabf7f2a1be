// API tokens of the current environment: make one with scopes and a validity (its secret shown
// once, with a copy button), the list with each token's preview, scopes, expiry and last use, and
// revoking one after a confirmation.
import { graphql } from "../api/graphql.ts";
import { h, replaceChildren } from "../dom.ts";
import { addTexts, formatDateTime, t } from "../i18n.ts";
import type { ConsoleScreen } from "./console-context.ts";
import { confirmDialog } from "./confirm.ts";
import { actionButton, consoleForm, selectField, statusLine, textField } from "./form.ts";
import { secretBox } from "./secret-box.ts";

addTexts({
  "tokens.heading": { nl: "API-sleutels", en: "API tokens" },
  "tokens.why": {
    nl: "Een API-sleutel laat een app (Home Assistant, je dashboard) de openbare gegevens lezen namens deze omgeving.",
    en: "An API token lets an app (Home Assistant, your dashboard) read the public data on behalf of this environment.",
  },
  "tokens.new": { nl: "Nieuwe API-sleutel", en: "New API token" },
  "tokens.scopes": { nl: "Extra rechten", en: "Extra scopes" },
  "tokens.scopesHint": {
    nl: "Geen: alleen openbare gegevens lezen, wat de meeste apps nodig hebben.",
    en: "None: read the public data only, which most apps need.",
  },
  "tokens.scopes.auth": {
    nl: "Voor een app die mensen laat registreren of inloggen",
    en: "For an app that signs people up or in",
  },
  "tokens.scopes.authHint": {
    nl: "Alleen voor een eigen website of app met een eigen inlogscherm voor zijn gebruikers (zoals deze console). Een dashboard of Home Assistant heeft ze niet nodig; wie zo'n sleutel heeft, kan namens je app accounts aanmaken en inlogpogingen doen.",
    en: "Only for your own website or app with its own sign-up or sign-in screen for its users (as this console has). A dashboard or Home Assistant needs none of them; whoever holds such a token can make accounts and try sign-ins on your app's behalf.",
  },
  "tokens.scope.auth:register": {
    nl: "Nieuwe gebruikers registreren: maakt een account, een organisatie en een omgeving, en stuurt de bevestigingsmail.",
    en: "Register new users: makes an account, an organisation and an environment, and sends the verification e-mail.",
  },
  "tokens.scope.auth:login": {
    nl: "Gebruikers laten inloggen met e-mailadres en wachtwoord, of ze een inloglink mailen.",
    en: "Sign users in with their e-mail address and password, or e-mail them a sign-in link.",
  },
  "tokens.scope.auth:password_reset": {
    nl: "Gebruikers die hun wachtwoord vergeten zijn een herstellink mailen.",
    en: "E-mail users who forgot their password a link to choose a new one.",
  },
  "tokens.validity": { nl: "Geldig", en: "Valid for" },
  "tokens.days": { nl: "{days} dagen", en: "{days} days" },
  "tokens.forever": { nl: "zonder einddatum", en: "without end" },
  "tokens.create": { nl: "Sleutel maken", en: "Make the token" },
  "tokens.secret": { nl: "Je nieuwe API-sleutel", en: "Your new API token" },
  "tokens.list": { nl: "Sleutels van deze omgeving", en: "Tokens of this environment" },
  "tokens.none": { nl: "Nog geen sleutels.", en: "No tokens yet." },
  "tokens.expires": { nl: "verloopt", en: "expires" },
  "tokens.lastUsed": { nl: "laatst gebruikt", en: "last used" },
  "tokens.revoke": { nl: "Intrekken", en: "Revoke" },
  "tokens.revokeQuestion": {
    nl: "Sleutel \u201c{name}\u201d intrekken? Apps die hem gebruiken werken dan meteen niet meer.",
    en: "Revoke the token \u201c{name}\u201d? Apps that use it stop working at once.",
  },
  "tokens.revoked": { nl: "Sleutel ingetrokken.", en: "Token revoked." },
});

const TokensQuery = graphql(`
  query ConsoleTokens {
    apiTokens {
      uuid
      name
      tokenPreview
      scopes
      expiresAt
      lastUsedAt
    }
    apiScopes {
      name
      description
    }
  }
`);

const CreateTokenMutation = graphql(`
  mutation ConsoleCreateToken($name: String!, $scopes: [String], $validDays: Int) {
    createApiToken(input: { name: $name, scopes: $scopes, validDays: $validDays }) {
      plainToken
    }
  }
`);

const RevokeTokenMutation = graphql(`
  mutation ConsoleRevokeToken($uuid: String!) {
    deleteApiToken(uuid: $uuid)
  }
`);

const VALIDITIES = ["30", "90", "365", ""];
/** Scopes that come with what they belong to (a receiver, a station screen), never on a token made here. */
const OWN_CREDENTIAL_SCOPES = new Set(["p2000:publish", "screen:read"]);

export const tokensScreen: ConsoleScreen = (root, { session }) => {
  const list = h("ul", { class: "rows", "aria-labelledby": "tokens-list-heading" });
  const secretSlot = h("div", {});
  const scopesSlot = h("fieldset", { class: "checkboxes" });
  const { element: status, say } = statusLine();

  const name = textField({ id: "token-name", label: t("console.name"), required: true, apiNames: ["name"] });
  const validity = selectField({
    id: "token-validity",
    label: t("tokens.validity"),
    value: "90",
    apiNames: ["validDays"],
    choices: VALIDITIES.map((days) => ({
      value: days,
      text: days ? t("tokens.days").replace("{days}", days) : t("tokens.forever"),
    })),
  });
  const form = consoleForm({
    id: "token-form",
    fields: [name, validity],
    extra: [scopesSlot],
    submitLabel: t("tokens.create"),
    submit: async () => {
      const scopes = [...scopesSlot.querySelectorAll<HTMLInputElement>("input:checked")].map((box) => box.value);
      const { createApiToken } = await session.api.request(CreateTokenMutation, {
        name: name.control.value,
        scopes,
        validDays: validity.control.value ? Number(validity.control.value) : null,
      });
      replaceChildren(secretSlot, secretBox("token-secret", t("tokens.secret"), createApiToken?.plainToken ?? ""));
      name.control.value = "";
      await show();
      (secretSlot.querySelector("input") as HTMLInputElement).focus();
    },
  });

  /**
   * Each scope in words (the API's description for one this page does not know), the auth:*
   * ones apart: only an app with its own sign-up or sign-in screen needs them.
   */
  function drawScopes(scopes: Array<{ name: string; description: string }>): void {
    const box = (scope: { name: string; description: string }) => {
      const key = `tokens.scope.${scope.name}`;
      const words = t(key) === key ? scope.description : t(key);
      return h(
        "label",
        { class: "checkbox" },
        h("input", { type: "checkbox", value: scope.name }),
        h("span", {}, h("code", {}, scope.name), `: ${words}`),
      );
    };
    const auth = scopes.filter((scope) => scope.name.startsWith("auth:"));
    // A receiver's scope comes with its receiver (the Receivers screen), a station screen's with its
    // pairing (the Screens screen); the API refuses them on a token.
    const other = scopes.filter((scope) => !scope.name.startsWith("auth:") && !OWN_CREDENTIAL_SCOPES.has(scope.name));
    scopesSlot.append(
      h("legend", {}, t("tokens.scopes")),
      h("p", { class: "field-hint" }, t("tokens.scopesHint")),
      ...other.map(box),
      ...(auth.length
        ? [
            h(
              "fieldset",
              { class: "checkboxes token-auth-scopes", "aria-describedby": "token-auth-scopes-hint" },
              h("legend", {}, t("tokens.scopes.auth")),
              h("p", { class: "field-hint", id: "token-auth-scopes-hint" }, t("tokens.scopes.authHint")),
              ...auth.map(box),
            ),
          ]
        : []),
    );
  }

  async function show(): Promise<void> {
    const { apiTokens, apiScopes } = await session.api.request(TokensQuery);
    if (!scopesSlot.childElementCount) drawScopes(apiScopes);
    const tokens = apiTokens ?? [];
    replaceChildren(
      list,
      ...(tokens.length
        ? tokens.map((token) =>
            h(
              "li",
              { class: "row" },
              h(
                "div",
                {},
                h("p", { class: "row-title" }, token.name, " ", h("code", {}, token.tokenPreview)),
                h(
                  "p",
                  { class: "row-meta" },
                  [
                    token.scopes.length ? token.scopes.join(", ") : null,
                    `${t("tokens.expires")} ${token.expiresAt ? formatDateTime(token.expiresAt) : t("console.never")}`,
                    token.lastUsedAt ? `${t("tokens.lastUsed")} ${formatDateTime(token.lastUsedAt)}` : null,
                  ]
                    .filter(Boolean)
                    .join(" · "),
                ),
              ),
              actionButton(
                t("tokens.revoke"),
                async () => {
                  const question = t("tokens.revokeQuestion").replace("{name}", token.name);
                  if (!(await confirmDialog(question, t("tokens.revoke")))) return;
                  await session.api.request(RevokeTokenMutation, { uuid: token.uuid });
                  await show();
                  say(t("tokens.revoked"));
                },
                say,
                { ariaLabel: `${t("tokens.revoke")}: ${token.name}`, className: "danger" },
              ),
            ),
          )
        : [h("li", { class: "empty" }, t("tokens.none"))]),
    );
  }

  root.append(
    h("h1", {}, t("tokens.heading")),
    h("p", {}, t("tokens.why")),
    h(
      "section",
      { class: "card", "aria-labelledby": "token-new-heading" },
      h("h2", { id: "token-new-heading" }, t("tokens.new")),
      form.element,
      secretSlot,
    ),
    h(
      "section",
      { "aria-labelledby": "tokens-list-heading" },
      h("h2", { id: "tokens-list-heading" }, t("tokens.list")),
      status,
      list,
    ),
  );
  void show().catch((error: Error) => say(error.message));
};
