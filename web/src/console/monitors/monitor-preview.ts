// What a monitor would have done over the past 30 days (monitorPreview): the counts, how many
// notifications that makes a day (with a warning when that is many), a bar per day (a list a
// screen reader reads as "26 Nov: 3"), the bursts a burst rule would have told of, and the newest
// matches (a P2000 page with its plain words). The points go on the form's map (circle-map.ts).
import { h, replaceChildren } from "../../dom.ts";
import { dateFormat, formatDateTime, formatNumber, t } from "../../i18n.ts";
import { plainTextLine } from "../../plain-words.ts";
import type { Preview } from "./monitor-queries.ts";

export interface PreviewPanel {
  element: HTMLElement;
  show(preview: Preview): void;
  clear(): void;
}

/**
 * More notifications a day than this (on average over the preview's days) and the form asks before
 * saving: a phone that buzzes more often than this is soon ignored, or muted.
 */
export const NOISY_PER_DAY = 10;

/** The notifications the preview's rules let through, per day of its window. */
export function perDay(preview: Preview): number {
  return preview.notifications / Math.max(1, preview.byDay.length);
}

/** "about 3", "fewer than 1", in the reader's numbers. */
export function aboutPerDay(preview: Preview): string {
  const each = perDay(preview);
  if (each === 0) return t("monitors.preview.none");
  if (each < 1) return t("monitors.preview.lessThanOne");
  return t("monitors.preview.about").replace("{count}", formatNumber(Math.round(each)));
}

export function previewSummary(preview: Preview): string {
  return `${t(preview.matches === 1 ? "monitors.preview.summaryOne" : "monitors.preview.summary")
    .replace("{matches}", formatNumber(preview.matches))
    .replace("{notifications}", formatNumber(preview.notifications))} ${t("monitors.preview.perDay.sentence").replace(
    "{perDay}",
    aboutPerDay(preview),
  )}`;
}

/** The warning for a monitor that would notify more than NOISY_PER_DAY a day; null when it would not. */
export function noisyWarning(preview: Preview): string | null {
  if (perDay(preview) <= NOISY_PER_DAY) return null;
  return t("monitors.preview.noisy")
    .replace("{perDay}", formatNumber(Math.round(perDay(preview))))
    .replace("{notifications}", formatNumber(preview.notifications))
    .replace("{days}", formatNumber(preview.byDay.length));
}

/** A bar as high as its share (set through the CSSOM: the page's CSP allows no style attributes). */
function bar(share: number): HTMLElement {
  const element = h("span", { class: "day-bar" });
  element.style.height = `${share * 100}%`;
  return element;
}

/** "5 matches from 28-11 14:05 · Oss", and why it would not have been told when held back. */
function burstRow(burst: Preview["bursts"][number]): HTMLElement {
  const said = t("monitors.preview.burst")
    .replace("{matches}", formatNumber(burst.matches))
    .replace("{start}", formatDateTime(burst.startedAt));
  return h(
    "li",
    { class: "row" },
    h(
      "div",
      {},
      h("p", { class: "row-title" }, burst.label ? `${said} · ${burst.label}` : said),
      burst.notified
        ? null
        : h(
            "p",
            { class: "row-meta" },
            t("monitors.preview.burstHeld").replace("{reason}", burst.suppressedReason ?? ""),
          ),
    ),
  );
}

export function previewPanel(): PreviewPanel {
  const element = h("section", {
    class: "monitor-preview",
    id: "monitor-preview",
    "aria-labelledby": "monitor-preview-heading",
    hidden: true,
  });
  const day = dateFormat({ day: "numeric", month: "short", timeZone: "UTC" });
  return {
    element,
    clear: () => {
      element.hidden = true;
      element.replaceChildren();
    },
    show(preview) {
      const counts = preview.byDay.map((one) => one.matches);
      const most = Math.max(1, ...counts);
      const [first, last] = [preview.byDay[0], preview.byDay.at(-1)];
      const withPlace = preview.items.filter((item) => item.latitude !== null && item.longitude !== null).length;
      // A P2000 match's page in plain words, by the message's uuid (an item's uuid for kind p2000).
      const plainWords = new Map(preview.messages.map((message) => [message.uuid, message.plainText]));
      replaceChildren(
        element,
        h("h3", { id: "monitor-preview-heading" }, t("monitors.preview.heading")),
        h("p", { class: "monitor-preview-count" }, previewSummary(preview)),
        noisyWarning(preview)
          ? h("p", { class: "notice warning", id: "monitor-preview-noisy" }, noisyWarning(preview))
          : null,
        preview.items.length
          ? h("p", { class: "field-hint" }, t("monitors.preview.onMap").replace("{count}", formatNumber(withPlace)))
          : null,
        h(
          "ol",
          { class: "day-bars", "aria-label": t("monitors.preview.perDay") },
          ...preview.byDay.map((one) => {
            const label = `${day.format(new Date(`${one.date}T00:00:00Z`))}: ${formatNumber(one.matches)}`;
            return h("li", { title: label }, bar(one.matches / most), h("span", { class: "visually-hidden" }, label));
          }),
        ),
        h(
          "p",
          { class: "day-bars-axis", "aria-hidden": "true" },
          h("span", {}, first ? day.format(new Date(`${first.date}T00:00:00Z`)) : ""),
          h("span", {}, t("monitors.preview.most").replace("{count}", formatNumber(Math.max(0, ...counts)))),
          h("span", {}, last ? day.format(new Date(`${last.date}T00:00:00Z`)) : ""),
        ),
        preview.bursts.length
          ? h(
              "details",
              { open: true, id: "monitor-preview-bursts" },
              h("summary", {}, `${t("monitors.preview.bursts")} (${formatNumber(preview.bursts.length)})`),
              h("ul", { class: "rows" }, ...preview.bursts.slice(0, 20).map(burstRow)),
            )
          : null,
        preview.items.length
          ? h(
              "details",
              {},
              h("summary", {}, t("monitors.preview.newest")),
              h(
                "ul",
                { class: "rows" },
                ...preview.items
                  .slice(0, 20)
                  .map((item) =>
                    h(
                      "li",
                      { class: "row" },
                      h(
                        "div",
                        {},
                        h("p", { class: "row-title" }, item.title ?? item.kind),
                        plainTextLine(plainWords.get(item.uuid), item.title),
                        h("p", { class: "row-meta" }, formatDateTime(item.at)),
                      ),
                    ),
                  ),
              ),
            )
          : null,
      );
      element.hidden = false;
    },
  };
}
