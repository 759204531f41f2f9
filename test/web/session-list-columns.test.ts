import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedModel } from '../kernel/kernel-harness.js';
import {
  api,
  closeAfterEach,
  startTestServer,
  TOKEN,
  type TestServer,
} from '../server/support/server-fixture.js';
import { buildWebPage } from './support/build-web.js';
import { browserTestsEnabled, launchChromium } from './support/chromium.js';
import { loadGoldenSession } from './support/golden-session.js';

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'web');

closeAfterEach();

/** Read in the page (a string: the test's tsconfig has no DOM types). */
const STYLE_OF = (selector: string, property: string) =>
  `getComputedStyle(document.querySelector(${JSON.stringify(selector)})).${property}`;

describe.runIf(browserTestsEnabled())('the session list as people read it', () => {
  let browser: Browser;
  let webRoot: string;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [webRoot, browser] = await Promise.all([buildWebPage(), launchChromium()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  const open = async (server: TestServer, hash: string, width = 1280): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    await context.addInitScript(`localStorage.setItem('correx.token', ${JSON.stringify(TOKEN)})`);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.address.url}/${hash}`);
    return page;
  };

  it('shows each workspace, the stage a finished session ended in, ages on one line, and a disabled Cancel that looks disabled', async () => {
    const server = await startTestServer({
      deps: { webRoot },
      modelFor: () =>
        scriptedModel([
          { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
          { text: JSON.stringify({ summary: 'done', filesChanged: ['a.txt'] }) },
        ]),
    });
    const demoId = await loadGoldenSession(server.store, 'cli-demo');
    const failedId = await loadGoldenSession(server.store, 'definition-of-done-fail');
    const created = await api(server.address).post('/api/sessions', {
      task: 'Write a.txt',
      workspace: server.workspace,
      mode: 'prompt',
    });
    const waitingId = (created.body as { sessionId: string }).sessionId;

    const page = await open(server, '#/');
    const row = (sessionId: string) => page.locator(`tr[data-session-id="${sessionId}"]`);
    await row(waitingId).waitFor();
    await row(demoId).waitFor();
    expect(await page.locator('table.sessions thead th').allTextContents()).toEqual([
      'Session',
      'Status',
      'Workspace',
      'Stage',
      'Mode',
      'Age',
      'Tokens (in / out)',
      'Cost',
    ]);
    // No profile of these sessions has prices: the cost column says nothing rather than $0.
    expect(await row(demoId).getByTestId('row-cost').textContent()).toBe('—');
    expect(await row(demoId).getByTestId('row-cost').getAttribute('title')).toBe(
      'no prices configured',
    );
    const workspace = row(demoId).locator('td[data-label="Workspace"]');
    expect(await workspace.getAttribute('title')).toBe(
      '/tmp/keep/correx-demo-test-KSwUIa/workspace',
    );
    expect(await workspace.textContent()).toBe('…/correx-demo-test-KSwUIa/workspace');
    expect(await row(waitingId).locator('td[data-label="Workspace"]').getAttribute('title')).toBe(
      server.workspace,
    );
    expect(await row(demoId).getByTestId('row-stage').textContent()).toBe('ended in review');
    expect(await row(failedId).getByTestId('row-stage').textContent()).toBe('ended in implement');
    await expect
      .poll(() => row(waitingId).getByTestId('row-stage').textContent())
      .toBe('implement');
    // An age ("5 d", "2 h 3 min") never breaks over two lines.
    expect(await page.evaluate(STYLE_OF('table.sessions td.age', 'whiteSpace'))).toBe('nowrap');
    const age = await row(demoId).locator('td.age').boundingBox();
    const task = await row(demoId).locator('td[data-label="Mode"]').boundingBox();
    expect(age!.height).toBe(task!.height);
    const ageText = await row(demoId).locator('td.age').innerText();
    expect(ageText).not.toContain('\n');
    await page.screenshot({ path: join(ARTIFACTS, 'session-list-columns.png'), fullPage: true });

    // A finished session's Cancel is disabled, and drawn as disabled, not as a red action.
    const session = await open(server, `#/sessions/${encodeURIComponent(demoId)}`);
    const cancel = session.getByRole('button', { name: 'Cancel' });
    await cancel.waitFor();
    expect(await cancel.isDisabled()).toBe(true);
    const [disabledColour, mutedColour] = (await session.evaluate(`(() => {
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent === 'Cancel');
      const probe = document.createElement('span');
      probe.style.color = 'var(--muted)';
      document.body.append(probe);
      return [getComputedStyle(button).color, getComputedStyle(probe).color];
    })()`)) as [string, string];
    expect(disabledColour).toBe(mutedColour);
    await session
      .getByRole('group', { name: 'Session controls' })
      .screenshot({ path: join(ARTIFACTS, 'session-controls-disabled.png') });
  });
});
