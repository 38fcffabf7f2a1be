// Organisations and their environments: make and rename them (updateOrganization, updateEnvironment), and switch the session to another
// environment (switchEnvironment gives a new token pair, which the session keeps; the console then
// shows that environment's tokens, channels and monitors).
import { graphql } from "../api/graphql.ts";
import { h, replaceChildren } from "../dom.ts";
import { addTexts, t } from "../i18n.ts";
import type { ConsoleScreen } from "./console-context.ts";
import { actionButton, consoleForm, statusLine, textField } from "./form.ts";

addTexts({
  "orgs.heading": { nl: "Organisaties en omgevingen", en: "Organisations and environments" },
  "orgs.why": {
    nl: "Tokens, kanalen en monitors horen bij een omgeving. Wissel van omgeving om die van een andere te zien.",
    en: "Tokens, channels and monitors belong to an environment. Switch to see another's.",
  },
  "orgs.current": { nl: "huidige omgeving", en: "current environment" },
  "orgs.switch": { nl: "Wisselen naar", en: "Switch to" },
  "orgs.newEnvironment": { nl: "Nieuwe omgeving", en: "New environment" },
  "orgs.addEnvironment": { nl: "Omgeving toevoegen", en: "Add environment" },
  "orgs.newOrganization": { nl: "Nieuwe organisatie", en: "New organisation" },
  "orgs.addOrganization": { nl: "Organisatie toevoegen", en: "Add organisation" },
  "orgs.renamed": { nl: "Naam gewijzigd.", en: "Renamed." },
  "orgs.made": { nl: "Aangemaakt.", en: "Made." },
});

const OrganizationsQuery = graphql(`
  query ConsoleOrganizations {
    myOrganizations {
      uuid
      name
      environments {
        uuid
        name
      }
    }
  }
`);

const CreateOrganizationMutation = graphql(`
  mutation ConsoleCreateOrganization($name: String!) {
    createOrganization(input: { name: $name }) {
      uuid
    }
  }
`);

const RenameOrganizationMutation = graphql(`
  mutation ConsoleRenameOrganization($uuid: String!, $name: String!) {
    updateOrganization(input: { uuid: $uuid, name: $name }) {
      uuid
    }
  }
`);

const RenameEnvironmentMutation = graphql(`
  mutation ConsoleRenameEnvironment($uuid: String!, $name: String!) {
    updateEnvironment(input: { uuid: $uuid, name: $name }) {
      uuid
    }
  }
`);

const CreateEnvironmentMutation = graphql(`
  mutation ConsoleCreateEnvironment($organizationUuid: String!, $name: String!) {
    createEnvironment(input: { organizationUuid: $organizationUuid, name: $name }) {
      uuid
    }
  }
`);

const SwitchEnvironmentMutation = graphql(`
  mutation ConsoleSwitchEnvironment($environmentUuid: String!) {
    switchEnvironment(environmentUuid: $environmentUuid) {
      accessToken
      refreshToken
    }
  }
`);

export const organizationsScreen: ConsoleScreen = (root, { session, me, reload }) => {
  const list = h("div", { class: "organizations" });
  const { element: status, say } = statusLine();
  const currentUuid = me?.currentEnvironment?.uuid;

  /** A one-field form that renames or makes something, then redraws the list. */
  const nameForm = (
    id: string,
    label: string,
    submitLabel: string,
    value: string,
    save: (name: string) => Promise<void>,
    done: string,
    secondary = false,
  ) => {
    const name = textField({ id, label, value, required: true, apiNames: ["name"] });
    return consoleForm({
      id: `${id}-form`,
      className: "console-form inline",
      fields: [name],
      submitLabel,
      secondary,
      submit: async () => {
        await save(name.control.value);
        await show();
        say(done);
      },
    }).element;
  };
  /** A rename behind a disclosure, so the list stays a list. */
  const renamer = (id: string, what: string, value: string, save: (name: string) => Promise<void>) =>
    h(
      "details",
      { class: "rename" },
      h("summary", {}, `${t("console.rename")}: ${what}`),
      nameForm(id, t("console.name"), t("console.save"), value, save, t("orgs.renamed"), true),
    );

  async function show(): Promise<void> {
    const { myOrganizations } = await session.api.request(OrganizationsQuery);
    replaceChildren(
      list,
      ...(myOrganizations ?? []).map((organization) =>
        h(
          "section",
          { class: "card", "aria-label": organization.name },
          h("h2", {}, organization.name),
          renamer(`rename-org-${organization.uuid}`, organization.name, organization.name, async (name) => {
            await session.api.request(RenameOrganizationMutation, { uuid: organization.uuid, name });
            reload();
          }),
          h(
            "ul",
            { class: "rows" },
            ...organization.environments.map((environment) =>
              h(
                "li",
                { class: "row" },
                h(
                  "p",
                  { class: "row-title" },
                  environment.name,
                  environment.uuid === currentUuid ? h("span", { class: "badge" }, t("orgs.current")) : null,
                ),
                h(
                  "div",
                  { class: "row-actions" },
                  renamer(
                    `rename-environment-${environment.uuid}`,
                    environment.name,
                    environment.name,
                    async (name) => {
                      await session.api.request(RenameEnvironmentMutation, { uuid: environment.uuid, name });
                      if (environment.uuid === currentUuid) reload();
                    },
                  ),
                  environment.uuid === currentUuid
                    ? null
                    : actionButton(
                        `${t("orgs.switch")} ${environment.name}`,
                        async () => {
                          const { switchEnvironment } = await session.api.request(SwitchEnvironmentMutation, {
                            environmentUuid: environment.uuid,
                          });
                          if (switchEnvironment) session.start(switchEnvironment);
                          reload();
                        },
                        say,
                      ),
                ),
              ),
            ),
          ),
          nameForm(
            `new-environment-${organization.uuid}`,
            t("orgs.newEnvironment"),
            t("orgs.addEnvironment"),
            "",
            async (name) => {
              await session.api.request(CreateEnvironmentMutation, { organizationUuid: organization.uuid, name });
            },
            t("orgs.made"),
          ),
        ),
      ),
    );
  }

  root.append(
    h("h1", {}, t("orgs.heading")),
    h("p", {}, t("orgs.why")),
    status,
    list,
    h(
      "section",
      { class: "card" },
      h("h2", {}, t("orgs.newOrganization")),
      nameForm(
        "new-organization",
        t("console.name"),
        t("orgs.addOrganization"),
        "",
        async (name) => {
          await session.api.request(CreateOrganizationMutation, { name });
        },
        t("orgs.made"),
      ),
    ),
  );
  void show().catch((error: Error) => say(error.message));
};
