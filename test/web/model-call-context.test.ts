import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sse, startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { chatCompletionStream } from '../providers/openai-wire.js';
import { outsideTmpFolder } from '../support/outside-tmp.js';
import { startProductionServer, waitForEvent } from '../server/support/production-server.js';
import { api } from '../server/support/server-fixture.js';
import { browserTestsEnabled } from './support/chromium.js';
import { pageHarness, WEB_ARTIFACTS } from './support/page-harness.js';

function call(id: string, name: string, args: object) {
  return sse(chatCompletionStream({ toolCalls: [{ id, name, arguments: JSON.stringify(args) }] }));
}

describe.runIf(browserTestsEnabled())('"what it saw" on a model call of the session page', () => {
  const pages = pageHarness();
  let model: FakeHttpServer;
  beforeAll(async () => {
    model = await startFakeHttpServer();
  });
  afterAll(async () => {
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
      webRoot: pages.webRoot(),
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

      const page = await pages.open(server, `#/sessions/${sessionId}`);
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
      await page.screenshot({
        path: join(WEB_ARTIFACTS, 'model-call-context.png'),
        fullPage: true,
      });
      await open.click();
      await expect.poll(() => manifest.count()).toBe(0);
    } finally {
      await server.close();
    }
  }, 180_000);
});
