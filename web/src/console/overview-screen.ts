// The console's first screen: where the person is (environment and organisation) and the way to
// a working alert: a channel to be told on, then a monitor that says what to be told about.
import { append, h } from "../dom.ts";
import { addTexts, t } from "../i18n.ts";
import type { ConsoleScreen } from "./console-context.ts";

addTexts({
  "overview.heading": { nl: "Mijn account", en: "My account" },
  "overview.unverified": {
    nl: "Je e-mailadres is nog niet bevestigd: open de link uit de e-mail die we stuurden.",
    en: "Your e-mail address is not verified yet: open the link in the e-mail we sent.",
  },
  "overview.steps": { nl: "Zo krijg je een melding", en: "How to get an alert" },
  "overview.step.channels": {
    nl: "Kies hoe je gewaarschuwd wordt: e-mail, een webhook, Telegram, deze browser…",
    en: "Choose how you are told: e-mail, a webhook, Telegram, this browser…",
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

export const overviewScreen: ConsoleScreen = (root, { me, link }) => {
  const step = (path: string, navKey: string, text: string) => h("li", {}, link(path, t(navKey)), `: ${text}`);
  append(
    root,
    h("h1", {}, t("overview.heading")),
    me?.me && !me.me.email.verified ? h("p", { class: "notice warning" }, t("overview.unverified")) : null,
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
