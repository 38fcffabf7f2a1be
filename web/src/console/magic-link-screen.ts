// Where a magic link lands: the service redirected here with the new session's tokens in the
// URL's fragment (which never reaches a server). The page keeps them (session.ts), removes them
// from the address bar and its history at once, and goes where the person was going.
import { h } from "../dom.ts";
import { addTexts, t, withLanguage } from "../i18n.ts";
import type { ConsoleScreen } from "./console-context.ts";

addTexts({
  "magicLink.failed": {
    nl: "Deze inloglink gaf geen sessie. Vraag een nieuwe aan.",
    en: "This sign-in link did not bring a session. Ask for a new one.",
  },
  "magicLink.signIn": { nl: "Naar inloggen", en: "To sign in" },
});

const AFTER_KEY = "nlis.afterMagicLink";

/** Where to go once the link is followed (in this browser's storage: the link may open in a new tab). */
export function rememberAfterMagicLink(path: string): void {
  localStorage.setItem(AFTER_KEY, path);
}

export const magicLinkScreen: ConsoleScreen = (root, { session, go }) => {
  const fragment = new URLSearchParams(location.hash.slice(1));
  const accessToken = fragment.get("access_token");
  const refreshToken = fragment.get("refresh_token");
  // The tokens out of the address bar before anything else happens.
  history.replaceState(null, "", withLanguage("/console/magic-link"));
  if (accessToken && refreshToken) {
    session.start({ accessToken, refreshToken });
    const next = localStorage.getItem(AFTER_KEY) ?? "/console";
    localStorage.removeItem(AFTER_KEY);
    go(next.startsWith("/console") ? next : "/console");
    return;
  }
  root.append(
    h(
      "section",
      { class: "console-narrow" },
      h("h1", {}, t("signIn.heading")),
      h("p", { class: "notice warning", role: "alert" }, t("magicLink.failed")),
      h("p", {}, h("a", { href: withLanguage("/console/sign-in") }, t("magicLink.signIn"))),
    ),
  );
};
