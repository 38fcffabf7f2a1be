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

  async function show(): Promise<void> {
    const { apiTokens, apiScopes } = await session.api.request(TokensQuery);
    if (!scopesSlot.childElementCount) {
      scopesSlot.append(
        h("legend", {}, t("tokens.scopes")),
        h("p", { class: "field-hint" }, t("tokens.scopesHint")),
        ...apiScopes.map((scope) =>
          h(
            "label",
            { class: "checkbox" },
            h("input", { type: "checkbox", value: scope.name }),
            ` ${scope.name}: ${scope.description}`,
          ),
        ),
      );
    }
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
