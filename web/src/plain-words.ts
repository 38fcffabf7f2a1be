// A P2000 page in plain words (P2000Message.plainText, docs/p2000.md#plain-words): "Priority 1
// house fire, Oude Haven, Zierikzee" under the pager's own "P 1 BRT-02 BR woning Oude Haven 3
// Zierikzee 193131", wherever the page shows a message: the map's incident panel, the respond page
// and a monitor's preview. The words are asked in the page's language (the operations take it as
// $language), and the pager's text is always kept as it is above them.
import { h } from "./dom.ts";
import { language } from "./i18n.ts";

/** The plain words as a line for under the pager's text; none when there are none, or they say the same. */
export function plainTextLine(plain: string | null | undefined, pagerText?: string | null): HTMLElement | null {
  if (!plain || plain === pagerText) return null;
  return h("p", { class: "plain-text", lang: language }, plain);
}
