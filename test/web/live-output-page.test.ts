import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  sse,
  stall,
  startFakeHttpServer,
  type FakeHttpServer,
} from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { outsideTmpFolder } from '../support/outside-tmp.js';
import { startProductionServer, waitForEvent } from '../server/support/production-server.js';
import { api, TOKEN } from '../server/support/server-fixture.js';
import { buildWebPage } from './support/build-web.js';
import { browserTestsEnabled, launchChromium } from './support/chromium.js';

/** Screenshots land here (gitignored). */
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'web');

const root = outsideTmpFolder();

describe.runIf(browserTestsEnabled())('live output on the session page', () => {
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
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await model?.close();
  });

  it("shows a running command's output under its call and the model's text as it is written, then the recorded result", async () => {
    model.reply(
      sse(
        chatCompletionStream({
          text: ['I will print ', 'three lines.'],
          toolCalls: [
            {
              id: 'call_1',
              name: 'exec',
              arguments: JSON.stringify({
                command: 'echo "line 1"; sleep 3; echo "line 2"; sleep 3; echo "line 3"',
              }),
            },
          ],
        }),
      ),
      // The second answer stops mid-stream: its text so far stays on the page.
      stall(
        chatCompletionStream({ text: ['Three lines ', 'printed; ', 'now I will'] }).slice(0, 4),
      ),
    );
    const server = await startProductionServer({
      root,
      modelUrl: model.url,
      name: 'page',
      webRoot,
    });
    try {
      const created = await api(server.address).post('/api/sessions', {
        task: 'print three lines',
        workspace: server.workspace,
        workflow: server.workflow,
        mode: 'prompt',
      });
      expect(created.status).toBe(201);
      const { sessionId } = created.body as { sessionId: string };
      const asked = (await waitForEvent(server.store, sessionId, 'approval_requested')).find(
        (event) => event.payload.type === 'approval_requested',
      )!;
      const callId = (asked.payload as { callId: string }).callId;

      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      page.setDefaultTimeout(20_000);
      await page.goto(`${server.address.url}/#/sessions/${sessionId}`);
      await page.getByLabel('Server token').fill(TOKEN);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.locator('.approval-card').waitFor();

      const approved = await api(server.address).post(
        `/api/sessions/${sessionId}/approvals/${callId}`,
        { decision: 'approve' },
      );
      expect(approved.status).toBe(200);
      // The command's first line shows under its call while it still runs.
      const call = page.locator(`[data-call-id="${callId}"]`);
      await expect.poll(() => call.getByTestId('live-output').textContent()).toContain('line 1');
      await page.screenshot({ path: join(ARTIFACTS, 'live-command-output.png'), fullPage: true });

      // Then the model's next answer as it is written, at the end of the running stage.
      const writing = page.locator('[data-kind="live-model-text"]');
      await expect.poll(() => writing.textContent()).toContain('Three lines printed; now I will');
      // The receipt replaced the command's live output: its exit code, and no live box.
      await expect.poll(() => call.getByTestId('live-output').count()).toBe(0);
      expect(await call.locator('summary').textContent()).toContain('exit 0');
      await page.screenshot({ path: join(ARTIFACTS, 'live-model-text.png'), fullPage: true });
      await context.close();
    } finally {
      await server.close();
    }
  }, 90_000);
});
