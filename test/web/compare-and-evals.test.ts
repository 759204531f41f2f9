import { execFile } from 'node:child_process';
import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnvironment, CORREX_CLI } from '../cli/cli-process.js';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { outsideTmpFolder } from '../support/outside-tmp.js';
import { startProductionServer, waitForEvent } from '../server/support/production-server.js';
import { api, TOKEN } from '../server/support/server-fixture.js';
import { buildWebPage } from './support/build-web.js';
import { browserTestsEnabled, launchChromium } from './support/chromium.js';

/** Screenshots land here (gitignored). */
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'web');

function exec(id: string, command: string) {
  return sse(
    chatCompletionStream({
      toolCalls: [{ id, name: 'exec', arguments: JSON.stringify({ command }) }],
    }),
  );
}

const finish = sse(
  chatCompletionStream({
    toolCalls: [
      {
        id: 'fin',
        name: 'finish_change',
        arguments: JSON.stringify({ summary: 'wrote a.txt', filesChanged: ['a.txt'] }),
      },
    ],
  }),
);

describe.runIf(browserTestsEnabled())('the compare and eval pages', () => {
  const root = realpathSync(outsideTmpFolder());
  const home = join(root, 'home');
  let browser: Browser;
  let webRoot: string;
  let model: FakeHttpServer;
  let evalId = '';

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    mkdirSync(home, { recursive: true });
    // One task by two scripted models, saved under the home the server reads, in its store.
    const evalRun = promisify(execFile)(
      process.execPath,
      [
        ...CORREX_CLI,
        '--store',
        join(home, 'pages.db'),
        'eval',
        'run',
        'builtin',
        '--model',
        'scripted:good',
        '--model',
        'scripted:weak',
        '--task',
        'fix-median',
        '--workdir',
        join(root, 'runs'),
        '--json',
      ],
      { env: cliEnvironment(home), timeout: 300_000 },
    );
    let stdout: string;
    [webRoot, browser, model, { stdout }] = await Promise.all([
      buildWebPage(),
      launchChromium(),
      startFakeHttpServer(),
      evalRun,
    ]);
    evalId = (JSON.parse(stdout) as { id: string }).id;
  }, 360_000);
  afterAll(async () => {
    await browser?.close();
    await model?.close();
  });

  it('opens a fork’s comparison with its parent, then the eval run and one of its sessions', async () => {
    model.reply(exec('c1', 'echo one > a.txt'), exec('c2', 'echo two > a.txt'), finish);
    const server = await startProductionServer({
      root,
      modelUrl: model.url,
      name: 'pages',
      webRoot,
      keepPreimages: true,
      evalReports: true,
    });
    try {
      const created = await api(server.address).post('/api/sessions', {
        task: 'write a.txt twice',
        workspace: server.workspace,
        workflow: server.workflow,
        mode: 'auto',
      });
      expect(created.status).toBe(201);
      const { sessionId: parentId } = created.body as { sessionId: string };
      await waitForEvent(server.store, parentId, 'workflow_completed');
      model.reply(exec('d1', 'echo three > a.txt'), finish);
      const forked = await api(server.address).post(`/api/sessions/${parentId}/fork`, {
        at: 'stage:implement',
        mode: 'auto',
      });
      expect(forked.status, JSON.stringify(forked.body)).toBe(201);
      const { sessionId: forkId } = forked.body as { sessionId: string };
      await waitForEvent(server.store, forkId, 'workflow_completed');

      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(`${server.address.url}/#/sessions/${forkId}`);
      await page.getByLabel('Server token').fill(TOKEN);
      await page.getByRole('button', { name: 'Log in' }).click();

      // The fork's page names its parent and compares with it.
      await page.getByTestId('compare-with-parent').click();
      await expect.poll(() => new URL(page.url()).hash).toBe(`#/compare/${parentId}/${forkId}`);
      const first = page.getByTestId('first-difference');
      await first.waitFor();
      expect(await first.textContent()).toMatch(/^At #\d+: .* in a, session_forked in b/);
      const table = page.getByTestId('compare-table');
      const rowText = async (name: string) =>
        (await table.getByRole('row', { name: new RegExp(`^${name}`) }).innerText()).replace(
          /\s+/g,
          ' ',
        );
      expect(await rowText('Outcome')).toBe('Outcome completed completed');
      expect(await rowText('Files changed')).toBe(
        'Files changed a.txt created +1 −0 a.txt created +1 −0',
      );
      expect(await rowText('Approvals asked')).toBe('Approvals asked 0 0');
      const file = page.getByTestId('compared-file');
      expect(await file.locator('figcaption').innerText()).toBe(
        'a.txt a created, b created: differ',
      );
      const diff = (await file.locator('pre').innerText()).split('\n').filter(Boolean);
      expect(diff).toEqual(['@@ -1,1 +1,1 @@', '-two', '+three']);
      await page.screenshot({ path: join(ARTIFACTS, 'compare-page.png'), fullPage: true });

      // The eval run the CLI saved: pass rates per model, then its runs with their sessions.
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Evals' })
        .click();
      const models = page.getByRole('table', { name: `Models of eval run ${evalId}` });
      await models.waitFor();
      expect(await models.getByTestId('pass-rate').allInnerTexts()).toEqual([
        '1/1 (100%)',
        '0/1 (0%)',
      ]);
      await page.getByRole('link', { name: /^builtin, / }).click();
      const runs = page.getByTestId('eval-run-row');
      await expect.poll(() => runs.count()).toBe(2);
      expect(await runs.nth(1).innerText()).toMatch(
        /^scripted:weak\s+fix-median\s+failed session failed; node --test fails \(exit 1\)\s+failed\s/,
      );
      await page.screenshot({ path: join(ARTIFACTS, 'eval-page.png'), fullPage: true });
      const session = runs.nth(0).getByRole('link');
      const sessionId = await session.innerText();
      await session.click();
      await expect.poll(() => new URL(page.url()).hash).toBe(`#/sessions/${sessionId}`);
      await page.locator('#session-title').waitFor();
      await context.close();
    } finally {
      await server.close();
    }
  }, 180_000);
});
