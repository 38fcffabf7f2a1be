// GET /push/sw.js: the service worker that shows the service's Web Push messages
// (lib/monitors/channels/webpush.ts) and opens their link on a click. A page registers it and
// subscribes with the VAPID key of the webPushPublicKey query (docs/channels/webpush.md); the web
// app will register this same worker. Service-Worker-Allowed lets a page register it for the whole
// origin (scope "/"), not only /push/.
import express from "express";

/**
 * A message the worker cannot read (not JSON) still shows, as the push spec expects of a
 * userVisibleOnly subscription: a browser may revoke the permission of a worker that shows nothing.
 * A dossier's later message replaces its earlier notification (tag) and alerts again (renotify).
 */
export const PUSH_WORKER_SCRIPT = `"use strict";
self.addEventListener("install", () => self.skipWaiting());
self.addEventListener("activate", (event) => event.waitUntil(self.clients.claim()));
self.addEventListener("push", (event) => {
  let message;
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = { body: event.data ? event.data.text() : "" };
  }
  const title = message.title || "NL incidents";
  event.waitUntil(self.registration.showNotification(title, {
    body: message.body || "",
    tag: message.tag,
    renotify: Boolean(message.tag),
    timestamp: message.timestamp,
    requireInteraction: message.urgency === "high",
    data: { url: message.url || "/", kind: message.kind, code: message.code },
  }));
});
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const url = new URL(event.notification.data && event.notification.data.url || "/", self.location.origin).href;
  event.waitUntil((async () => {
    const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const open = windows.find((client) => client.url === url);
    if (open) return open.focus();
    return self.clients.openWindow(url);
  })());
});
`;

export function pushWorkerRoute(): express.Router {
  const router = express.Router();
  router.get("/push/sw.js", (_req, res) => {
    res.set({
      "content-type": "text/javascript; charset=utf-8",
      // Browsers check for a new worker at most every 24 hours anyway; no-cache makes it at once.
      "cache-control": "no-cache",
      "service-worker-allowed": "/",
    });
    res.send(PUSH_WORKER_SCRIPT);
  });
  return router;
}
