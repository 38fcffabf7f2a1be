// The page's entry: read the service's configuration, open the API and start the shell.
import "./app.css";
import { Api, type Credential } from "./api/client.ts";
import { loadConfig } from "./api/config.ts";
import { h, replaceChildren } from "./dom.ts";
import { language, setLanguage, t } from "./i18n.ts";
import { UserSession } from "./account/session.ts";
import { routeFor } from "./routes.ts";
import { startShell } from "./shell.ts";
import { forgetPageToken, storedPageToken } from "./sign-in/page-credential.ts";
import { showSignInForm } from "./sign-in/sign-in-form.ts";

const RELOADED_AT = "nlis.reloadedForCredentialAt";

async function start(): Promise<void> {
  setLanguage(language);
  try {
    const config = await loadConfig();
    const open = (credential: Credential, pageOwnsIt: boolean) => {
      const api = new Api(config.graphqlPath, credential);
      // A page token that expired or was revoked: sign in again. The web-client credential
      // rotated: the configuration has the new one.
      api.onUnauthenticated(() => {
        if (pageOwnsIt) forgetPageToken();
        // At most once a minute, so a credential refused again does not reload the page in a loop.
        const last = Number(sessionStorage.getItem(RELOADED_AT) ?? 0);
        if (Date.now() - last < 60_000) return;
        sessionStorage.setItem(RELOADED_AT, String(Date.now()));
        location.reload();
      });
      startShell(document.body, { api, config, session });
    };
    if (!config.apiToken) throw new Error(t("error.noCredential"));
    const session = new UserSession(config.graphqlPath, config.apiToken);
    const webClientToken = config.apiToken;
    if (!config.requireSignIn) open(webClientToken, false);
    // The console and the pages behind e-mailed links sign in (or need no one) on their own; for
    // signed-in users only, the console's public reads (reference lists) use the page token its
    // sign-in makes (console-screen.ts), else the web-client credential (auth operations).
    else if (routeFor(location.pathname)?.ownSignIn) open(async () => storedPageToken() ?? webClientToken, true);
    else {
      const stored = storedPageToken();
      if (stored) open(stored, true);
      else showSignInForm(document.body, config.graphqlPath, config.apiToken, (token) => open(token, true));
    }
  } catch (error) {
    const retry = h("button", { type: "button" }, t("error.retry"));
    retry.addEventListener("click", () => location.reload());
    replaceChildren(
      document.body,
      h("main", {}, h("h1", {}, t("error.load")), h("p", {}, (error as Error).message), retry),
    );
  }
}

void start();
