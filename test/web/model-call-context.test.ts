import { mkdirSync } from 'node:fs';
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

function call(id: string, name: string, args: object) {
  return sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));
}

describe.runIf(browserTestsEnabled())('"what it saw" on a model call of the session page', () => {
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

  it("opens a call's context manifest rebuilt from the log, items and what came in", async () => {
    model.reply(
      call('c1', 'exec', { command: 'echo one > a.txt' }),
      call('fin', 'finish_change', { summary: 'wrote a.txt', filesChanged: ['a.txt'] }),
    );
    const server = await startProductionServer({
      root: outsideTmpFolder(),
      modelUrl: model.url,
      name: 'context-page',
      webRoot,
    });
    try {
      const created = await api(server.address).post('/api/sessions', {
        task: 'write a.txt',
        workspace: server.workspace,
        workflow: server.workflow,
        mode: 'auto',
      });
      expect(created.status).toBe(201);
      const { sessionId } = created.body as { sessionId: string };
      const events = await waitForEvent(server.store, sessionId, 'workflow_completed');
      const second = events.filter((event) => event.payload.type === 'inference_requested')[1]!;
      const requestId = (second.payload as { requestId: string }).requestId;

      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(30_000);
      await page.goto(`${server.address.url}/#/sessions/${sessionId}`);
      await page.getByLabel('Server token').fill(TOKEN);
      await page.getByRole('button', { name: 'Log in' }).click();

      const open = page.locator(`[data-testid="model-call-context"][data-request="${requestId}"]`);
      await open.click();
      const manifest = page.locator(`[aria-label="What model call ${requestId} saw"]`);
      const included = manifest.getByTestId('manifest-included');
      await included.waitFor();
      // The second call saw the exec's result: it came in since the first call.
      const rows = await included.locator('tbody tr').allTextContents();
      expect(rows.some((row) => row.includes('tool_result'))).toBe(true);
      expect(await manifest.textContent()).toMatch(
        /Came in since the stage's previous call: .*tool_result/,
      );
      const reply = await api(server.address).get(
        `/api/sessions/${sessionId}/context/${requestId}`,
      );
      const body = reply.body as { manifest: { included: unknown[] } };
      expect(rows.length).toBe(body.manifest.included.length);
      await page.screenshot({ path: join(ARTIFACTS, 'model-call-context.png'), fullPage: true });
      await open.click();
      await expect.poll(() => manifest.count()).toBe(0);
      await context.close();
    } finally {
      await server.close();
    }
  }, 180_000);
});
