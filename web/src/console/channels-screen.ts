// Notification channels of the current environment (issue 32): the list with a test send, recent
// deliveries and Delete for each (channels/channel-list.ts), and making one of every type the API
// has and this installation can deliver (channels/channel-form.ts), "This browser" through Web
// Push among them (channels/web-push.ts).
import { statusLine } from "./form.ts";
import { h, replaceChildren } from "../dom.ts";
import { addTexts, t } from "../i18n.ts";
import { ChannelsQuery, ChannelTypesQuery } from "./channels/channel-api.ts";
import { channelForm } from "./channels/channel-form.ts";
import { notificationPermission } from "./channels/web-push.ts";
import { drawChannels } from "./channels/channel-list.ts";
import type { ConsoleScreen } from "./console-context.ts";
import { installation } from "../api/installation.ts";

addTexts({
  "channels.heading": { nl: "Kanalen", en: "Channels" },
  "channels.why": {
    nl: "Een kanaal is waar de meldingen van je monitors heen gaan: een inbox, een telefoon, een chat, een browser of Home Assistant. Stuur een test om te zien of het werkt.",
    en: "A channel is where your monitors' notifications go: an inbox, a phone, a chat, a browser or Home Assistant. Send a test to see that it works.",
  },
  "channels.list": { nl: "Kanalen van deze omgeving", en: "Channels of this environment" },
});

export const channelsScreen: ConsoleScreen = (root, { session, api }) => {
  const list = h("ul", { class: "rows channels", "aria-labelledby": "channels-list-heading" });
  const { element: status, say } = statusLine();
  const makeSlot = h("div", {});

  async function show(): Promise<void> {
    const { channels } = await session.api.request(ChannelsQuery);
    drawChannels(list, channels ?? [], session, say, show);
  }

  // Drawn once: the list's changes leave them be, with what is being typed and a secret just shown.
  async function showForms(): Promise<void> {
    const [{ channelTypes, webPushPublicKey }, offered, notifications] = await Promise.all([
      api.request(ChannelTypesQuery),
      installation(api),
      notificationPermission(),
    ]);
    replaceChildren(
      makeSlot,
      channelForm(session, channelTypes, show, { installation: offered, webPushPublicKey, notifications }),
    );
  }

  root.append(
    h("h1", {}, t("channels.heading")),
    h("p", {}, t("channels.why")),
    h(
      "section",
      { "aria-labelledby": "channels-list-heading" },
      h("h2", { id: "channels-list-heading", tabindex: -1 }, t("channels.list")),
      status,
      list,
    ),
    makeSlot,
  );
  void show().catch((error: Error) => say(error.message));
  void showForms().catch((error: Error) => say(error.message));
};
