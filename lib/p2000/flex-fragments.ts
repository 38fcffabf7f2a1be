// FLEX pages that arrive in parts: a page flagged F continues in the next page to the same
// capcodes (C, or K for the last part). Both the local reader (lib/p2000/flex-ingest.ts) and a
// remote receiver's published lines (plugins/p2000-receivers.ts) join them the same way.
import type { FlexPage } from "./flex-parser.ts";

export class FlexFragments {
  /** Unfinished pages, by their capcodes. */
  private readonly pending = new Map<string, FlexPage>();

  /** The finished page this part completes (or is), or undefined while it waits for its rest. */
  add(page: FlexPage): FlexPage | undefined {
    const key = page.capcodes.join(" ");
    const pending = this.pending.get(key);
    if (page.fragment === "F") {
      this.pending.set(key, pending ? { ...pending, text: pending.text + page.text } : page);
      return undefined;
    }
    if (!pending) return page;
    this.pending.delete(key);
    return { ...pending, text: pending.text + page.text, fragment: "K" };
  }

  /** The pages whose continuation never came, finished as they are: still worth keeping. */
  drain(): FlexPage[] {
    const pages = [...this.pending.values()].map((page) => ({ ...page, fragment: "K" as const }));
    this.pending.clear();
    return pages;
  }
}
