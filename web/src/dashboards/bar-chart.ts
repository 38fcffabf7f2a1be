// The bar charts of the dashboards, with Chart.js. Only the parts used are registered, so the
// bundle carries the bar chart and nothing else of the library. The canvas is an image named by
// its chart's heading; its numbers are in the card's table.
import { BarController, BarElement, CategoryScale, Chart, Legend, LinearScale, Tooltip } from "chart.js";
import { h } from "../dom.ts";
import { formatNumber, locale } from "../i18n.ts";
import { axisColours } from "./colours.ts";

Chart.register(BarController, BarElement, CategoryScale, LinearScale, Tooltip, Legend);

export interface BarSeries {
  label: string;
  values: number[];
  /** One colour for the series, or one per bar. */
  colour: string | string[];
}

export interface BarChartOptions {
  labels: string[];
  series: BarSeries[];
  /** Bars along the vertical axis: for long category names (regions, aircraft). */
  horizontal?: boolean;
  stacked?: boolean;
  /** The accessible name of the canvas. */
  name: string;
}

export function drawBarChart(box: HTMLElement, options: BarChartOptions): () => void {
  const canvas = h("canvas", { role: "img", "aria-label": options.name });
  // A horizontal chart grows with its bars so each label stays readable; set from script, which
  // the page's Content-Security-Policy allows (no style attribute in markup).
  box.style.height = options.horizontal ? `${Math.max(160, options.labels.length * 26 + 60)}px` : "260px";
  box.append(canvas);
  const { text, grid } = axisColours();
  const valueAxis = {
    beginAtZero: true,
    stacked: options.stacked ?? false,
    ticks: { color: text, precision: 0, callback: (value: string | number) => formatNumber(Number(value)) },
    grid: { color: grid },
  };
  const categoryAxis = {
    stacked: options.stacked ?? false,
    ticks: { color: text, autoSkip: true, maxRotation: 0 },
    grid: { display: false },
  };
  const chart = new Chart(canvas, {
    type: "bar",
    data: {
      labels: options.labels,
      datasets: options.series.map((series) => ({
        label: series.label,
        data: series.values,
        backgroundColor: series.colour,
        borderWidth: 0,
      })),
    },
    options: {
      indexAxis: options.horizontal ? "y" : "x",
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      locale: locale(),
      scales: options.horizontal ? { x: valueAxis, y: categoryAxis } : { x: categoryAxis, y: valueAxis },
      plugins: {
        legend: { display: options.series.length > 1, labels: { color: text } },
        tooltip: { enabled: true },
      },
    },
  });
  return () => chart.destroy();
}
