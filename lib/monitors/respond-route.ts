// The page behind the respond link of a notification: two buttons that answer "going" or
// "cancelled" through the respondOnTheWay mutation. Opening the link changes nothing (mail
// scanners follow links); only a button press does.
import express from "express";
import { INLINE_SCRIPT_CSP, page } from "../http/html-page.ts";

const RESPOND_SCRIPT = `
for (const button of document.querySelectorAll("button")) button.addEventListener("click", async () => {
  const out = document.querySelector("output");
  const response = await fetch("graphql", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "mutation ($t: String!, $s: String!) { respondOnTheWay(token: $t, status: $s) { status } }",
      variables: { t: new URLSearchParams(location.search).get("token"), s: button.value } }) });
  const result = await response.json();
  out.textContent = result.errors ? result.errors[0].message
    : result.data.respondOnTheWay.status === "going" ? "Saved: you are on your way." : "Saved: you are not coming.";
});`;

export function respondRoute(): express.Router {
  const router = express.Router();
  router.get("/respond", (_req, res) => {
    res.set({ "cache-control": "no-store", "referrer-policy": "no-referrer", "content-security-policy": INLINE_SCRIPT_CSP });
    res.send(page("Are you going?",
      `<p><button value="going">I am on my way</button> <button value="cancelled">I am not coming</button></p>` +
      `<p><output></output></p><script>${RESPOND_SCRIPT}</script>`));
  });
  return router;
}
