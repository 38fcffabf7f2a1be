// The small server-rendered page a failed magic link shows (the other e-mailed links are screens of
// the web application).

/** Text made safe for an element's content or a quoted attribute (the share pages' too, lib/open-data/). */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export function page(title: string, body: string): string {
  return (
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">` +
    `<meta name="referrer" content="no-referrer"><title>${escapeHtml(title)}</title>` +
    `<style>body{font:16px system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;overflow-wrap:break-word}input,button{font:inherit;padding:.4rem;max-width:100%}button{min-height:2.75rem;margin:0 .25rem .5rem 0}</style>` +
    `</head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`
  );
}
