// What the base map's sources ask to be credited with, as Leaflet's attribution control shows it
// (Leaflet sets it as HTML): only its text and its links to http(s) addresses reach the page,
// whoever wrote it (a style's or TileJSON's host, the operator's MAP_TILE_ATTRIBUTION).

/** Elements whose content is no text to show: dropped with it. */
const HIDDEN_CONTENT = new Set(["SCRIPT", "STYLE", "TEMPLATE", "NOSCRIPT", "TITLE", "TEXTAREA"]);

/** An attribution as Leaflet may show it: its text and its http(s) links, nothing else. */
export function safeAttribution(html: string): string {
  const parsed = new DOMParser().parseFromString(html, "text/html");
  const out = document.createElement("span");
  const copy = (from: Node, to: Node) => {
    for (const node of from.childNodes) {
      if (node.nodeType === Node.TEXT_NODE) to.appendChild(document.createTextNode(node.textContent ?? ""));
      else if (node instanceof HTMLAnchorElement && /^https?:\/\//i.test(node.getAttribute("href") ?? "")) {
        const link = document.createElement("a");
        link.href = node.getAttribute("href")!;
        link.target = "_blank";
        link.rel = "noopener noreferrer";
        copy(node, link);
        to.appendChild(link);
      } else if (node.nodeType === Node.ELEMENT_NODE && !HIDDEN_CONTENT.has(node.nodeName)) copy(node, to);
    }
  };
  copy(parsed.body, out);
  return out.innerHTML;
}
