// The page's paths. The service serves index.html for each of them (lib/web/web-routes.ts keeps the
// same list), so a shared link opens the right screen.
import type { Screen } from "./context.ts";
import { mapScreen } from "./map/map-screen.ts";
import { dashboardsScreen } from "./dashboards/dashboards-screen.ts";
import { consoleScreen } from "./console/console-screen.ts";
import { resetPasswordScreen } from "./console/reset-password-screen.ts";
import { respondScreen } from "./console/respond-screen.ts";
import { stationScreen } from "./screen/station-screen.ts";
import { sharedRecordScreen } from "./map/shared-record-screen.ts";

export interface Route {
  path: string;
  screen: Screen;
  /** Its entry in the header's menu; none for the pages behind e-mailed links. */
  navKey?: string;
  /** The path's own sub-paths belong to it too (the console's screens). */
  prefix?: boolean;
  /** It signs in on its own, or needs no one: shown also when the map is for signed-in users only. */
  ownSignIn?: boolean;
  /**
   * It adds history entries within its path and follows Back and Forward there itself (the map's
   * open incident): the shell does not draw it again for those.
   */
  ownHistory?: boolean;
}

export const routes: Route[] = [
  { path: "/", screen: mapScreen, navKey: "nav.map", ownHistory: true },
  { path: "/dashboards", screen: dashboardsScreen, navKey: "nav.dashboards" },
  { path: "/console", screen: consoleScreen, navKey: "nav.console", prefix: true, ownSignIn: true },
  // The pages behind the links in e-mails and notifications (their paths are in those links).
  { path: "/auth/reset-password", screen: resetPasswordScreen, ownSignIn: true },
  { path: "/respond", screen: respondScreen, ownSignIn: true },
  // A station's wall screen (a TV or tablet): paired once with a short code, it reads with a
  // credential of its own, so it needs no one signed in.
  { path: "/screen", screen: stationScreen, ownSignIn: true },
  // The share pages' addresses (lib/open-data/share-pages/): the record on the live map.
  { path: "/incidents", screen: sharedRecordScreen, prefix: true },
  { path: "/traffic", screen: sharedRecordScreen, prefix: true },
  { path: "/nl-alerts", screen: sharedRecordScreen, prefix: true },
  { path: "/warnings", screen: sharedRecordScreen, prefix: true },
];

export function routeFor(pathname: string): Route | undefined {
  return routes.find((route) => route.path === pathname || (route.prefix && pathname.startsWith(`${route.path}/`)));
}
