// The charts' colours come from the page's stylesheet (app.css and dashboards.css), so they follow
// the light and dark schemes; a canvas cannot use var(), so they are read when a chart is drawn.
export function cssColour(name: string): string {
  return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
}

/** Axis text and grid lines of a chart, in the scheme's colours. */
export function axisColours(): { text: string; grid: string } {
  return { text: cssColour("--muted"), grid: cssColour("--line") };
}

/** Calls back when the system switches between light and dark, so charts draw again. */
export function onSchemeChange(callback: () => void): () => void {
  const query = matchMedia("(prefers-color-scheme: dark)");
  query.addEventListener("change", callback);
  return () => query.removeEventListener("change", callback);
}
