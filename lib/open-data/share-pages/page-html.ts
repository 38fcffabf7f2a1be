// A share page as HTML5 (docs/open-data.md#share-pages): in its head what link previews and search
// engines read (the canonical address, the description, OpenGraph and Twitter card tags with the
// map image and its size, robots), and the web application's own files, which take the page over
// in a browser; in its body the same words for a reader without JavaScript: the title, the
// description, the facts (times in <time datetime>), the pages in plain words and the map image.
// Nothing inline (no script, no style): the service's Content-Security-Policy forbids it.
import { escapeHtml } from "../../http/html-page.ts";
import { IMAGE_HEIGHT, IMAGE_WIDTH } from "./map-image.ts";
import { localTime, SITE_WORDS, type Language, type SharePage } from "./page-content.ts";
import { webAssetTags } from "./web-assets.ts";

export interface PageAddresses {
  /** The page's own absolute address (with ?lang=en for English). */
  canonical: string;
  /** Each language's absolute address, for hreflang. */
  languages: Record<Language, string>;
  /** The absolute address of the map image (for previews). */
  image: string;
  /** The map image's path on this origin (for the page's own <img>: the Content-Security-Policy allows 'self'). */
  imagePath: string;
  /**
   * The web application's view of the record (a path of this origin): the page's link, and its
   * `map-view` meta tag, which the application's route for these paths follows
   * (web/src/map/shared-record-screen.ts), so the id is read here alone (share-ids.ts).
   */
  map: string;
}

const meta = (attribute: "name" | "property", key: string, content: string) =>
  `<meta ${attribute}="${key}" content="${escapeHtml(content)}" />`;

function head(title: string, tags: string[], language: Language): string {
  return [
    "<!doctype html>",
    `<html lang="${language}">`,
    "<head>",
    '<meta charset="utf-8" />',
    '<meta name="viewport" content="width=device-width, initial-scale=1" />',
    '<meta name="color-scheme" content="light dark" />',
    `<title>${escapeHtml(title)}</title>`,
    ...tags,
  ].join("\n");
}

/** The page of a record. */
export function sharePageHtml(page: SharePage, language: Language, addresses: PageAddresses): string {
  const site = SITE_WORDS[language];
  const title = `${page.title} – ${site.siteName}`;
  const tags = [
    meta("name", "description", page.description),
    meta("name", "robots", page.searchable ? "index, follow, max-image-preview:large" : "noindex, follow"),
    `<link rel="canonical" href="${escapeHtml(addresses.canonical)}" />`,
    ...Object.entries(addresses.languages).map(
      ([lang, href]) => `<link rel="alternate" hreflang="${lang}" href="${escapeHtml(href)}" />`,
    ),
    `<link rel="alternate" hreflang="x-default" href="${escapeHtml(addresses.languages.nl)}" />`,
    meta("property", "og:type", "article"),
    meta("property", "og:site_name", site.siteName),
    meta("property", "og:locale", site.locale),
    meta("property", "og:locale:alternate", SITE_WORDS[language === "nl" ? "en" : "nl"].locale),
    meta("property", "og:title", page.title),
    meta("property", "og:description", page.description),
    meta("property", "og:url", addresses.canonical),
    meta("property", "og:image", addresses.image),
    meta("property", "og:image:type", "image/png"),
    meta("property", "og:image:width", String(IMAGE_WIDTH)),
    meta("property", "og:image:height", String(IMAGE_HEIGHT)),
    meta("property", "og:image:alt", page.imageAlt),
    meta("property", "article:published_time", page.at),
    meta("name", "twitter:card", "summary_large_image"),
    meta("name", "twitter:title", page.title),
    meta("name", "twitter:description", page.description),
    meta("name", "twitter:image", addresses.image),
    meta("name", "twitter:image:alt", page.imageAlt),
    meta("name", "map-view", addresses.map),
    ...webAssetTags(),
  ];
  const facts = page.facts.map(({ label, value, datetime }) => {
    const shown = datetime ? `<time datetime="${escapeHtml(datetime)}">${escapeHtml(value)}</time>` : escapeHtml(value);
    return `<dt>${escapeHtml(label)}</dt><dd>${shown}</dd>`;
  });
  const messages = page.messages.map(
    ({ sent, plainText, text }) =>
      `<li><time datetime="${escapeHtml(sent)}">${escapeHtml(localTime(sent, language))}</time> ` +
      `${escapeHtml(plainText)}${plainText === text ? "" : ` <q>${escapeHtml(text)}</q>`}</li>`,
  );
  return [
    head(title, tags, language),
    "</head>",
    "<body>",
    '<main class="share-page">',
    "<article>",
    `<h1>${escapeHtml(page.title)}</h1>`,
    `<p>${escapeHtml(page.description)}</p>`,
    `<img src="${escapeHtml(addresses.imagePath)}" width="${IMAGE_WIDTH}" height="${IMAGE_HEIGHT}" alt="${escapeHtml(page.imageAlt)}" />`,
    `<dl>${facts.join("")}</dl>`,
    ...(messages.length
      ? [`<section><h2>${escapeHtml(site.messages)}</h2><ol>${messages.join("")}</ol></section>`]
      : []),
    `<p><a href="${escapeHtml(addresses.map)}">${escapeHtml(site.openMap)}</a></p>`,
    "</article>",
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

const NOT_FOUND = {
  nl: { title: "Niet gevonden", text: "Deze melding bestaat niet (meer) op deze site.", home: "Naar de kaart" },
  en: { title: "Not found", text: "This incident is not (or no longer) on this site.", home: "Go to the map" },
} as const;

/** The page of an id that names no record: plain words, kept out of search indexes. */
export function notFoundHtml(language: Language): string {
  const words = NOT_FOUND[language];
  return [
    head(`${words.title} – ${SITE_WORDS[language].siteName}`, [meta("name", "robots", "noindex")], language),
    "</head>",
    "<body>",
    "<main>",
    `<h1>${escapeHtml(words.title)}</h1>`,
    `<p>${escapeHtml(words.text)}</p>`,
    `<p><a href="/">${escapeHtml(words.home)}</a></p>`,
    "</main>",
    "</body>",
    "</html>",
    "",
  ].join("\n");
}
