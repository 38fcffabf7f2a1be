// The station screen (/screen, issue 49): a page an organisation opens full-screen on a TV or a
// tablet in a fire station or duty room. Unpaired, it shows a pairing code (pairing-view.ts); once
// a member has typed that code in the console, it keeps the screen credential it was handed
// (screen-credential.ts) and shows the station: idle, or an alarm when one of its monitors matches
// (live-screen.ts). Revoked, it forgets the credential and shows a new code. The app's header is
// hidden here: the screen is read from across a room, and nobody clicks through it.
import type { Screen } from "../context.ts";
import { liveScreen } from "./live-screen.ts";
import { pairingView } from "./pairing-view.ts";
import { forgetScreenToken, storedScreenToken, storeScreenToken } from "./screen-credential.ts";
import "./screen.css";

export const stationScreen: Screen = (root, { api, config }) => {
  document.documentElement.classList.add("station-screen-page");
  let stop = () => {};

  const pair = (revoked: boolean) => {
    stop();
    stop = pairingView(
      root,
      api,
      (token) => {
        storeScreenToken(token);
        show(token);
      },
      { revoked },
    );
  };
  const show = (token: string) => {
    stop();
    stop = liveScreen(root, config, token, () => {
      forgetScreenToken();
      pair(true);
    });
  };

  const token = storedScreenToken();
  if (token) show(token);
  else pair(false);

  return () => {
    stop();
    document.documentElement.classList.remove("station-screen-page");
    root.replaceChildren();
  };
};
