// The console's first screen: where the person is (environment and organisation) and the way to
// a working alert: a channel to be told on, then a monitor that says what to be told about. An
// address not yet verified is said, with where the link went (the service's log when the
// installation sends no e-mail).
import { append, h } from "../dom.ts";
import { addTexts, t } from "../i18n.ts";
import type { ConsoleScreen } from "./console-context.ts";
import { mailInLogNotice } from "./installation.ts";

addTexts({
  "overview.heading": { nl: "Mijn account", en: "My account" },
  "overview.unverified": {
    nl: "Je e-mailadres is nog niet bevestigd: open de link uit de e-mail die we stuurden.",
    en: "Your e-mail address is not verified yet: open the link in the e-mail we sent.",
  },
  "overview.steps": { nl: "Zo krijg je een melding", en: "How to get an alert" },
  "overview.unverifiedLog": {
    nl: "Je e-mailadres is nog niet bevestigd: open de bevestigingslink.",
    en: "Your e-mail address is not verified yet: open the verification link.",
  },
  "overview.step.channels": {
    nl: "Kies hoe je gewaarschuwd wordt: deze browser, de app ntfy, een webhook, Home Assistant…",
    en: "Choose how you are told: this browser, the ntfy app, a webhook, Home Assistant…",
  },
  "overview.step.monitors": {
    nl: "Zeg waarover: een cirkel op de kaart, regio's, disciplines, wegen, trefwoorden.",
    en: "Say what about: a circle on the map, regions, disciplines, roads, keywords.",
  },
  "overview.step.tokens": {
    nl: "Voor je eigen app of Home Assistant: een API-sleutel.",
    en: "For your own app or Home Assistant: an API token.",
  },
});

export const overviewScreen: ConsoleScreen = (root, { me, link, api }) => {
  const step = (path: string, navKey: string, text: string) => h("li", {}, link(path, t(navKey)), `: ${text}`);
  const unverified =
    me?.me && !me.me.email.verified
      ? h("p", { class: "notice warning", id: "overview-unverified" }, t("overview.unverified"))
      : null;
  if (unverified)
    void mailInLogNotice(api).then((notice) => {
      if (notice) unverified.textContent = `${t("overview.unverifiedLog")} ${notice}`;
    });
  append(
    root,
    h("h1", {}, t("overview.heading")),
    unverified,
    h("h2", {}, t("overview.steps")),
    h(
      "ol",
      { class: "steps" },
      step("/console/channels", "console.nav.channels", t("overview.step.channels")),
      step("/console/monitors", "console.nav.monitors", t("overview.step.monitors")),
      step("/console/tokens", "console.nav.tokens", t("overview.step.tokens")),
    ),
  );
};
