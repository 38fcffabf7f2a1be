// Headless Chromium for the tests that use a page as a person does (@sparticuz/chromium's build,
// with its own launch arguments: WebGL 2 through SwiftShader, so MapLibre draws). A page records
// what it reported (uncaught errors, console errors, CSP violations, failed requests) so a test can
// assert there were none; axe-core checks it for accessibility; screenshots go to
// test-results/screenshots/ for a person to look at.
import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import chromium from "@sparticuz/chromium";
import puppeteer, { type Browser, type Page, type Viewport } from "puppeteer-core";

/** Unpacking Chromium (first run on a machine) and starting it on a busy 2-core runner. */
export const LAUNCH_TIMEOUT = 180_000;
export const PHONE: Viewport = { width: 360, height: 740, deviceScaleFactor: 2, isMobile: true, hasTouch: true };
export const DESKTOP: Viewport = { width: 1366, height: 850 };

const SCREENSHOTS = path.join(import.meta.dirname, "..", "..", "test-results", "screenshots");

/**
 * Chromium, started. This build runs as one process (--single-process), which now and then dies of a
 * signal while it starts on a loaded runner ("Failed to launch the browser process: Code: null", seen
 * once in a full local run, never twice in a row): such a start is tried again, up to twice. A
 * browser that exits with a code of its own is a real failure and is not retried.
 */
export async function launchBrowser(): Promise<Browser> {
  const executablePath = await chromium.executablePath();
  for (let attempt = 1; ; attempt++) {
    try {
      return await puppeteer.launch({
        executablePath,
        args: chromium.args,
        headless: true,
        protocolTimeout: LAUNCH_TIMEOUT,
      });
    } catch (error) {
      const killedWhileStarting =
        error instanceof Error && /Failed to launch the browser process:\s+Code: null/.test(error.message);
      if (!killedWhileStarting || attempt === 3) throw error;
    }
  }
}

export interface WatchedPage {
  page: Page;
  /** What the page reported so far. */
  problems: string[];
}

export async function newWatchedPage(
  browser: Browser,
  options: { viewport?: Viewport; colorScheme?: "light" | "dark"; language?: string } = {},
): Promise<WatchedPage> {
  const page = await browser.newPage();
  const problems: string[] = [];
  await page.setViewport(options.viewport ?? DESKTOP);
  await page.emulateMediaFeatures([{ name: "prefers-color-scheme", value: options.colorScheme ?? "light" }]);
  if (options.language) {
    // As a browser set to that language: its requests' header and navigator.languages.
    const languages = options.language.split(",").map((tag) => tag.split(";")[0].trim());
    await page.setExtraHTTPHeaders({ "accept-language": options.language });
    await page.evaluateOnNewDocument(
      `Object.defineProperty(navigator, "languages", { get: () => ${JSON.stringify(languages)} });`,
    );
  }
  page.on("pageerror", (error) => problems.push(`page error: ${String(error)}`));
  page.on("console", (message) => {
    if (message.type() === "error") problems.push(`console: ${message.text()}`);
  });
  page.on("requestfailed", (request) => {
    // A subscription's socket closed by the test's own navigation is not a fault of the page.
    if (request.failure()?.errorText === "net::ERR_ABORTED") return;
    problems.push(`request failed: ${request.url()} ${request.failure()?.errorText}`);
  });
  return { page, problems };
}

export async function screenshot(page: Page, name: string): Promise<string> {
  await mkdir(SCREENSHOTS, { recursive: true });
  const file = path.join(SCREENSHOTS, `${name}.png`) as `${string}.png`;
  await page.screenshot({ path: file, fullPage: false });
  return file;
}

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: string[];
}

let axeSource: string | undefined;

/** axe-core's serious and critical violations on the page as it is now. */
export async function seriousAxeViolations(page: Page): Promise<AxeViolation[]> {
  axeSource ??= await readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  // Added through the DevTools protocol, not a <script> of the page, so the page's CSP allows it.
  await page.evaluate(axeSource);
  const violations = (await page.evaluate(`axe.run(document, { resultTypes: ["violations"] }).then((r) =>
    r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(" ")) })))`)) as AxeViolation[];
  return violations.filter((v) => v.impact === "serious" || v.impact === "critical");
}

/**
 * The map's pixels (`.map`) within `tolerance` of a colour, as the screen shows them (a screenshot:
 * WebGL's own buffer is cleared after each frame): how many, and their centre on the page.
 */
export async function drawn(
  page: Page,
  rgb: [number, number, number],
  tolerance = 24,
): Promise<{ count: number; x: number; y: number }> {
  const map = (await page.$(".map"))!;
  const box = (await map.boundingBox())!;
  const png = await map.screenshot({ encoding: "base64" });
  // In the page, whose DOM decodes the PNG (the test's own runtime has no image decoder).
  const found = (await page.evaluate(`(async () => {
    const image = new Image();
    image.src = "data:image/png;base64,${png}";
    await image.decode();
    const canvas = document.createElement("canvas");
    canvas.width = image.width;
    canvas.height = image.height;
    const context = canvas.getContext("2d");
    context.drawImage(image, 0, 0);
    const pixels = context.getImageData(0, 0, image.width, image.height).data;
    const [r, g, b, tol] = ${JSON.stringify([...rgb, tolerance])};
    let count = 0, sumX = 0, sumY = 0;
    for (let i = 0; i < pixels.length; i += 4) {
      if (Math.abs(pixels[i] - r) <= tol && Math.abs(pixels[i + 1] - g) <= tol && Math.abs(pixels[i + 2] - b) <= tol) {
        count++;
        sumX += (i / 4) % image.width;
        sumY += Math.floor(i / 4 / image.width);
      }
    }
    return { count, x: count ? sumX / count / (image.width / ${box.width}) : 0, y: count ? sumY / count / (image.height / ${box.height}) : 0 };
  })()`)) as { count: number; x: number; y: number };
  return { count: found.count, x: box.x + found.x, y: box.y + found.y };
}

export async function pixelsOf(page: Page, rgb: [number, number, number], tolerance = 24): Promise<number> {
  return (await drawn(page, rgb, tolerance)).count;
}
