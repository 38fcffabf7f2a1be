// A grid of shaded cells (hours by weekday, provinces by month): a real table, so its numbers are
// read out with their row and column headers. The shade is the accent colour mixed into the
// background by the cell's share of the largest value, capped so the cell's text keeps its
// contrast in the light and the dark scheme; set from script (the CSP allows that, not style="").
import { h } from "../dom.ts";
import { formatNumber } from "../i18n.ts";

export interface HeatGrid {
  caption: string;
  corner: string;
  columns: string[];
  rows: Array<{ name: string; values: number[] }>;
  /** A CSS colour variable of the page (--accent, --warn). */
  colourVariable: string;
}

const MAX_SHADE = 45;

export function drawHeatGrid(box: HTMLElement, grid: HeatGrid): () => void {
  const highest = Math.max(1, ...grid.rows.flatMap((row) => row.values));
  const cell = (value: number) => {
    const td = h("td", { class: value === 0 ? "zero" : null }, formatNumber(value));
    if (value > 0) {
      const share = Math.round(8 + (value / highest) * (MAX_SHADE - 8));
      td.style.backgroundColor = `color-mix(in srgb, var(${grid.colourVariable}) ${share}%, transparent)`;
    }
    return td;
  };
  box.append(
    h(
      "div",
      // A wide grid scrolls within itself on a phone, never the page; focusable so a keyboard can.
      { class: "heat-scroll", role: "region", "aria-label": grid.caption, tabindex: "0" },
      h(
        "table",
        { class: "heat-grid" },
        h("caption", { class: "visually-hidden" }, grid.caption),
        h(
          "thead",
          {},
          h("tr", {}, h("th", { scope: "col" }, grid.corner), ...grid.columns.map((c) => h("th", { scope: "col" }, c))),
        ),
        h(
          "tbody",
          {},
          ...grid.rows.map((row) => h("tr", {}, h("th", { scope: "row" }, row.name), ...row.values.map(cell))),
        ),
      ),
    ),
  );
  return () => box.replaceChildren();
}
