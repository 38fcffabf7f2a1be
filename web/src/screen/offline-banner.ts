// "Offline since 14:02": shown across the screen while the live connection is lost (the API's
// connection state), with the moment it was lost, so a glance tells the screen is not showing the
// present. The API's client reconnects by itself (forever, with back-off); once it is back the
// banner goes and the screen fetches what it missed.
import type { ConnectionState } from "../api/client.ts";
import { h } from "../dom.ts";
import { t } from "../i18n.ts";
import { timeOfDay } from "./screen-texts.ts";

export interface OfflineBanner {
  element: HTMLElement;
  show(state: ConnectionState): void;
}

export function offlineBanner(): OfflineBanner {
  const element = h("p", { class: "screen-offline", role: "alert", hidden: true });
  let since: Date | null = null;
  return {
    element,
    show(state) {
      if (state !== "offline") {
        since = null;
        element.hidden = true;
        return;
      }
      if (since) return;
      since = new Date();
      element.textContent = t("screen.offline").replace("{time}", timeOfDay(since));
      element.hidden = false;
    },
  };
}
