// The account mutations of spec 4.2 with the spec's exact signatures, and three the web console
// needs that the spec lacks (issue 32: updateMe, changePassword, updateEnvironment). PostGraphile
// would wrap SQL mutation functions in generated payloads, so each field is declared here and
// planned as one side effect: a function of lib/accounts/flows.ts (when Node must hash, sign or
// e-mail) or one SQL function of app_accounts run as the request's visitor. Returned rows are then
// read through PostGraphile's own resources, so User, Organization, Environment and ApiToken stay
// the reflected types.
import { access } from "postgraphile/grafast";
import { extendSchema, gql } from "postgraphile/utils";
import * as accounts from "../lib/accounts/flows.ts";
import { byUuid, mutationSteps, type FieldCall } from "../lib/graphql/plan-steps.ts";
import { required } from "./service-runtime.ts";

/** The account flows' pools and settings, from the service that serves the request. */
const depsOf = (call: FieldCall) => required(call.service).accounts;

export const AccountMutationsPlugin: GraphileConfig.Plugin = extendSchema((build) => {
  const { run, sql } = mutationSteps(build);
  const resources = build.input.pgRegistry.pgResources;
  const users = resources.users_table;
  const organizations = resources.organizations_table;
  const environments = resources.environments_table;
  const apiTokens = resources.api_tokens_table;

  return {
    typeDefs: gql`
      input RegisterInput {
        email: String!
        password: String
        organizationName: String
        environmentName: String
        displayName: String
      }
      type RegisterPayload {
        user: User
        organization: Organization
        environment: Environment
      }
      input LoginInput {
        email: String!
        password: String!
      }
      type LoginPayload {
        user: User
        """
        Access token (JWT, 15 minutes).
        """
        token: String
        """
        Refresh token (single use, 30 days); send it as Bearer to refreshToken.
        """
        refreshToken: String
        message: String
      }
      type RefreshTokenPayload {
        accessToken: String!
        refreshToken: String!
      }
      type SwitchEnvironmentPayload {
        accessToken: String!
        refreshToken: String!
        environment: Environment
      }
      input CreateOrganizationInput {
        name: String!
      }
      input UpdateOrganizationInput {
        uuid: String!
        name: String!
      }
      input CreateEnvironmentInput {
        organizationUuid: String!
        name: String!
      }
      input UpdateEnvironmentInput {
        uuid: String!
        name: String!
      }
      input UpdateMeInput {
        displayName: String!
      }
      input ChangePasswordInput {
        """
        Required when the account has a password (hasPassword); a magic-link-only account sets its first one without.
        """
        currentPassword: String
        newPassword: String!
      }
      input CreateApiTokenInput {
        name: String!
        scopes: [String]
        """
        Days until the token expires (1-3650); omit for a token that does not expire.
        """
        validDays: Int
      }
      type CreateApiTokenPayload {
        token: ApiToken
        """
        The secret, shown only in this answer.
        """
        plainToken: String
      }
      extend type Mutation {
        """
        Creates a user, an organization and an environment (API token with scope auth:register).
        """
        register(input: RegisterInput!): RegisterPayload
        """
        E-mail and password login (API token with scope auth:login).
        """
        login(input: LoginInput!): LoginPayload
        """
        E-mails a single-use login link that sends the browser to returnTo with the tokens (scope auth:login).
        """
        requestMagicLinkLogin(email: String!, returnTo: String!): String!
        """
        Ends the session of the Bearer access token.
        """
        logout: String!
        """
        Takes the refresh token as Bearer; returns a new pair and spends the old refresh token.
        """
        refreshToken: RefreshTokenPayload!
        """
        E-mails a password reset link; the same answer whether or not the address has an account (scope auth:password_reset).
        """
        requestPasswordReset(email: String!): String!
        """
        Sets a new password with the token from the reset e-mail and ends every session of the user.
        """
        resetPassword(token: String!, newPassword: String!): String!
        createOrganization(input: CreateOrganizationInput!): Organization
        updateOrganization(input: UpdateOrganizationInput!): Organization
        createEnvironment(input: CreateEnvironmentInput!): Environment
        """
        Renames an environment of one of your organizations (not in the spec; added for the web console).
        """
        updateEnvironment(input: UpdateEnvironmentInput!): Environment
        """
        Changes your display name (not in the spec; added for the web console).
        """
        updateMe(input: UpdateMeInput!): User
        """
        Sets a new password for the signed-in user and ends every other session of theirs; this one stays (not in the spec; added for the web console).
        """
        changePassword(input: ChangePasswordInput!): String!
        """
        Ends one of your sessions; true when it was ended.
        """
        deleteSession(uuid: String!): Boolean
        """
        Ends all your sessions but this one; returns how many were ended.
        """
        deleteOtherSessions: Int
        """
        Binds an environment to the session; the tokens stay valid.
        """
        setCurrentEnvironment(environmentUuid: String!): Environment
        """
        Binds an environment to the session and issues a new token pair.
        """
        switchEnvironment(environmentUuid: String!): SwitchEnvironmentPayload
        createApiToken(input: CreateApiTokenInput!): CreateApiTokenPayload
        """
        Changes name and/or scopes (a given list replaces the scopes).
        """
        updateApiToken(uuid: String!, name: String, scopes: [String]): ApiToken
        """
        Revokes the token at once; true when it was revoked.
        """
        deleteApiToken(uuid: String!): Boolean
      }
    `,
    objects: {
      Mutation: {
        plans: {
          register: (_, fieldArgs) =>
            run(fieldArgs, ({ input }, call) =>
              accounts.register(depsOf(call), call.request.meta, call.visitor, input),
            ),
          login: (_, fieldArgs) =>
            run(fieldArgs, ({ input }, call) =>
              accounts.login(depsOf(call), call.request.meta, call.visitor, input.email, input.password),
            ),
          requestMagicLinkLogin: (_, fieldArgs) =>
            run(fieldArgs, ({ email, returnTo }, call) =>
              accounts.requestMagicLink(
                depsOf(call),
                call.request.meta,
                call.visitor,
                email,
                returnTo,
                call.request.locale,
              ),
            ),
          logout: (_, fieldArgs) =>
            run(fieldArgs, async (_args, { visitor }) => {
              await visitor("select app_accounts.logout()");
              return "Logged out.";
            }),
          refreshToken: (_, fieldArgs) =>
            run(fieldArgs, (_args, call) => accounts.refresh(depsOf(call), call.request.bearer)),
          requestPasswordReset: (_, fieldArgs) =>
            run(fieldArgs, ({ email }, call) =>
              accounts.requestPasswordReset(depsOf(call), call.request.meta, call.visitor, email),
            ),
          resetPassword: (_, fieldArgs) =>
            run(fieldArgs, ({ token, newPassword }, call) =>
              accounts.resetPassword(depsOf(call), call.request.meta, token, newPassword),
            ),
          createOrganization: (_, fieldArgs) =>
            byUuid(
              organizations,
              sql(fieldArgs, "app_accounts.create_organization($1)", ({ input }) => [input.name]),
            ),
          updateOrganization: (_, fieldArgs) =>
            byUuid(
              organizations,
              sql(fieldArgs, "app_accounts.update_organization($1, $2)", ({ input }) => [input.uuid, input.name]),
            ),
          createEnvironment: (_, fieldArgs) =>
            byUuid(
              environments,
              sql(fieldArgs, "app_accounts.create_environment($1, $2)", ({ input }) => [
                input.organizationUuid,
                input.name,
              ]),
            ),
          updateEnvironment: (_, fieldArgs) =>
            byUuid(
              environments,
              sql(fieldArgs, "app_accounts.update_environment($1, $2)", ({ input }) => [input.uuid, input.name]),
            ),
          updateMe: (_, fieldArgs) =>
            byUuid(
              users,
              sql(fieldArgs, "app_accounts.update_me($1)", ({ input }) => [input.displayName]),
            ),
          changePassword: (_, fieldArgs) =>
            run(fieldArgs, ({ input }, call) =>
              accounts.changePassword(depsOf(call), call.request.meta, call.visitor, input),
            ),
          deleteSession: (_, fieldArgs) => sql(fieldArgs, "app_accounts.delete_session($1)", ({ uuid }) => [uuid]),
          deleteOtherSessions: (_, fieldArgs) => sql(fieldArgs, "app_accounts.delete_other_sessions()", () => []),
          setCurrentEnvironment: (_, fieldArgs) =>
            byUuid(
              environments,
              sql(fieldArgs, "app_accounts.set_current_environment($1)", ({ environmentUuid }) => [environmentUuid]),
            ),
          switchEnvironment: (_, fieldArgs) =>
            run(fieldArgs, ({ environmentUuid }, call) =>
              accounts.switchEnvironment(
                depsOf(call),
                call.visitor,
                call.request.auth.kind === "user" ? call.request.auth : null,
                environmentUuid,
              ),
            ),
          createApiToken: (_, fieldArgs) =>
            run(fieldArgs, ({ input }, { visitor }) => accounts.createUserApiToken(visitor, input)),
          updateApiToken: (_, fieldArgs) =>
            byUuid(
              apiTokens,
              sql(fieldArgs, "app_accounts.update_api_token($1, $2, $3)", ({ uuid, name, scopes }) => [
                uuid,
                name ?? null,
                scopes ? scopes.filter((s: string | null) => s !== null) : null,
              ]),
            ),
          deleteApiToken: (_, fieldArgs) => sql(fieldArgs, "app_accounts.delete_api_token($1)", ({ uuid }) => [uuid]),
        },
      },
      RegisterPayload: {
        plans: {
          user: ($result) => byUuid(users, access($result, "userUuid")),
          organization: ($result) => byUuid(organizations, access($result, "organizationUuid")),
          environment: ($result) => byUuid(environments, access($result, "environmentUuid")),
        },
      },
      LoginPayload: {
        plans: {
          user: ($result) => byUuid(users, access($result, "userUuid")),
        },
      },
      SwitchEnvironmentPayload: {
        plans: {
          environment: ($result) => byUuid(environments, access($result, "environmentUuid")),
        },
      },
      CreateApiTokenPayload: {
        plans: {
          token: ($result) => byUuid(apiTokens, access($result, "uuid")),
        },
      },
    },
  };
}, "AccountMutationsPlugin");
