// The app shell: a header with the menu, the live connection's state and the language switch, the
// demo data banner while the installation has demo data (DEMO_DATA), and the main region each
// screen draws into. Screens change without a reload (history API); the language switch keeps the
// URL's other parameters. A screen that keeps its own history entries (the map's open incident,
// routes.ts `ownHistory`) is not drawn again when Back or Forward stays on its path: it follows
// the URL itself.
import type { Api, ConnectionState } from "./api/client.ts";
import { installation } from "./api/installation.ts";
import type { AppContext } from "./context.ts";
import { h, replaceChildren } from "./dom.ts";
import { addTexts, language, setLanguage, t, withLanguage } from "./i18n.ts";
import { routeFor, routes, type Route } from "./routes.ts";

addTexts({
  "shell.skip": { nl: "Naar de inhoud", en: "Skip to content" },
  "demo.lead": {
    nl: "Demodata: deze meldingen zijn nagemaakt.",
    en: "Demo data: these incidents are made up.",
  },
  "demo.more": { nl: "Wat is dit, en hoe zet ik het uit?", en: "What is this, and how do I turn it off?" },
  "demo.what": {
    nl: "Deze installatie draait met DEMO_DATA (standaard aan bij de eerste start): de service vult de kaart, de dashboards en de monitors zelf met verzonnen P2000-berichten, weer, verkeer en een helikopter, en maakt er elke minuut nieuwe bij, zodat je kunt zien hoe alles werkt. Geen pieper heeft ze verstuurd; ze staan in de lijst met het label ‘demo’.",
    en: "This installation runs with DEMO_DATA (on by default at the first start): the service fills the map, the dashboards and the monitors itself with made-up P2000 pages, weather, traffic and a helicopter, and adds new ones every minute, so you can see how everything works. No pager sent them; the list marks them ‘demo’.",
  },
  "demo.off": {
    nl: "Uitzetten: start de service met DEMO_DATA=false (er komen geen nieuwe bij). Voor echt gebruik begin je met een lege DATA_DIR en DEMO_DATA=false, of verwijder je de demomeldingen zoals de documentatie over P2000 (docs/p2000.md) zegt.",
    en: "To turn it off: start the service with DEMO_DATA=false (no new ones are added). For real use, start from an empty DATA_DIR with DEMO_DATA=false, or remove the demo messages as the P2000 documentation (docs/p2000.md) says.",
  },
});

export function startShell(body: HTMLElement, context: Omit<AppContext, "navigate">): void {
  const main = h("main", { id: "main", tabindex: "-1" });
  const demoBanner = h("section", { class: "demo-banner", "aria-labelledby": "demo-banner-lead", hidden: true });
  const nav = h("nav", { "aria-label": t("nav.main") });
  const status = h("p", { class: "connection", role: "status", "aria-live": "polite" });
  const languageButton = h("button", { type: "button", class: "language" });
  const title = h("p", { class: "app-title" });
  const skipLink = h("a", { class: "skip-link", href: "#main" });
  const header = h("header", { class: "app-header" }, skipLink, title, nav, status, languageButton);
  replaceChildren(body, header, demoBanner, main);

  let unmount: (() => void) | undefined;
  /** The route drawn now and its path: Back or Forward within it leaves a screen with `ownHistory` be. */
  let shown: { route: Route | undefined; path: string } | undefined;
  let demoData = false;
  const navigate = (path: string, options: { replace?: boolean } = {}) => {
    const url = new URL(path, location.href);
    // Replacing keeps the entry's own state (the map's mark of an entry it added for an incident).
    if (options.replace) history.replaceState(history.state, "", url);
    else history.pushState(null, "", url);
    show();
  };
  const fullContext: AppContext = { ...context, navigate };

  function drawChrome(): void {
    document.title = t("app.title");
    title.textContent = t("app.title");
    skipLink.textContent = t("shell.skip");
    drawDemoBanner();
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

  function drawDemoBanner(): void {
    demoBanner.hidden = !demoData;
    if (!demoData) return demoBanner.replaceChildren();
    // One line, its explanation a click away: the banner stays on every screen.
    replaceChildren(
      demoBanner,
      h("p", { id: "demo-banner-lead", class: "demo-lead" }, h("strong", {}, t("demo.lead"))),
      h("details", {}, h("summary", {}, t("demo.more")), h("p", {}, t("demo.what")), h("p", {}, t("demo.off"))),
    );
  }

  function show(): void {
    unmount?.();
    main.replaceChildren();
    drawChrome();
    const route = routeFor(location.pathname);
    shown = { route, path: location.pathname };
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
  window.addEventListener("popstate", () => {
    // The map's open incident has history entries of its own: Back closes it, and the map stays.
    if (shown?.route?.ownHistory && shown.path === location.pathname) return;
    show();
  });
  showConnection(status, context.api);
  show();
  void installation(context.api).then((found) => {
    demoData = found.demoData;
    drawDemoBanner();
  });
}

function showConnection(status: HTMLElement, api: Api): void {
  api.onState((state) => showConnectionState(status, state));
}

function showConnectionState(status: HTMLElement, state: ConnectionState): void {
  status.dataset.state = state;
  status.textContent = state === "idle" ? "" : t(`connection.${state}`);
}
