// The page's paths. The service serves index.html for each of them (lib/web/web-routes.ts keeps the
// same list), so a shared link opens the right screen.
import type { Screen } from "./context.ts";
import { mapScreen, prepareMap } from "./map/map-screen.ts";
import { dashboardsScreen } from "./dashboards/dashboards-screen.ts";

export interface Route {
  path: string;
  screen: Screen;
  navKey: string;
  /** Work the screen can start before the page has its configuration (main.ts). */
  prepare?: () => void;
}

export const routes: Route[] = [
  { path: "/", screen: mapScreen, navKey: "nav.map", prepare: prepareMap },
  { path: "/dashboards", screen: dashboardsScreen, navKey: "nav.dashboards" },
];

export function routeFor(pathname: string): Route | undefined {
  return routes.find((route) => route.path === pathname);
}
