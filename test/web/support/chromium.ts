import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's chromium (`.ci/run` installs it); override with CORREX_CHROMIUM. */
export const CHROMIUM_PATH = process.env.CORREX_CHROMIUM ?? '/usr/bin/chromium';

/**
 * Whether the browser tests run: always under CI=true (a missing browser then fails them),
 * elsewhere only when Chromium is installed. Nothing ever downloads a browser.
 */
export function browserTestsEnabled(): boolean {
  if (existsSync(CHROMIUM_PATH) || process.env.CI === 'true') return true;
  console.warn(
    `browser tests skipped: no Chromium at ${CHROMIUM_PATH} (apt-get install chromium, or set CORREX_CHROMIUM)`,
  );
  return false;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    // Containers rarely allow Chromium's own sandbox; the page under test is our own.
    args: ['--no-sandbox'],
  });
}
