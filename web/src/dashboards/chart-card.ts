// One dashboard card: its heading and description, the chart a job draws, and the same numbers as a
// table in a <details> for a screen reader (and for anyone who wants the figures). The card owns
// the states every chart shares: loading, an error with a retry (rate limited and unreachable said
// as such), and "no data yet" instead of an empty axis.
import { ApiError } from "../api/client.ts";
import { h, replaceChildren } from "../dom.ts";
import { formatNumber, t } from "../i18n.ts";

export interface ChartTable {
  head: string[];
  /** Numbers are written in the reader's language; strings as they are. */
  rows: Array<Array<string | number>>;
}

export interface ChartView {
  table: ChartTable;
  /** Draws the chart into its box (again when the colour scheme changes); returns how to remove it. */
  draw(box: HTMLElement): () => void;
}

export interface CardText {
  title: string;
  description: string;
}

export interface Card {
  element: HTMLElement;
  /** Loads and shows; a newer call wins over one still loading. */
  load(text: CardText, view: () => Promise<ChartView | null>): void;
  /** Draws the chart again from what it has (the colour scheme changed). */
  redraw(): void;
  destroy(): void;
}

export function chartCard(id: string): Card {
  const titleId = `${id}-title`;
  const heading = h("h2", { id: titleId });
  const description = h("p", { class: "chart-description" });
  const body = h("div", { class: "chart-body" });
  const element = h(
    "section",
    { class: "chart-card", "aria-labelledby": titleId, "data-chart": id },
    heading,
    description,
    body,
  );
  let generation = 0;
  let current: ChartView | null = null;
  let undraw: (() => void) | undefined;
  let box: HTMLElement | undefined;

  function clear(): void {
    undraw?.();
    undraw = undefined;
    box = undefined;
    current = null;
  }

  function load(text: CardText, view: () => Promise<ChartView | null>): void {
    const mine = ++generation;
    heading.textContent = text.title;
    description.textContent = text.description;
    clear();
    body.setAttribute("aria-busy", "true");
    replaceChildren(body, h("p", { class: "chart-state", role: "status" }, t("dash.loading")));
    view().then(
      (result) => {
        if (mine !== generation) return;
        body.removeAttribute("aria-busy");
        if (!result) {
          replaceChildren(body, h("p", { class: "chart-state chart-empty" }, t("dash.noData")));
          return;
        }
        current = result;
        box = h("div", { class: "chart-box" });
        replaceChildren(body, box, tableOf(result.table));
        undraw = result.draw(box);
      },
      (error: unknown) => {
        if (mine !== generation) return;
        body.removeAttribute("aria-busy");
        const retry = h("button", { type: "button", onclick: () => load(text, view) }, t("error.retry"));
        replaceChildren(
          body,
          h("div", { class: "chart-state chart-error", role: "alert" }, h("p", {}, messageOf(error)), retry),
        );
      },
    );
  }

  return {
    element,
    load,
    redraw() {
      if (!current || !box) return;
      undraw?.();
      box.replaceChildren();
      undraw = current.draw(box);
    },
    destroy() {
      generation++;
      clear();
    },
  };
}

function messageOf(error: unknown): string {
  if (error instanceof ApiError && error.code === "RATE_LIMITED") return t("dash.rateLimited");
  if (error instanceof ApiError && error.code === "NETWORK_ERROR") return t("dash.networkError");
  return `${t("error.load")}: ${error instanceof Error ? error.message : String(error)}`;
}

function tableOf(table: ChartTable): HTMLElement {
  return h(
    "details",
    { class: "chart-table" },
    h("summary", {}, t("dash.table")),
    h(
      "div",
      { class: "table-scroll" },
      h(
        "table",
        {},
        h("thead", {}, h("tr", {}, ...table.head.map((name) => h("th", { scope: "col" }, name)))),
        h(
          "tbody",
          {},
          ...table.rows.map((row) =>
            h(
              "tr",
              {},
              ...row.map((cell, i) =>
                i === 0
                  ? h("th", { scope: "row" }, typeof cell === "number" ? formatNumber(cell) : cell)
                  : h(
                      "td",
                      { class: typeof cell === "number" ? "number" : null },
                      typeof cell === "number" ? formatNumber(cell) : cell,
                    ),
              ),
            ),
          ),
        ),
      ),
    ),
  );
}
