// The data of share pages, read once and kept in memory until it changes (docs/open-data.md#share-pages):
// a shared link is opened by every chat that previews it and every reader that follows it within
// minutes. The keeping is the service's response cache (lib/http/response-cache/store.ts), the one
// GraphQL's public reads use, under keys of their own: it hears the database's data_changed
// notifications per domain, drops a record's data when its domain changes, keeps nothing that a
// change overtook while it was read or while the notifications are not heard, and bounds its bytes
// (RESPONSE_CACHE_MB) and the age of what it keeps.
import type pg from "pg";
import type { ResponseCache } from "../../http/response-cache/store.ts";
import type { ShareKindSpec } from "./kinds.ts";
import type { Language } from "./page-content.ts";
import { keptRead } from "../kept-read.ts";

export type PageData = Record<string, unknown>;

export class SharePageData {
  private readonly pool: pg.Pool;
  private readonly cache: ResponseCache;

  constructor(pool: pg.Pool, cache: ResponseCache) {
    this.pool = pool;
    this.cache = cache;
  }

  /** The record's page data, or undefined when there is none. */
  read(spec: ShareKindSpec, uuid: string, language: Language): Promise<PageData | undefined> {
    const key = ["share page", spec.kind, uuid, spec.byLanguage ? language : ""].join("\u0000");
    return keptRead(this.cache, key, spec.domains, async () => {
      const { rows } = await this.pool.query<{ data: PageData | null }>(
        spec.sql,
        spec.byLanguage ? [uuid, language] : [uuid],
      );
      return rows[0]?.data ?? undefined;
    });
  }
}
