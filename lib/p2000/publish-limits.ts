// What one publishP2000Lines call may carry: the service checks it (plugins/p2000-receivers.ts and
// app_accounts.publish_p2000_pages), and a remote receiver forms its batches within it
// (lib/p2000/remote-publisher.ts).

/** Lines per call. */
export const MAX_PUBLISHED_LINES = 500;
/** Characters per line: a longer one is garbage from a bad signal. */
export const MAX_PUBLISHED_LINE_LENGTH = 4000;
/** Characters per page (fragments joined), as app_hidden.publish_p2000_page stores them. */
export const MAX_PAGE_LENGTH = 2000;
