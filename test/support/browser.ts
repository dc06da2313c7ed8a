import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Where the browser tests find Chromium: CHROMIUM_PATH, else Debian's package (README "Set-up"). */
export const chromiumPath = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** The one way browser tests start Chromium: headless, the machine's own build, nothing downloaded. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
}

/**
 * One Chromium for the tests of the describe block that calls this: launched before them and
 * closed after. The browser exists only once the block's beforeAll has run, hence the getter-like wrapper.
 */
export function useBrowser(timeoutMs: number): Pick<Browser, 'newPage'> {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
  }, timeoutMs);
  afterAll(async () => {
    await browser?.close();
  }, timeoutMs);
  return { newPage: (options) => browser!.newPage(options) };
}

/** Where the screenshots go, to look at after a run. */
const SCREENSHOT_DIR = process.env.DASHBOARD_SCREENSHOTS ?? '/tmp/mailwright-dashboard-screenshots';

/** Saves the whole page as `<name>.png` in the screenshots folder. */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`), fullPage: true });
}
