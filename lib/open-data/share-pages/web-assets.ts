// The web application's own stylesheet and scripts, as its built page names them
// (web/dist/index.html, written by bin/build-web.ts with hashed names): a share page loads the
// same files, so in a browser the application takes the page over and shows the record on the
// live map, under the same strict Content-Security-Policy (same origin, nothing inline). Read once:
// a build does not change while the service runs (`npm start` builds before it starts), as the web
// routes assume of its files (lib/web/web-routes.ts). Until there is a build the share page still
// has its words, and the page is looked for again, as the web routes look for index.html.
import fs from "node:fs";
import path from "node:path";
import { ROOT_DIR } from "../../paths.ts";

const INDEX = path.join(ROOT_DIR, "web", "dist", "index.html");
/** The tags of the built page's head that load the application. */
const ASSET_TAG = /<link rel="(?:stylesheet|preload|modulepreload)"[^>]*>|<script type="module"[^>]*><\/script>/g;

let built: string[] | undefined;

/** The head tags that load the web application, or none when it is not built. */
export function webAssetTags(): string[] {
  if (built) return built;
  let page: string;
  try {
    page = fs.readFileSync(INDEX, "utf8");
  } catch {
    return [];
  }
  built = page.match(ASSET_TAG) ?? [];
  return built;
}
