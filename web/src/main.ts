// The page's entry: read the service's configuration, open the API and start the shell.
import "./app.css";
import { Api } from "./api/client.ts";
import { loadConfig } from "./api/config.ts";
import { h, replaceChildren } from "./dom.ts";
import { language, setLanguage, t } from "./i18n.ts";
import { startShell } from "./shell.ts";

async function start(): Promise<void> {
  setLanguage(language);
  try {
    const config = await loadConfig();
    startShell(document.body, { api: new Api(config.graphqlPath, config.apiToken), config });
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
