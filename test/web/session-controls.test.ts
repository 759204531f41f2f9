import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ChangeArtifactSchema } from '../../src/core/transitions/default-coding-workflow.js';
import { parseWorkflow } from '../../src/core/transitions/workflow.js';
import { ALWAYS_ALLOW_REASON } from '../../src/interfaces/record-grant.js';
import { scenarioConfig } from '../kernel/kernel-harness.js';
import {
  api,
  closeAfterEach,
  startTestServer,
  type TestServer,
} from '../server/support/server-fixture.js';
import { yieldingModel } from '../server/support/session-scripts.js';
import { pageHarness, WEB_ARTIFACTS } from './support/page-harness.js';
import { browserTestsEnabled } from './support/chromium.js';

closeAfterEach();

/** Reads README.md, then rewrites it (a T1 write: in prompt mode it waits for a person). */
const READ_THEN_WRITE = [
  { toolCalls: [{ name: 'read_file', args: { path: 'README.md' } }] },
  { toolCalls: [{ name: 'write_file', args: { path: 'README.md', content: 'hello\nworld\n' } }] },
  { text: JSON.stringify({ summary: 'done', filesChanged: ['README.md'] }) },
];

/** implement, then check; a redirect from implement may go to check (a declared transition). */
const TWO_STAGES = parseWorkflow(
  {
    id: 'implement-check',
    initialStage: 'implement',
    stages: ['implement', 'check'].map((id) => ({
      id,
      role: 'implementer',
      instructions: 'Change the workspace as the task says.',
      allowedTools: ['read_file', 'write_file', 'edit_file', 'list_dir', 'exec'],
      capabilities: ['tool_calling'],
      artifact: { kind: 'change', schema: z.toJSONSchema(ChangeArtifactSchema) },
      transitions:
        id === 'implement'
          ? [
              { when: { on: 'success' }, to: 'check' },
              { when: { on: 'failure' }, end: 'failed' },
            ]
          : [
              { when: { on: 'success' }, end: 'completed' },
              { when: { on: 'failure' }, end: 'failed' },
            ],
    })),
  },
  { source: 'session-controls.test' },
);

describe.runIf(browserTestsEnabled())('redirect, grants and "always allow" from the page', () => {
  const pages = pageHarness();
  const open = (server: TestServer, hash: string) => pages.open(server, hash);

  const waitingWrite = async (workflow?: typeof TWO_STAGES) => {
    const server = await startTestServer({
      files: { 'README.md': 'hello\n' },
      deps: { webRoot: pages.webRoot(), user: 'alice' },
      modelFor: () => yieldingModel(READ_THEN_WRITE),
      ...(workflow === undefined ? {} : { config: scenarioConfig({ workflow }) }),
    });
    const created = await api(server.address).post('/api/sessions', {
      task: 'Extend the readme',
      workspace: server.workspace,
      mode: 'prompt',
      ...(workflow === undefined ? {} : { workflow: workflow.id }),
    });
    const { sessionId } = created.body as { sessionId: string };
    await expect
      .poll(
        async () =>
          (await server.store.read(sessionId)).some((e) => e.payload.type === 'approval_requested'),
        { timeout: 15_000 },
      )
      .toBe(true);
    return { server, sessionId };
  };

  it('diffs the inbox write against the content the session read, and "always allow" records the CLI\'s grant', async () => {
    const { server, sessionId } = await waitingWrite();
    const page = await open(server, '#/approvals');
    const card = page.locator('article.approval-card');
    await card.waitFor();
    const preview = card.locator('figure.diff');
    expect(await preview.innerText()).not.toContain('earlier content not in the log');
    const lines = async (kind: string) =>
      (await preview.locator(`.diff-${kind}`).allTextContents()).map((line) => line.trimEnd());
    expect(await lines('same')).toEqual(['  hello']);
    expect(await lines('add')).toEqual(['added: + world']);
    const always = card.getByRole('button', { name: 'Always allow: write_file on README.md' });
    await always.waitFor();
    await page.screenshot({ path: join(WEB_ARTIFACTS, 'inbox-always-allow.png'), fullPage: true });
    await always.click();
    // Decided, the card goes: the session no longer waits.
    await card.waitFor({ state: 'detached' });
    await expect
      .poll(async () => (await server.store.read(sessionId)).at(-1)?.payload.type, {
        timeout: 15_000,
      })
      .toBe('workflow_completed');
    const events = await server.store.read(sessionId);
    const grant = events.find((event) => event.payload.type === 'approval_grant_added');
    expect(grant?.payload).toMatchObject({
      scope: { kind: 'path', tool: 'write_file', glob: 'README.md' },
      lifetime: 'session',
      by: 'alice',
      reason: ALWAYS_ALLOW_REASON,
    });
  }, 90_000);

  it('redirects the running stage to one its workflow allows, and adds and revokes a grant', async () => {
    const { server, sessionId } = await waitingWrite(TWO_STAGES);
    const page = await open(server, `#/sessions/${encodeURIComponent(sessionId)}`);
    const redirect = page.getByRole('region', { name: 'Redirect' });
    await redirect.waitFor();
    // The waiting card here offers the same "always allow" as the inbox.
    await page
      .locator('article.approval-card')
      .getByRole('button', { name: 'Always allow: write_file on README.md' })
      .waitFor();
    expect(
      await redirect
        .getByLabel(/From implement to/)
        .locator('option')
        .allTextContents(),
    ).toEqual(['check']);
    await redirect.getByLabel('Reason (optional)').fill('skip ahead');
    await redirect.getByRole('button', { name: 'Redirect' }).click();
    await redirect.getByRole('status').waitFor();
    expect(await redirect.getByRole('status').textContent()).toContain(
      'Redirect to check requested',
    );
    const requested = (await server.store.read(sessionId)).find(
      (event) => event.payload.type === 'redirect_requested',
    );
    expect(requested?.payload).toMatchObject({ to: 'check', by: 'alice', reason: 'skip ahead' });

    const grants = page.getByRole('region', { name: 'Standing approvals' });
    await grants.getByText('No grant').waitFor();
    await grants.getByLabel('Command').fill('npm test');
    await grants.getByLabel('only in stage implement').check();
    await grants.getByLabel('Reason').fill('the tests are safe');
    await grants.getByRole('button', { name: 'Add grant' }).click();
    const listed = grants.getByRole('list', { name: 'Active grants' });
    await listed.waitFor();
    expect(await listed.innerText()).toContain('command: npm test');
    expect(await listed.innerText()).toContain('in implement');
    await page.screenshot({ path: join(WEB_ARTIFACTS, 'session-controls.png'), fullPage: true });
    const added = (await server.store.read(sessionId)).find(
      (event) => event.payload.type === 'approval_grant_added',
    );
    expect(added?.payload).toMatchObject({
      scope: { kind: 'command', command: 'npm test' },
      lifetime: 'stage',
      stageId: 'implement',
      by: 'alice',
      reason: 'the tests are safe',
    });
    await listed.getByRole('button', { name: 'Revoke' }).click();
    await grants.getByText('No grant').waitFor();
    expect((await server.store.read(sessionId)).at(-1)?.payload).toMatchObject({
      type: 'approval_grant_revoked',
      by: 'alice',
    });
    // Ended here, so the server's close has no session to pause (serve.test covers that path).
    await api(server.address).post(`/api/sessions/${sessionId}/cancel`, { reason: 'test over' });
    await expect
      .poll(
        async () =>
          (await server.store.read(sessionId)).some((e) =>
            ['workflow_completed', 'workflow_failed', 'workflow_cancelled'].includes(
              e.payload.type,
            ),
          ),
        { timeout: 15_000 },
      )
      .toBe(true);
    // A dozen browser steps, each waiting on the server: more than the default on a loaded machine.
  }, 90_000);
});
