// The app shell: a header with the menu, the live connection's state and the language switch, and
// the main region each screen draws into. Screens change without a reload (history API); the
// language switch keeps the URL's other parameters.
import type { Api, ConnectionState } from "./api/client.ts";
import type { AppContext } from "./context.ts";
import { h, replaceChildren } from "./dom.ts";
import { language, setLanguage, t, withLanguage } from "./i18n.ts";
import { routeFor, routes } from "./routes.ts";

export function startShell(body: HTMLElement, context: Omit<AppContext, "navigate">): void {
  const main = h("main", { id: "main", tabindex: "-1" });
  const nav = h("nav", { "aria-label": t("nav.main") });
  const status = h("p", { class: "connection", role: "status", "aria-live": "polite" });
  const languageButton = h("button", { type: "button", class: "language" });
  const title = h("p", { class: "app-title" });
  const header = h(
    "header",
    { class: "app-header" },
    h("a", { class: "skip-link", href: "#main" }, "Skip to content"),
    title,
    nav,
    status,
    languageButton,
  );
  replaceChildren(body, header, main);

  let unmount: (() => void) | undefined;
  const navigate = (path: string, options: { replace?: boolean } = {}) => {
    const url = new URL(path, location.href);
    if (options.replace) history.replaceState(null, "", url);
    else history.pushState(null, "", url);
    show();
  };
  const fullContext: AppContext = { ...context, navigate };

  function drawChrome(): void {
    document.title = t("app.title");
    title.textContent = t("app.title");
    showConnectionState(status, context.api.state);
    languageButton.textContent = t("nav.language");
    languageButton.lang = language === "nl" ? "en" : "nl";
    replaceChildren(
      nav,
      h(
        "ul",
        {},
        ...routes
          .filter((route) => route.navKey)
          .map((route) =>
            h(
              "li",
              {},
              h(
                "a",
                {
                  href: withLanguage(route.path),
                  "aria-current": routeFor(location.pathname) === route ? "page" : null,
                  onclick: (event: Event) => {
                    event.preventDefault();
                    navigate(withLanguage(route.path));
                  },
                },
                t(route.navKey ?? ""),
              ),
            ),
          ),
      ),
    );
  }

  function show(): void {
    unmount?.();
    main.replaceChildren();
    drawChrome();
    const route = routeFor(location.pathname);
    if (route) unmount = route.screen(main, fullContext);
    else {
      main.append(h("h1", {}, t("error.notFound")));
      unmount = undefined;
    }
  }

  languageButton.addEventListener("click", () => {
    setLanguage(language === "nl" ? "en" : "nl");
    const url = new URL(location.href);
    url.searchParams.set("lang", language);
    navigate(url.pathname + url.search, { replace: true });
  });
  window.addEventListener("popstate", show);
  showConnection(status, context.api);
  show();
}

function showConnection(status: HTMLElement, api: Api): void {
  api.onState((state) => showConnectionState(status, state));
}

function showConnectionState(status: HTMLElement, state: ConnectionState): void {
  status.dataset.state = state;
  status.textContent = state === "idle" ? "" : t(`connection.${state}`);
}
