// The console (issue 32): accounts, organisations and environments, API tokens, channels and
// monitors for a signed-in person, in the same shell as the map. Paths under /console pick a
// console screen (console-routes.ts); a signed-in screen opened without a session shows the
// sign-in screen first and comes back after it. A session that ends while the console is open (signed
// out in another tab, a refresh token refused) returns to the sign-in screen, which says why.
import "./console.css";
import "./console-texts.ts";
import { MeQuery } from "../account/account-queries.ts";
import type { Screen } from "../context.ts";
import { h, replaceChildren } from "../dom.ts";
import { t, withLanguage } from "../i18n.ts";
import type { ConsoleContext, Me } from "./console-context.ts";
import { consoleRouteFor, consoleRoutes } from "./console-routes.ts";
import { forgetPageToken, makePageToken, storedPageToken } from "../sign-in/page-credential.ts";

export const consoleScreen: Screen = (root, context) => {
  const { session } = context;
  let disposed = false;
  let teardown: void | (() => void);
  const route = consoleRouteFor(location.pathname);
  // Redirects wait for the shell to finish drawing this screen.
  const go = (path: string, replace = false) =>
    queueMicrotask(() => !disposed && context.navigate(withLanguage(path), { replace }));
  const signInFirst = () =>
    go(`/console/sign-in?next=${encodeURIComponent(location.pathname + location.search)}`, true);

  const link = (path: string, text: string) =>
    h(
      "a",
      {
        href: withLanguage(path),
        onclick: (event: Event) => {
          event.preventDefault();
          go(path);
        },
      },
      text,
    );

  /** The menu's link to the screen shown is marked as the current page. */
  const current = (anchor: HTMLAnchorElement, isCurrent: boolean) => {
    if (isCurrent) anchor.setAttribute("aria-current", "page");
    return anchor;
  };

  const body = h("div", { class: "console-body" });
  const draw = (me: Me | null) => {
    const consoleContext: ConsoleContext = { ...context, me, go: (path) => go(path), link, reload: () => void load() };
    if (typeof teardown === "function") teardown();
    body.replaceChildren();
    teardown = route!.screen(body, consoleContext);
  };

  async function load(): Promise<void> {
    try {
      const me = await session.api.request(MeQuery);
      if (disposed) return;
      if (!me.me) return session.end("refused");
      // For signed-in users only (WEB_REQUIRE_SIGN_IN), public data is read with a page token of
      // the person's own, as the map's sign-in makes it (sign-in/page-credential.ts).
      if (context.config.requireSignIn && !storedPageToken()) {
        const accessToken = await session.accessToken();
        if (accessToken) await makePageToken(context.config.graphqlPath, accessToken);
      }
      replaceChildren(root, chrome(me));
      draw(me);
    } catch (error) {
      if (disposed || !session.signedIn) return;
      const retry = h("button", { type: "button", onclick: () => void load() }, t("form.retry"));
      replaceChildren(
        root,
        h("div", { class: "form-error", role: "alert" }, h("p", {}, (error as Error).message), retry),
      );
    }
  }

  function chrome(me: Me): HTMLElement {
    const environment = me.currentEnvironment;
    const signOut = h("button", { type: "button", onclick: () => void session.signOut() }, t("console.signOut"));
    return h(
      "div",
      { class: "console" },
      h(
        "nav",
        { class: "console-nav", "aria-label": t("console.nav.label") },
        h(
          "ul",
          {},
          ...consoleRoutes
            .filter((entry) => entry.navKey)
            .map((entry) => h("li", {}, current(link(entry.path, t(entry.navKey ?? "")), entry === route))),
        ),
      ),
      h(
        "div",
        { class: "console-main" },
        h(
          "div",
          { class: "console-who" },
          h(
            "p",
            {},
            `${t("console.signedInAs")} `,
            h("strong", {}, me.me?.displayName ?? ""),
            ` (${me.me?.email.address ?? ""})`,
            environment
              ? h(
                  "span",
                  { class: "console-environment" },
                  ` · ${t("console.environment")}: `,
                  h("strong", {}, environment.name),
                  ` (${environment.organization?.name ?? ""})`,
                )
              : null,
          ),
          signOut,
        ),
        body,
      ),
    );
  }

  const stop = session.onChange(() => {
    if (session.signedIn) return;
    // Signed out: the page's reading token made at sign-in goes too (WEB_REQUIRE_SIGN_IN).
    forgetPageToken();
    if (route?.signedIn) signInFirst();
  });
  if (!route) root.append(h("h1", {}, t("error.notFound")));
  else if (route.signedIn && !session.signedIn) signInFirst();
  else if (route.signedIn) void load();
  else {
    root.append(body);
    draw(null);
  }

  return () => {
    disposed = true;
    stop();
    if (typeof teardown === "function") teardown();
    root.replaceChildren();
  };
};
