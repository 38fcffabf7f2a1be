// What each console screen is given: the page's context, the signed-in person and their
// environment, and navigation within the console (the language kept).
import type { ResultOf } from "../api/graphql.ts";
import type { MeQuery } from "../account/account-queries.ts";
import type { AppContext } from "../context.ts";

export type Me = ResultOf<typeof MeQuery>;

export interface ConsoleContext extends AppContext {
  /** The person and their current environment; null on the screens for signed-out visitors. */
  me: Me | null;
  /** Go to a path of the page (a console path such as /console/tokens), keeping the language. */
  go(path: string): void;
  /** A link to a path of the page that goes there without a reload (and works as a link: a new tab, copied). */
  link(path: string, text: string): HTMLAnchorElement;
  /** Read the person and their environment again and redraw (after a switch or a rename). */
  reload(): void;
}

/** A console screen draws into its root; it may return how to take itself down. */
export type ConsoleScreen = (root: HTMLElement, context: ConsoleContext) => void | (() => void);

export interface ConsoleRoute {
  path: string;
  screen: ConsoleScreen;
  /** Only for a signed-in person (else the sign-in screen, which comes back here). */
  signedIn: boolean;
  /** Its entry in the console's menu. */
  navKey?: string;
  /** Its sub-paths belong to it too (/console/monitors/<uuid>). */
  prefix?: boolean;
}
