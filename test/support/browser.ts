import { chromium, type Browser } from 'playwright-core';

/** Where the browser tests find Chromium: CHROMIUM_PATH, else Debian's package (README "Set-up"). */
export const chromiumPath = () => process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** The one way browser tests start Chromium: headless, the machine's own build, nothing downloaded. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ['--disable-gpu', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
}
