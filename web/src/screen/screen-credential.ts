// The screen's own credential (an API token with scope screen:read, claimStationScreen hands it
// over once), kept in this browser's localStorage so the screen stays paired across reloads and
// restarts of the TV. It never goes in the URL, so a passer-by cannot copy it from the address
// bar; revoking the screen in the console makes it useless, and the screen then forgets it.
const KEY = "nlis.stationScreenToken";

export function storedScreenToken(): string | null {
  return localStorage.getItem(KEY);
}

export function storeScreenToken(token: string): void {
  localStorage.setItem(KEY, token);
}

export function forgetScreenToken(): void {
  localStorage.removeItem(KEY);
}
