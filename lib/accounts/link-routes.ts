// The pages behind the links in account e-mails: verify an address, follow a magic link (which
// redirects to the client's returnTo with tokens), and a small form that sets a new password
// through the resetPassword mutation.
import express from "express";
import { completeMagicLink, verifyEmail, type AccountDeps } from "./flows.ts";
import { describeError } from "../graphql/errors.ts";
import { escapeHtml, INLINE_SCRIPT_CSP, page } from "../http/html-page.ts";
import { randomUUID } from "node:crypto";

function token(req: express.Request): string {
  return typeof req.query.token === "string" ? req.query.token : "";
}

// The reset page posts the token and the new password to /graphql from the browser.
const RESET_SCRIPT = `
document.querySelector("form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const out = document.querySelector("output");
  const response = await fetch("graphql", { method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify({ query: "mutation ($t: String!, $p: String!) { resetPassword(token: $t, newPassword: $p) }",
      variables: { t: new URLSearchParams(location.search).get("token"), p: event.target.password.value } }) });
  const result = await response.json();
  out.textContent = result.errors ? result.errors[0].message : result.data.resetPassword;
});`;

export function authRoutes(deps: AccountDeps): express.Router {
  const router = express.Router();
  // Links are credentials: no caching, no referrers.
  router.use((_req, res, next) => {
    res.set({ "cache-control": "no-store", "referrer-policy": "no-referrer" });
    next();
  });

  router.get("/auth/verify-email", async (req, res) => {
    try {
      await verifyEmail(deps, token(req));
      res.send(
        page("E-mail address verified", "<p>Thank you: your e-mail address is verified. You can close this page.</p>"),
      );
    } catch (error) {
      res.status(400).send(page("Link not valid", `<p>${escapeHtml(describeError(error, req.path).message)}</p>`));
    }
  });

  router.get("/auth/magic-link", async (req, res) => {
    try {
      const meta = {
        requestUuid: randomUUID(),
        ip: req.socket.remoteAddress ?? null,
        userAgent: req.get("user-agent") ?? null,
      };
      res.redirect(302, await completeMagicLink(deps, meta, token(req)));
    } catch (error) {
      res.status(400).send(page("Link not valid", `<p>${escapeHtml(describeError(error, req.path).message)}</p>`));
    }
  });

  router.get("/auth/reset-password", (_req, res) => {
    res.set("content-security-policy", INLINE_SCRIPT_CSP);
    res.send(
      page(
        "Choose a new password",
        `<form><label>New password <input type="password" name="password" autocomplete="new-password" minlength="10" required></label> ` +
          `<button>Save</button></form><p><output></output></p><script>${RESET_SCRIPT}</script>`,
      ),
    );
  });
  return router;
}
