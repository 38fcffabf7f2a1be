// The credential a page reads with when the service is for signed-in users only
// (WEB_REQUIRE_SIGN_IN; docs/web.md): the person signs in with the web-client credential's
// auth:login scope, and the page makes an API token of the person's own environment, valid one
// day and with no scope beyond public reads, and reads with that. It keeps only that reading
// token, in sessionStorage: it ends with the tab, is never in a URL, and is not the person's
// access or refresh token, so a leak of it reads public data for a day at most and cannot act
// for the person. (The strict CSP keeps foreign script, which could read it, off the page.)
import { Api } from "../api/client.ts";
import { graphql } from "../api/graphql.ts";

const STORAGE_KEY = "nlis.pageToken";

const LOGIN = graphql(`
  mutation SignIn($email: String!, $password: String!) {
    login(input: { email: $email, password: $password }) {
      token
    }
  }
`);

const CREATE_PAGE_TOKEN = graphql(`
  mutation CreatePageToken($name: String!) {
    createApiToken(input: { name: $name, scopes: [], validDays: 1 }) {
      plainToken
    }
  }
`);

export function storedPageToken(): string | null {
  return sessionStorage.getItem(STORAGE_KEY);
}

export function forgetPageToken(): void {
  sessionStorage.removeItem(STORAGE_KEY);
}

/** Makes and keeps (for the tab's life) the page's own reading token, as the signed-in person. */
export async function makePageToken(graphqlPath: string, accessToken: string): Promise<string> {
  const { createApiToken } = await new Api(graphqlPath, accessToken).request(CREATE_PAGE_TOKEN, {
    name: `Web page ${new Date().toISOString().slice(0, 10)}`,
  });
  if (!createApiToken?.plainToken) throw new Error("The service gave no API token.");
  sessionStorage.setItem(STORAGE_KEY, createApiToken.plainToken);
  return createApiToken.plainToken;
}

/** Signs in and returns the page's own reading token (kept for the tab's life). */
export async function signIn(
  graphqlPath: string,
  webClientToken: string,
  email: string,
  password: string,
): Promise<string> {
  const { login } = await new Api(graphqlPath, webClientToken).request(LOGIN, { email, password });
  if (!login?.token) throw new Error("The service gave no access token.");
  return makePageToken(graphqlPath, login.token);
}
