// The links in account e-mails that the service answers itself: verify an address (then on to
// the console's sign-in screen, which says whether it worked) and follow a magic link (which
// redirects to the client's returnTo with tokens). The password-reset link
// (/auth/reset-password?token=…) is a screen of the web application (web/src/console/).
import express from "express";
import { completeMagicLink, verifyEmail, type AccountDeps } from "./flows.ts";
import { describeError } from "../graphql/errors.ts";
import { escapeHtml, page } from "../http/html-page.ts";
import { randomUUID } from "node:crypto";

function token(req: express.Request): string {
  return typeof req.query.token === "string" ? req.query.token : "";
}

export function authRoutes(deps: AccountDeps): express.Router {
  const router = express.Router();
  // Links are credentials: no caching, no referrers.
  router.use((_req, res, next) => {
    res.set({ "cache-control": "no-store", "referrer-policy": "no-referrer" });
    next();
  });

  router.get("/auth/verify-email", async (req, res) => {
    let verified: boolean;
    try {
      await verifyEmail(deps, token(req));
      verified = true;
    } catch {
      verified = false;
    }
    res.redirect(303, `/console/sign-in?verified=${verified ? 1 : 0}`);
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

  return router;
}
