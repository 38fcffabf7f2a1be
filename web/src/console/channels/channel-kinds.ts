// What each channel type asks for (CreateChannelInput, docs/channels.md): its fields with a label
// and a hint in words, the argument names the API's messages use for each (so a refusal lands
// beside the field), and how the list names a channel's target. Web Push is not typed in: the
// browser makes its subscription (web-push.ts).
import { addTexts, t } from "../../i18n.ts";
import type { Channel } from "./channel-api.ts";

addTexts({
  "channels.type.email": { nl: "E-mail", en: "E-mail" },
  "channels.type.sms": { nl: "Sms", en: "SMS" },
  "channels.type.webhook": { nl: "Webhook (ondertekende HTTP POST)", en: "Webhook (signed HTTP POST)" },
  "channels.type.telegram": { nl: "Telegram-chat", en: "Telegram chat" },
  "channels.type.ntfy": { nl: "ntfy-pushbericht", en: "ntfy push" },
  "channels.type.pushover": { nl: "Pushover", en: "Pushover" },
  "channels.type.gotify": { nl: "Gotify (eigen server)", en: "Gotify (your own server)" },
  "channels.type.discord": { nl: "Discord-kanaal", en: "Discord channel" },
  "channels.type.slack": { nl: "Slack-kanaal", en: "Slack channel" },
  "channels.type.webpush": { nl: "Deze browser (Web Push)", en: "This browser (Web Push)" },
  "channels.type.mqtt": { nl: "MQTT-broker (Home Assistant)", en: "MQTT broker (Home Assistant)" },
  "channels.field.emailAddress": { nl: "E-mailadres", en: "E-mail address" },
  "channels.hint.emailAddress": { nl: "Waar de meldingen heen gaan.", en: "Where the notifications go." },
  "channels.field.phoneNumber": { nl: "Telefoonnummer", en: "Phone number" },
  "channels.hint.phoneNumber": {
    nl: "Internationaal, met + en landcode: +31612345678.",
    en: "International, with + and the country code: +31612345678.",
  },
  "channels.field.webhookUrl": { nl: "Webhook-URL", en: "Webhook URL" },
  "channels.hint.webhookUrl": {
    nl: "Een openbaar http(s)-adres dat een POST met JSON ontvangt, ondertekend volgens Standard Webhooks.",
    en: "A public http(s) address that receives a POST with JSON, signed as Standard Webhooks says.",
  },
  "channels.field.headers": { nl: "Extra headers (optioneel)", en: "Extra headers (optional)" },
  "channels.hint.headers": {
    nl: "Eén per regel, als Naam: waarde (bijvoorbeeld Authorization: Bearer …). Ze worden niet teruggetoond.",
    en: "One a line, as Name: value (for example Authorization: Bearer …). Their values are not shown again.",
  },
  "channels.field.chatId": { nl: "Telegram-chat-id", en: "Telegram chat id" },
  "channels.hint.chatId": {
    nl: "Het nummer van de chat (negatief voor een groep) of @kanaalnaam; de bot van de dienst moet erin zitten.",
    en: "The chat's number (negative for a group) or @channelname; the service's bot must be in it.",
  },
  "channels.field.ntfyTopic": { nl: "ntfy-onderwerp", en: "ntfy topic" },
  "channels.hint.ntfyTopic": {
    nl: "1 tot 64 letters, cijfers, _ of -. Kies iets dat niet te raden is: wie het onderwerp kent, leest mee.",
    en: "1 to 64 letters, digits, _ or -. Pick something hard to guess: whoever knows the topic can read along.",
  },
  "channels.field.ntfyServer": { nl: "ntfy-server (optioneel)", en: "ntfy server (optional)" },
  "channels.hint.ntfyServer": { nl: "Leeg: https://ntfy.sh.", en: "Empty: https://ntfy.sh." },
  "channels.field.ntfyToken": { nl: "Toegangstoken (optioneel)", en: "Access token (optional)" },
  "channels.hint.ntfyToken": {
    nl: "Voor een beschermd onderwerp; wordt niet teruggetoond.",
    en: "For a protected topic; never shown again.",
  },
  "channels.field.userKey": { nl: "Pushover-gebruikers- of groepssleutel", en: "Pushover user or group key" },
  "channels.hint.userKey": {
    nl: "30 letters en cijfers, te vinden in je Pushover-account; wordt niet teruggetoond.",
    en: "30 letters and digits, from your Pushover account; never shown again.",
  },
  "channels.field.gotifyServer": { nl: "Gotify-server", en: "Gotify server" },
  "channels.hint.gotifyServer": { nl: "Het http(s)-adres van je server.", en: "Your server's http(s) address." },
  "channels.field.gotifyToken": { nl: "Applicatietoken", en: "Application token" },
  "channels.hint.gotifyToken": {
    nl: "Van een applicatie op je Gotify-server; wordt niet teruggetoond.",
    en: "Of an application on your Gotify server; never shown again.",
  },
  "channels.field.incomingWebhook": { nl: "Incoming-webhook-URL", en: "Incoming webhook URL" },
  "channels.hint.discord": {
    nl: "Kanaalinstellingen → Integraties → Webhooks; wordt niet teruggetoond.",
    en: "Channel settings → Integrations → Webhooks; never shown again.",
  },
  "channels.hint.slack": {
    nl: "Van de app Incoming Webhooks in je Slack-werkruimte; wordt niet teruggetoond.",
    en: "From the Incoming Webhooks app of your Slack workspace; never shown again.",
  },
  "channels.field.broker": { nl: "Broker-URL", en: "Broker URL" },
  "channels.hint.broker": {
    nl: "mqtt://, mqtts://, ws:// of wss://, zonder gebruikersnaam en wachtwoord.",
    en: "mqtt://, mqtts://, ws:// or wss://, without user name and password.",
  },
  "channels.field.mqttTopic": { nl: "Onderwerp-voorvoegsel (optioneel)", en: "Topic prefix (optional)" },
  "channels.hint.mqttTopic": {
    nl: "Leeg: nl-incidents. Home Assistant vindt elke monitor als sensor.",
    en: "Empty: nl-incidents. Home Assistant finds each monitor as a sensor.",
  },
  "channels.field.username": { nl: "Gebruikersnaam (optioneel)", en: "User name (optional)" },
  "channels.hint.username": { nl: "Als de broker erom vraagt.", en: "If the broker asks for one." },
  "channels.field.password": { nl: "Wachtwoord (optioneel)", en: "Password (optional)" },
  "channels.hint.password": { nl: "Wordt niet teruggetoond.", en: "Never shown again." },
  "channels.secretTarget": { nl: "doel geheim gehouden", en: "target kept secret" },
});

export interface KindField {
  /** The CreateChannelInput field it fills. */
  input:
    | "emailAddress"
    | "phoneNumber"
    | "url"
    | "headers"
    | "chatId"
    | "topic"
    | "serverUrl"
    | "token"
    | "userKey"
    | "username"
    | "password";
  label: string;
  hint: string;
  required: boolean;
  type?: string;
  inputmode?: string;
  autocomplete?: string;
  multiline?: boolean;
  /** The names the API's messages use for it (the input name, and how a refused host is named). */
  apiNames: string[];
}

const field = (
  input: KindField["input"],
  key: string,
  extra: Partial<KindField> & { hintKey?: string } = {},
): KindField => ({
  input,
  label: t(`channels.field.${key}`),
  hint: t(`channels.hint.${extra.hintKey ?? key}`),
  required: true,
  apiNames: [input],
  ...extra,
});
const optional = { required: false };
const url = { type: "url", inputmode: "url" };

/** The fields each type the form makes asks for, in the order they are shown. */
export function kindFields(type: string): KindField[] {
  switch (type) {
    case "email":
      return [field("emailAddress", "emailAddress", { type: "email", autocomplete: "email" })];
    case "sms":
      return [field("phoneNumber", "phoneNumber", { type: "tel", autocomplete: "tel", inputmode: "tel" })];
    case "webhook":
      return [
        field("url", "webhookUrl", { ...url, apiNames: ["url", "Webhook target"] }),
        field("headers", "headers", { ...optional, multiline: true }),
      ];
    case "telegram":
      return [field("chatId", "chatId")];
    case "ntfy":
      return [
        field("topic", "ntfyTopic"),
        field("serverUrl", "ntfyServer", { ...url, ...optional, apiNames: ["serverUrl", "Target"] }),
        field("token", "ntfyToken", { ...optional, type: "password", autocomplete: "off" }),
      ];
    case "pushover":
      return [field("userKey", "userKey")];
    case "gotify":
      return [
        field("serverUrl", "gotifyServer", { ...url, apiNames: ["serverUrl", "Target"] }),
        field("token", "gotifyToken", { type: "password", autocomplete: "off" }),
      ];
    case "discord":
    case "slack":
      return [field("url", "incomingWebhook", { ...url, hintKey: type, apiNames: ["url", "Target"] })];
    case "mqtt":
      return [
        field("serverUrl", "broker", { type: "url", apiNames: ["serverUrl", "Broker"] }),
        field("topic", "mqttTopic", optional),
        field("username", "username", optional),
        field("password", "password", { ...optional, type: "password", autocomplete: "new-password" }),
      ];
    default:
      return [];
  }
}

/** The type in the reader's words (the API's own label for a type this page does not know yet). */
export function typeLabel(type: string, apiLabel?: string | null): string {
  const key = `channels.type.${type}`;
  const text = t(key);
  return text === key ? (apiLabel ?? type) : text;
}

/** Where a channel delivers, as far as the API shows it (secrets it keeps are said to be kept). */
export function targetOf(channel: Channel): string {
  switch (channel.type) {
    case "email":
      return channel.emailAddress ?? "";
    case "sms":
      return channel.phoneNumber ?? "";
    case "webhook":
      return channel.url ?? "";
    case "telegram":
      return channel.chatId ?? "";
    case "ntfy":
    case "mqtt":
      return [channel.serverUrl, channel.topic].filter(Boolean).join(" · ");
    case "gotify":
      return channel.serverUrl ?? "";
    default:
      return t("channels.secretTarget");
  }
}
