import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { outsideTmpFolder } from '../support/outside-tmp.js';
import { startProductionServer, waitForEvent } from '../server/support/production-server.js';
import { api, TOKEN } from '../server/support/server-fixture.js';
import { buildWebPage } from './support/build-web.js';
import { browserTestsEnabled, launchChromium } from './support/chromium.js';

/** Screenshots land here (gitignored). */
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'web');

const root = outsideTmpFolder();

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

describe.runIf(browserTestsEnabled())('"fork from here" on the session page', () => {
  let browser: Browser;
  let webRoot: string;
  let model: FakeHttpServer;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [webRoot, browser, model] = await Promise.all([
      buildWebPage(),
      launchChromium(),
      startFakeHttpServer(),
    ]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await model?.close();
  });

  it('forks before a call from its timeline entry, and the page opens the running fork', async () => {
    model.reply(exec('c1', 'echo one > a.txt'), exec('c2', 'echo two > a.txt'), finish);
    const server = await startProductionServer({
      root,
      modelUrl: model.url,
      name: 'fork-page',
      webRoot,
      keepPreimages: true,
    });
    try {
      const created = await api(server.address).post('/api/sessions', {
        task: 'write a.txt twice',
        workspace: server.workspace,
        workflow: server.workflow,
        mode: 'auto',
      });
      expect(created.status).toBe(201);
      const { sessionId } = created.body as { sessionId: string };
      await waitForEvent(server.store, sessionId, 'workflow_completed');

      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(`${server.address.url}/#/sessions/${sessionId}`);
      await page.getByLabel('Server token').fill(TOKEN);
      await page.getByRole('button', { name: 'Log in' }).click();

      // The stage offers a fork before it started; the second call, once opened, before it.
      await page.getByTestId('fork-from-here').first().waitFor();
      expect(await page.getByTestId('fork-from-here').first().getAttribute('data-at')).toBe(
        'stage:implement#1',
      );
      const call = page.locator('[data-call-id="implement.1.2.1"]');
      await call.locator('summary').click();
      await call.getByTestId('fork-from-here').click();
      const form = page.getByRole('form', {
        name: 'Fork before call implement.1.2.1 was proposed',
      });
      await form.waitFor();
      model.reply(finish);
      await form.getByRole('button', { name: 'Fork' }).click();

      // The page moves to the fork, which the server started and runs to its end.
      await expect.poll(() => new URL(page.url()).hash).not.toBe(`#/sessions/${sessionId}`);
      const forkId = decodeURIComponent(new URL(page.url()).hash.replace('#/sessions/', ''));
      const events = await waitForEvent(server.store, forkId, 'workflow_completed');
      const forked = events.find((event) => event.payload.type === 'session_forked')!;
      expect(forked.payload).toMatchObject({ parentSessionId: sessionId });
      await page.locator('#session-title').waitFor();
      await expect.poll(() => page.locator('.timeline').textContent()).toContain(`Forked from ${sessionId} at #`);
      const workspace = (forked.payload as { workspace: string }).workspace;
      expect(readFileSync(join(workspace, 'a.txt'), 'utf8')).toBe('two\n');
      await page.screenshot({ path: join(ARTIFACTS, 'fork-from-here.png'), fullPage: true });
      await context.close();
    } finally {
      await server.close();
    }
  }, 180_000);
});
