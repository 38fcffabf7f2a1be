// What every open-data part is given (lib/open-data/routes.ts composes them; service.ts makes them).
import type pg from "pg";
import type { Config } from "../config.ts";
import type { ResponseCache } from "../http/response-cache/store.ts";

export interface OpenDataDeps {
  /**
   * A pool of the authenticator's login of the open data's own (service.ts: a few connections,
   * each statement under STATEMENT_TIMEOUT): reads go through app_private functions made for them.
   */
  authPool: pg.Pool;
  config: Config;
  /** The service's response cache: data kept until the database announces its change. */
  responseCache: ResponseCache;
}
