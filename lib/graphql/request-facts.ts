// Facts about the HTTP request that the account flows need, put in the GraphQL context by
// graphile.config.ts and read by the mutation plugins (lib/graphql/plan-steps.ts). The flows
// themselves (lib/accounts/flows.ts) take these types from here.
import type { IncomingMessage } from "node:http";
import { bearerValue, type RequestAuth } from "../auth/context.ts";

/** What the account flows need to know about the HTTP request. */
export interface RequestMeta {
  requestUuid: string;
  ip: string | null;
  userAgent: string | null;
}

/** Runs SQL as the request's visitor role (RLS and request settings apply). */
export type VisitorQuery = (sql: string, values?: unknown[]) => Promise<readonly any[]>;

/** The language of an answer that has one (requestMagicLinkLogin's): a code for programs, or a text. */
export type Locale = "api" | "en" | "nl";

export interface AccountRequest {
  auth: RequestAuth;
  meta: RequestMeta;
  bearer: string | undefined;
  locale: Locale;
}

declare global {
  namespace Grafast {
    interface Context {
      accountRequest: AccountRequest;
    }
  }
}

/** Accept-Language picks the answer language of requestMagicLinkLogin: nl, en, else a code. */
function localeOf(acceptLanguage: string | undefined): Locale {
  const first = acceptLanguage?.split(",")[0]?.trim().toLowerCase() ?? "";
  if (first.startsWith("nl")) return "nl";
  if (first.startsWith("en")) return "en";
  return "api";
}

export function accountRequestFor(
  req: IncomingMessage | undefined,
  auth: RequestAuth,
  requestUuid: string,
): AccountRequest {
  return {
    auth,
    meta: { requestUuid, ip: req?.socket.remoteAddress ?? null, userAgent: req?.headers["user-agent"] ?? null },
    bearer: bearerValue(req?.headers.authorization),
    locale: localeOf(req?.headers["accept-language"]),
  };
}
