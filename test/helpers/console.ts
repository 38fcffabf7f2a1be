// The console in Chromium for a person who is signed in already: the session the console keeps
// (web/src/account/session.ts: localStorage "nlis.session") put in place before the page's script
// runs, so a test starts at the screen it is about. The sign-in itself is tested through its form
// (test/web/console-account.test.ts).
import type { Browser } from "puppeteer-core";
import { newWatchedPage, type WatchedPage } from "./browser.ts";
import type { TestUser } from "./users.ts";

/** Where the console keeps its session (the key web/src/account/session.ts uses). */
export const SESSION_KEY = "nlis.session";

export async function openConsoleAs(
  browser: Browser,
  baseUrl: string,
  user: Pick<TestUser, "accessToken" | "refreshToken">,
  path: string,
  options: Parameters<typeof newWatchedPage>[1] = {},
): Promise<WatchedPage> {
  const watched = await newWatchedPage(browser, options);
  const session = {
    accessToken: user.accessToken,
    refreshToken: user.refreshToken,
    // The access token's own expiry is read by the page from the JWT when it refreshes; 15 minutes.
    expiresAt: Date.now() + 14 * 60_000,
  };
  // Only on the service's origin, and only once (a reload keeps what the page stored since).
  await watched.page.evaluateOnNewDocument(
    `if (location.origin === ${JSON.stringify(new URL(baseUrl).origin)} && !sessionStorage.getItem("test.seeded")) {
       sessionStorage.setItem("test.seeded", "1");
       localStorage.setItem(${JSON.stringify(SESSION_KEY)}, ${JSON.stringify(JSON.stringify(session))});
     }`,
  );
  await watched.page.goto(new URL(path, baseUrl).href, { waitUntil: "load" });
  return watched;
}
