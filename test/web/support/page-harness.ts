import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { TOKEN, type TestServer } from '../../server/support/server-fixture.js';
import { buildWebPage } from './build-web.js';
import { launchChromium } from './chromium.js';

/** Where browser tests write their screenshots. */
export const WEB_ARTIFACTS = join(import.meta.dirname, '..', '..', '..', 'test-artifacts', 'web');

export type PageHarness = {
  /** The built web page, for `startTestServer({ deps: { webRoot } })`. */
  readonly webRoot: () => string;
  /** A signed-in page of `server` at `hash`, closed after the test (before its server). */
  open(server: Pick<TestServer, 'address'>, hash: string): Promise<Page>;
};

/**
 * Inside a `describe`: builds the page, launches Chromium once, and closes each test's pages
 * after it; this describe's hooks run before the file's `closeAfterEach`, so pages close first.
 */
export function pageHarness(): PageHarness {
  let browser: Browser;
  let webRoot = '';
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    mkdirSync(WEB_ARTIFACTS, { recursive: true });
    [webRoot, browser] = await Promise.all([buildWebPage(), launchChromium()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });
  afterEach(async () => {
    for (const context of contexts.splice(0)) await context.close();
  });
  return {
    webRoot: () => webRoot,
    async open(server, hash) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      contexts.push(context);
      await context.addInitScript(`localStorage.setItem('correx.token', ${JSON.stringify(TOKEN)})`);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(`${server.address.url}/${hash}`);
      return page;
    },
  };
}
