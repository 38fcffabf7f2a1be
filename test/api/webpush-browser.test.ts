// The push service worker in headless Chromium, as far as a headless browser without a push
// service goes: a page of the service reads webPushPublicKey, registers /push/sw.js for the whole
// origin (Service-Worker-Allowed: /) and the worker installs, activates and takes control of the page. Subscribing is
// tried and must fail as Chromium fails without its push service (Google's FCM, unreachable and
// not replaceable in a test); the headless shell also denies the notification permission, so the
// worker's showNotification cannot be watched here. The pushes themselves, encrypted and signed,
// are checked at a local push service in webpush-channel.test.ts.
import chromium from "@sparticuz/chromium";
import { afterAll, beforeAll, expect, test } from "@jest/globals";
import puppeteer, { type Browser, type Page } from "puppeteer-core";
import { TEST_VAPID_KEYS, useTestService } from "../helpers/service.ts";

// The page's globals, typed for the few this file uses (the project's TypeScript has no DOM library).
interface Registration {
  scope: string;
  active: { scriptURL: string; state: string } | null;
  pushManager: { subscribe(options: { userVisibleOnly: boolean; applicationServerKey: string }): Promise<unknown> };
}
declare const navigator: {
  serviceWorker: {
    register(url: string, options: { scope: string }): Promise<Registration>;
    ready: Promise<Registration>;
    controller: unknown;
  };
};

// Unpacking Chromium (first run on a machine) and starting it on a busy 2-core runner.
const LAUNCH_TIMEOUT = 180_000;

const ctx = useTestService();
let browser: Browser | undefined;
let page: Page;
const problems: string[] = [];
beforeAll(async () => {
  browser = await puppeteer.launch({
    executablePath: await chromium.executablePath(),
    args: chromium.args,
    headless: true,
    protocolTimeout: LAUNCH_TIMEOUT,
  });
  page = await browser.newPage();
  page.on("pageerror", (error) => problems.push(`page error: ${String(error)}`));
}, LAUNCH_TIMEOUT);
afterAll(async () => {
  await browser?.close();
});

test("a page of the service registers /push/sw.js for the whole origin with the webPushPublicKey", async () => {
  // Any page of the origin may register the worker; /health is one without a CSP of its own.
  await page.goto(`${ctx.service.url}/health`);
  const result = await page.evaluate(async () => {
    const answer = await fetch("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query: "{ webPushPublicKey }" }),
    });
    const body = (await answer.json()) as any;
    if (!body.data) throw new Error(`${answer.status} ${JSON.stringify(body)}`);
    const applicationServerKey = body.data.webPushPublicKey as string;
    await navigator.serviceWorker.register("/push/sw.js", { scope: "/" });
    const registration = await navigator.serviceWorker.ready;
    // ready comes with an active worker that may still be activating; it claims this page once activated.
    for (let i = 0; i < 100 && (registration.active?.state !== "activated" || !navigator.serviceWorker.controller); i++)
      await new Promise((resolve) => setTimeout(resolve, 50));
    let subscribeError = "";
    try {
      await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
    } catch (error) {
      subscribeError = String(error);
    }
    return {
      applicationServerKey,
      scope: registration.scope,
      script: registration.active?.scriptURL,
      state: registration.active?.state,
      controlled: navigator.serviceWorker.controller !== null,
      subscribeError,
    };
  });
  expect(result).toMatchObject({
    applicationServerKey: TEST_VAPID_KEYS.publicKey,
    scope: `${ctx.service.url}/`,
    script: `${ctx.service.url}/push/sw.js`,
    state: "activated",
    controlled: true,
  });
  // Headless Chromium has no push service (nor a notification permission to give): subscribing
  // stops there, with the applicationServerKey accepted.
  expect(result.subscribeError).toMatch(/AbortError|NotAllowedError/);
  expect(result.subscribeError).not.toMatch(/applicationServerKey|InvalidAccessError/);
  expect(problems).toEqual([]);
});
