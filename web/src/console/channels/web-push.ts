// "Notify this browser": a webpush channel for the browser the page runs in (the channel form's
// first kind, "This browser (Web Push)", which it starts on where the browser can). The browser asks the
// person's permission, the service's push worker (GET /push/sw.js, lib/monitors/push-worker-route.ts,
// served with Service-Worker-Allowed: / so it may take the whole origin) is registered, the browser
// subscribes at its vendor's push service with the service's VAPID key (webPushPublicKey), and the
// subscription becomes the channel (docs/channels/webpush.md). Where the browser cannot, or the
// person said no, the section says so in words.
import type { UserSession } from "../../account/session.ts";
import { h } from "../../dom.ts";
import { addTexts, t } from "../../i18n.ts";
import { consoleForm, textField } from "../form.ts";
import { CreateChannelMutation } from "./channel-api.ts";

addTexts({
  "push.why": {
    nl: "Deze browser (telefoon of computer) toont de meldingen van je monitors, ook als deze pagina dicht is. De browser vraagt eerst om toestemming.",
    en: "This browser (phone or computer) shows your monitors' notifications, even when this page is closed. The browser asks for your permission first.",
  },
  "push.name": { nl: "Naam van dit apparaat", en: "Name of this device" },
  "push.nameHint": {
    nl: "Zodat je het kanaal herkent, bijvoorbeeld \u201cTelefoon van Ada\u201d.",
    en: "So you recognise the channel, for example \u201cAda's phone\u201d.",
  },
  "push.defaultName": { nl: "Deze browser", en: "This browser" },
  "push.button": { nl: "Meldingen in deze browser aanzetten", en: "Notify this browser" },
  "push.done": {
    nl: "Deze browser krijgt nu de meldingen van de monitors waar je het kanaal \u201c{name}\u201d aan koppelt.",
    en: "This browser now gets the notifications of the monitors you put the channel \u201c{name}\u201d on.",
  },
  "push.unsupported": {
    nl: "Deze browser kan geen pushmeldingen ontvangen (geen service worker of Push API). Op een iPhone of iPad: zet deze site eerst op het beginscherm en open hem van daar.",
    en: "This browser cannot receive push notifications (no service worker or Push API). On an iPhone or iPad: add this site to the home screen first and open it from there.",
  },
  "push.notSetUp": {
    nl: "Deze server heeft geen Web Push ingesteld; kies een ander soort kanaal.",
    en: "This server has no Web Push set up; pick another kind of channel.",
  },
  "push.blocked": {
    nl: "Meldingen van deze site zijn in deze browser geblokkeerd. Sta ze toe in de site-instellingen van de browser en probeer het opnieuw.",
    en: "Notifications from this site are blocked in this browser. Allow them in the browser's site settings and try again.",
  },
  "push.dismissed": {
    nl: "Er is geen toestemming gegeven voor meldingen, dus er is niets aangezet.",
    en: "No permission for notifications was given, so nothing was switched on.",
  },
  "push.subscribeFailed": {
    nl: "De browser kon zich niet aanmelden bij zijn pushdienst: {error}. Probeer het later opnieuw of kies een ander soort kanaal.",
    en: "The browser could not subscribe at its push service: {error}. Try again later, or pick another kind of channel.",
  },
});

/** The path and scope of the service's push worker (lib/monitors/push-worker-route.ts). */
const WORKER_PATH = "/push/sw.js";
const WORKER_SCOPE = "/";

/** Whether this browser can take push notifications at all (a service worker, the Push API, notifications). */
export function pushSupported(): boolean {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/**
 * Whether this site may show notifications here: "granted", "denied" (blocked in the browser's
 * site settings) or "prompt" (not asked yet). The Permissions API says it as the browser's settings
 * have it (Notification.permission answers "denied" in some browsers that were never asked, such
 * as headless Chromium).
 */
export async function notificationPermission(): Promise<PermissionState> {
  if (!("Notification" in window)) return "denied";
  try {
    return (await navigator.permissions.query({ name: "notifications" })).state;
  } catch {
    return Notification.permission === "default" ? "prompt" : Notification.permission;
  }
}

/**
 * The form for this browser's channel, or why there is none: `publicKey` null means the server
 * has no VAPID keys; `permission` is notificationPermission()'s answer.
 */
export function webPushForm(
  session: UserSession,
  publicKey: string | null,
  permission: PermissionState,
  created: () => Promise<void>,
): HTMLElement {
  const section = h("div", { class: "web-push", id: "push-section" }, h("p", {}, t("push.why")));
  const notice = (key: string) => h("p", { class: "notice warning", id: "push-notice" }, t(key));
  if (!pushSupported()) {
    section.append(notice("push.unsupported"));
    return section;
  }
  if (!publicKey) {
    section.append(notice("push.notSetUp"));
    return section;
  }
  const blocked = permission === "denied" ? notice("push.blocked") : null;
  if (blocked) section.append(blocked);

  const name = textField({
    id: "push-name",
    label: t("push.name"),
    hint: t("push.nameHint"),
    required: true,
    value: t("push.defaultName"),
    apiNames: ["name"],
  });
  const form = consoleForm({
    id: "push-form",
    fields: [name],
    submitLabel: t("push.button"),
    submit: async () => {
      const subscription = await subscribe(publicKey, () => blocked?.remove());
      const { endpoint, keys } = subscription.toJSON();
      await session.api.request(CreateChannelMutation, {
        input: {
          type: "webpush",
          name: name.control.value,
          subscription: { endpoint: endpoint ?? "", keys: { p256dh: keys?.p256dh ?? "", auth: keys?.auth ?? "" } },
        },
      });
      await created();
      return t("push.done").replace("{name}", name.control.value);
    },
  });
  section.append(form.element);
  return section;
}

/**
 * Permission, worker, subscription: each refusal as a sentence (consoleForm shows it). `granted`
 * runs once the person allowed notifications (the page's "blocked" notice no longer holds).
 */
async function subscribe(publicKey: string, granted: () => void): Promise<PushSubscription> {
  const permission = await Notification.requestPermission();
  if (permission !== "granted") throw new Error(t(permission === "denied" ? "push.blocked" : "push.dismissed"));
  granted();
  await navigator.serviceWorker.register(WORKER_PATH, { scope: WORKER_SCOPE });
  const registration = await navigator.serviceWorker.ready;
  const key = fromBase64Url(publicKey);
  const existing = await registration.pushManager.getSubscription();
  // A subscription made with another key (the server's keys changed) cannot be used: renew it.
  if (existing && sameBytes(existing.options.applicationServerKey, key)) return existing;
  await existing?.unsubscribe();
  try {
    return await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
  } catch (error) {
    throw new Error(t("push.subscribeFailed").replace("{error}", (error as Error).message), { cause: error });
  }
}

function fromBase64Url(text: string): Uint8Array<ArrayBuffer> {
  const binary = atob(
    text
      .replace(/-/g, "+")
      .replace(/_/g, "/")
      .padEnd(Math.ceil(text.length / 4) * 4, "="),
  );
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

function sameBytes(buffer: ArrayBuffer | null, bytes: Uint8Array): boolean {
  if (!buffer || buffer.byteLength !== bytes.length) return false;
  const other = new Uint8Array(buffer);
  return bytes.every((byte, index) => other[index] === byte);
}
