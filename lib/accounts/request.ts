// Facts about the HTTP request that the account flows need, put in the GraphQL context by
// graphile.config.ts and read by the mutation plugins (lib/graphql/plan-steps.ts).
import type { IncomingMessage } from "node:http";
import type { Locale, RequestMeta } from "./flows.ts";
import { bearerValue, type RequestAuth } from "../auth/context.ts";

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
