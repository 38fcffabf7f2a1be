// The page behind the respond link of a notification: two buttons that answer "going" or
// "cancelled" through the respondOnTheWay mutation. Opening the link changes nothing (mail
// scanners follow links); only a button press does. Tested in headless Chromium on a phone-sized
// screen (test/api/respond-page-browser.test.ts).
import express from "express";
import { INLINE_SCRIPT_CSP, page } from "../http/html-page.ts";

// A link without its token still gets the mutation's own "not valid" answer (an empty token), and
// a lost connection or an answer that is not GraphQL (a proxy's error page) gets a sentence, not
// silence. The buttons are disabled while an answer is on its way.
const RESPOND_SCRIPT = `
const buttons = document.querySelectorAll("button");
const out = document.querySelector("output");
for (const button of buttons) button.addEventListener("click", async () => {
  for (const b of buttons) b.disabled = true;
  out.textContent = "Sending…";
  try {
    const response = await fetch("graphql", { method: "POST", headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify({ query: "mutation ($t: String!, $s: String!) { respondOnTheWay(token: $t, status: $s) { status } }",
        variables: { t: new URLSearchParams(location.search).get("token") ?? "", s: button.value } }) });
    const result = await response.json();
    out.textContent = result.errors ? result.errors[0].message
      : result.data.respondOnTheWay.status === "going" ? "Saved: you are on your way." : "Saved: you are not coming.";
  } catch {
    out.textContent = "Your answer could not be sent. Check your connection and try again.";
  } finally {
    for (const b of buttons) b.disabled = false;
  }
});`;

export function respondRoute(): express.Router {
  const router = express.Router();
  router.get("/respond", (_req, res) => {
    res.set({
      "cache-control": "no-store",
      "referrer-policy": "no-referrer",
      "content-security-policy": INLINE_SCRIPT_CSP,
    });
    res.send(
      page(
        "Are you going?",
        `<p><button type="button" value="going">I am on my way</button> <button type="button" value="cancelled">I am not coming</button></p>` +
          `<p><output aria-live="polite"></output></p>` +
          `<noscript><p>This page needs JavaScript to send your answer; turn it on and open the link again.</p></noscript>` +
          `<script>${RESPOND_SCRIPT}</script>`,
      ),
    );
  });
  return router;
}
