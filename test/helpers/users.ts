// A registered, logged-in user of a test service: their access token, their environment and an
// API token of that environment (for the public reads).
import type { TestService } from "./service.ts";

export interface TestUser {
  email: string;
  accessToken: string;
  /** The login's refresh token (single use), for a browser session (test/helpers/console.ts). */
  refreshToken: string;
  environmentUuid: string;
  apiToken: string;
}

/** The password signUp registers every user with. */
export const TEST_PASSWORD = "a long enough password";

export async function signUp(
  service: TestService,
  email: string,
  options: { admin?: boolean } = {},
): Promise<TestUser> {
  const authToken = (await service.newToken({ scopes: ["auth:register", "auth:login"] })).secret;
  const password = TEST_PASSWORD;
  const call = async (query: string, token: string, variables: Record<string, unknown> = {}) => {
    const { body } = await service.graphql(query, { token, variables });
    if (body.errors) throw new Error(body.errors[0].message);
    return body.data;
  };
  const { register } = await call(
    "mutation ($e: String!, $p: String) { register(input: { email: $e, password: $p }) { environment { uuid } } }",
    authToken,
    { e: email, p: password },
  );
  if (options.admin)
    await service.ownerPool.query("update app_public.users set is_admin = true where email_address = $1", [email]);
  const { login } = await call(
    "mutation ($e: String!, $p: String!) { login(input: { email: $e, password: $p }) { token refreshToken } }",
    authToken,
    { e: email, p: password },
  );
  const { createApiToken } = await call(
    'mutation { createApiToken(input: { name: "app" }) { plainToken } }',
    login.token,
  );
  return {
    email,
    accessToken: login.token,
    refreshToken: login.refreshToken,
    environmentUuid: register.environment.uuid,
    apiToken: createApiToken.plainToken,
  };
}
