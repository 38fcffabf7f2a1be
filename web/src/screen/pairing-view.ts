// The unpaired screen: a short code, very large, that a member types in the console (Screens →
// "Pair a screen"), as TV apps pair. The code comes from requestScreenPairing with the web
// application's credential; the pairing secret that comes with it stays in memory and is never
// shown, so reading the code off the wall gives no one the screen's credential. Every 3 seconds
// the screen asks claimStationScreen with that secret: null until a member has paired it, then
// the screen's own token, once. An expired code (NOT_FOUND) is replaced by a new one.
import { ApiError, type Api } from "../api/client.ts";
import { h } from "../dom.ts";
import { t } from "../i18n.ts";
import { ClaimScreen, RequestPairing } from "./screen-queries.ts";
import { timeOfDay } from "./screen-texts.ts";

const POLL_MS = 3000;
/** After a failed request (the service away): asked again this much later. */
const RETRY_MS = 5000;

/** Shows the pairing code in `root` until the screen is paired; returns how to stop. */
export function pairingView(
  root: HTMLElement,
  api: Api,
  onPaired: (token: string) => void,
  options: { revoked?: boolean } = {},
): () => void {
  document.title = t("screen.title");
  const code = h("p", { class: "pair-code", "aria-describedby": "pair-how" });
  const expires = h("p", { class: "pair-expires" });
  const status = h("p", { class: "pair-status", role: "status" }, t("screen.pair.asking"));
  root.replaceChildren(
    h(
      "section",
      { class: "screen-pairing", "aria-labelledby": "pair-heading" },
      options.revoked ? h("p", { class: "pair-revoked", role: "alert" }, t("screen.revoked")) : null,
      h("h1", { id: "pair-heading" }, t("screen.pair.heading")),
      h("p", { class: "pair-how", id: "pair-how" }, t("screen.pair.how")),
      h("p", { class: "pair-label" }, t("screen.pair.codeLabel")),
      code,
      expires,
      status,
    ),
  );

  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let secret: string | null = null;
  const later = (step: () => Promise<void>, ms: number) => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(() => void step(), ms);
  };

  async function ask(): Promise<void> {
    try {
      const { requestScreenPairing } = await api.request(RequestPairing);
      if (stopped) return;
      if (!requestScreenPairing) throw new Error(t("error.load"));
      secret = requestScreenPairing.pairingSecret;
      code.textContent = requestScreenPairing.code;
      expires.textContent = t("screen.pair.expires").replace("{time}", timeOfDay(requestScreenPairing.expiresAt));
      status.textContent = t("screen.pair.waiting");
      later(claim, POLL_MS);
    } catch (error) {
      if (stopped) return;
      status.textContent = t("screen.pair.failed").replace("{reason}", (error as Error).message);
      later(ask, RETRY_MS);
    }
  }

  async function claim(): Promise<void> {
    try {
      const { claimStationScreen } = await api.request(ClaimScreen, { secret: secret! });
      if (stopped) return;
      if (claimStationScreen) return onPaired(claimStationScreen.token);
      later(claim, POLL_MS);
    } catch (error) {
      if (stopped) return;
      // The code expired (10 minutes) or is unknown: a new one. Else the service is away for a moment.
      if (error instanceof ApiError && error.code === "NOT_FOUND") return void ask();
      later(claim, RETRY_MS);
    }
  }

  void ask();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}
