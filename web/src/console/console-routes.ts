// The console's screens by path. Signed-in screens appear in the console's menu in this order.
import { accountScreen } from "./account-screen.ts";
import { channelsScreen } from "./channels-screen.ts";
import { crewScreen } from "./crew-screen.ts";
import type { ConsoleRoute } from "./console-context.ts";
import { forgotPasswordScreen } from "./forgot-password-screen.ts";
import { magicLinkScreen } from "./magic-link-screen.ts";
import { monitorsScreen } from "./monitors/monitors-screen.ts";
import { organizationsScreen } from "./organizations-screen.ts";
import { overviewScreen } from "./overview-screen.ts";
import { receiversScreen } from "./receivers-screen.ts";
import { registerScreen } from "./register-screen.ts";
import { screensScreen } from "./screens-screen.ts";
import { signInScreen } from "./sign-in-screen.ts";
import { tokensScreen } from "./tokens-screen.ts";

export const consoleRoutes: ConsoleRoute[] = [
  { path: "/console", screen: overviewScreen, signedIn: true, navKey: "console.nav.overview" },
  { path: "/console/account", screen: accountScreen, signedIn: true, navKey: "console.nav.account" },
  {
    path: "/console/organizations",
    screen: organizationsScreen,
    signedIn: true,
    navKey: "console.nav.organizations",
  },
  { path: "/console/tokens", screen: tokensScreen, signedIn: true, navKey: "console.nav.tokens" },
  { path: "/console/channels", screen: channelsScreen, signedIn: true, navKey: "console.nav.channels" },
  {
    path: "/console/monitors",
    screen: monitorsScreen,
    signedIn: true,
    navKey: "console.nav.monitors",
    prefix: true,
  },
  { path: "/console/screens", screen: screensScreen, signedIn: true, navKey: "console.nav.screens" },
  { path: "/console/crew", screen: crewScreen, signedIn: true, navKey: "console.nav.crew" },
  { path: "/console/receivers", screen: receiversScreen, signedIn: true, navKey: "console.nav.receivers" },
  { path: "/console/sign-in", screen: signInScreen, signedIn: false },
  { path: "/console/register", screen: registerScreen, signedIn: false },
  { path: "/console/forgot-password", screen: forgotPasswordScreen, signedIn: false },
  // Where a magic link's redirect lands, with the tokens in the fragment.
  { path: "/console/magic-link", screen: magicLinkScreen, signedIn: false },
];

export function consoleRouteFor(pathname: string): ConsoleRoute | undefined {
  return consoleRoutes.find(
    (route) => route.path === pathname || (route.prefix && pathname.startsWith(`${route.path}/`)),
  );
}
