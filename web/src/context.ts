// What every screen is given: the API, the service's configuration and navigation within the page.
import type { Api } from "./api/client.ts";
import type { WebConfig } from "./api/config.ts";
import type { UserSession } from "./account/session.ts";

export interface AppContext {
  /** The API with the page's public credential (the web-client token, or a signed-in page's own). */
  api: Api;
  /** The console's signed-in person, whose `api` acts for them. */
  session: UserSession;
  config: WebConfig;
  /** Go to a path of the page (with its query), as a link would, without reloading. */
  navigate(path: string, options?: { replace?: boolean }): void;
}

/** A screen draws itself into its root and returns how to take itself down again. */
export type Screen = (root: HTMLElement, context: AppContext) => () => void;
