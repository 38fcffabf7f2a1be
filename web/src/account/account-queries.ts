// The account operations of the console (spec §4.1/§4.2, and docs/accounts.md's additions),
// typed against schema.graphql by gql.tada.
import { graphql } from "../api/graphql.ts";

export const LoginMutation = graphql(`
  mutation ConsoleLogin($email: String!, $password: String!) {
    login(input: { email: $email, password: $password }) {
      token
      refreshToken
    }
  }
`);

export const RefreshMutation = graphql(`
  mutation ConsoleRefresh {
    refreshToken {
      accessToken
      refreshToken
    }
  }
`);

export const LogoutMutation = graphql(`
  mutation ConsoleLogout {
    logout
  }
`);

export const RegisterMutation = graphql(`
  mutation ConsoleRegister(
    $email: String!
    $password: String
    $displayName: String
    $organizationName: String
    $environmentName: String
  ) {
    register(
      input: {
        email: $email
        password: $password
        displayName: $displayName
        organizationName: $organizationName
        environmentName: $environmentName
      }
    ) {
      user {
        uuid
      }
    }
  }
`);

export const MagicLinkMutation = graphql(`
  mutation ConsoleMagicLink($email: String!, $returnTo: String!) {
    requestMagicLinkLogin(email: $email, returnTo: $returnTo)
  }
`);

export const RequestResetMutation = graphql(`
  mutation ConsoleRequestReset($email: String!) {
    requestPasswordReset(email: $email)
  }
`);

export const ResetPasswordMutation = graphql(`
  mutation ConsoleResetPassword($token: String!, $newPassword: String!) {
    resetPassword(token: $token, newPassword: $newPassword)
  }
`);

export const MeQuery = graphql(`
  query ConsoleMe {
    me {
      uuid
      displayName
      hasPassword
      email {
        address
        verified
      }
    }
    currentEnvironment {
      uuid
      name
      organization {
        uuid
        name
      }
    }
  }
`);
