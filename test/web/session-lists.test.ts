import { mkdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';
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

const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'web');
const done = { text: JSON.stringify({ summary: 'done', filesChanged: [] }) };

closeAfterEach();

describe.runIf(browserTestsEnabled())(
  'the session list, the inbox and the new-session form',
  () => {
    let browser: Browser;
    let webRoot: string;

    beforeAll(async () => {
      mkdirSync(ARTIFACTS, { recursive: true });
      [webRoot, browser] = await Promise.all([buildWebPage(), launchChromium()]);
    }, 60_000);
    afterAll(async () => {
      await browser?.close();
    });

    /** A logged-in page (the token set as the login form would) that records its API requests. */
    const openPage = async (server: TestServer, hash: string) => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      await context.addInitScript(`localStorage.setItem('correx.token', ${JSON.stringify(TOKEN)})`);
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const requests: string[] = [];
      page.on('request', (request) => {
        if (request.url().includes('/api/')) requests.push(request.url());
      });
      await page.goto(`${server.address.url}/${hash}`);
      return { page, requests };
    };

    const start = async (server: TestServer, task: string, mode: string) => {
      const created = await api(server.address).post('/api/sessions', {
        task,
        workspace: server.workspace,
        mode,
      });
      expect(created.status).toBe(201);
      return (created.body as { sessionId: string }).sessionId;
    };

    const row = (page: Page, sessionId: string) =>
      page.locator(`tr[data-session-id="${sessionId}"]`);

    it('lists sessions with stage, mode, tokens and waiting calls in one request, filters by status and updates live', async () => {
      const usage = { inputTokens: 1_200, outputTokens: 340 };
      const server = await startTestServer({
        deps: { webRoot },
        modelFor: (request) =>
          'task' in request && request.task === 'Quick look'
            ? scriptedModel([{ ...done, usage }])
            : scriptedModel([
                {
                  toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }],
                  usage,
                },
                done,
              ]),
      });
      const waitingId = await start(server, 'Write a.txt', 'prompt');
      const quickId = await start(server, 'Quick look', 'auto');
      await expect
        .poll(
          async () =>
            (
              (await api(server.address).get('/api/sessions?status=completed')).body as {
                sessions: unknown[];
              }
            ).sessions.length,
        )
        .toBe(1);

      const { page, requests } = await openPage(server, '#/');
      const waiting = row(page, waitingId);
      await waiting.waitFor();
      await expect.poll(() => waiting.textContent()).toContain('1 waiting');
      const text = await waiting.textContent();
      expect(text).toContain('implement');
      expect(text).toContain('prompt');
      expect(text).toContain('running');
      expect(await waiting.locator('[data-label=Tokens]').textContent()).toBe('1200 / 340');
      expect(await row(page, quickId).textContent()).toContain('auto');
      // One list request fills every row; no per-row session or event reads.
      expect(requests.filter((url) => /\/api\/sessions\/[^?]/.test(url))).toEqual([]);

      await page.getByLabel('Status').selectOption('completed');
      await expect.poll(() => page.locator('tbody tr').count()).toBe(1);
      expect(await row(page, quickId).count()).toBe(1);
      await page.getByLabel('Status').selectOption('all');
      await expect.poll(() => page.locator('tbody tr').count()).toBe(2);
      await page.screenshot({ path: join(ARTIFACTS, 'sessions-list.png'), fullPage: true });

      // Approved elsewhere: the row moves to completed without a reload or a poll. The list is
      // read twice: on load, and once the WebSocket's list subscription is in place.
      const listReads = () => requests.filter((url) => url.endsWith('/api/sessions')).length;
      await expect.poll(listReads).toBe(2);
      const listRequests = requests.length;
      await api(server.address).post(`/api/sessions/${waitingId}/approvals/implement.1.1.1`, {
        decision: 'approve',
      });
      await expect.poll(() => waiting.locator('.badge').first().textContent()).toBe('completed');
      expect(await waiting.textContent()).not.toContain('waiting');
      expect(requests.slice(listRequests).filter((url) => url.endsWith('/api/sessions'))).toEqual(
        [],
      );
      await page.context().close();
    });

    it('shows each waiting call with its arguments, resolved path, findings and diff preview, without reading the log', async () => {
      const server = await startTestServer({
        deps: { webRoot },
        modelFor: (request) =>
          'task' in request && request.task === 'Install'
            ? scriptedModel([
                {
                  toolCalls: [
                    // A call the rules ask about (an npm install without its registry allowlisted is final).
                    { name: 'exec', args: { argv: ['git', 'fetch', '--prune'] } },
                  ],
                },
                done,
              ])
            : scriptedModel([
                {
                  toolCalls: [
                    { name: 'write_file', args: { path: 'notes.txt', content: 'first line\n' } },
                  ],
                },
                done,
              ]),
      });
      const installId = await start(server, 'Install', 'prompt');
      const writeId = await start(server, 'Write notes', 'prompt');
      // The same task twice; the second is paused while its call waits: nobody drives it.
      const pausedId = await start(server, 'Write notes', 'prompt');
      for (const id of [installId, writeId, pausedId]) {
        await expect
          .poll(
            async () =>
              (
                (await api(server.address).get(`/api/sessions/${id}/approvals`)).body as {
                  approvals: unknown[];
                }
              ).approvals.length,
          )
          .toBe(1);
      }

      const paused = await api(server.address).post(`/api/sessions/${pausedId}/pause`, {});
      expect(paused.body).toMatchObject({ events: [{ type: 'orchestration_paused' }] });

      const { page, requests } = await openPage(server, '#/approvals');
      const install = page.locator('.approval-card', { hasText: 'exec' });
      await install.waitFor();
      const installText = await install.textContent();
      expect(installText).toContain('git fetch talks to a remote');
      expect(installText).toContain('exec-interpreter');
      expect(installText).toContain('T3');
      // An exec reads as the command a person would type, in its folder, not as a JSON argv.
      expect(await install.getByTestId('exec-command-line').textContent()).toBe(
        '$ git fetch --prune',
      );
      expect(await install.getByTestId('exec-folder').textContent()).toBe(
        `in ${realpathSync(server.workspace)}`,
      );
      expect(await install.locator('details pre.args').isVisible()).toBe(false);

      // Cards are grouped by session: task, workspace, short id, status and who drives it.
      const group = (id: string) => page.locator(`section.inbox-session[data-session-id="${id}"]`);
      const writeFacts = await group(writeId).getByTestId('inbox-facts').textContent();
      // The shortest prefix no other session shares (the two 'Write notes' differ by it).
      const writeShort = await group(writeId).locator('[data-testid=inbox-facts] [title]').nth(1);
      expect(await writeShort.getAttribute('title')).toBe(writeId);
      const shown = (await writeShort.textContent())!;
      expect(writeId.startsWith(shown) && !pausedId.startsWith(shown)).toBe(true);
      expect(writeFacts).toContain('running');
      expect(writeFacts).toContain('this server goes on when you decide');
      expect(await group(writeId).getByRole('heading', { level: 2 }).textContent()).toBe(
        'Write notes',
      );
      // The paused one sits apart, folded, and says nobody drives it.
      const undriven = page.getByTestId('undriven-approvals');
      expect(await undriven.locator('summary').textContent()).toContain(
        'Waiting in sessions nobody is driving (1 session)',
      );
      expect(await group(pausedId).isVisible()).toBe(false);
      await undriven.locator('summary').click();
      await group(pausedId).locator('.approval-card').waitFor();
      const pausedFacts = await group(pausedId).getByTestId('inbox-facts').textContent();
      expect(pausedFacts).toContain('paused');
      expect(pausedFacts).toContain('nobody is driving it');
      expect(await page.locator('section.inbox-session').count()).toBe(3);

      const write = group(writeId).locator('.approval-card', { hasText: 'write_file' });
      await write.waitFor();
      expect(await write.textContent()).toContain(
        join(realpathSync(server.workspace), 'notes.txt'),
      );
      expect(await write.locator('.diff').textContent()).toContain('first line');
      expect(requests.filter((url) => url.includes('/events'))).toEqual([]);
      await page.screenshot({ path: join(ARTIFACTS, 'approvals-inbox.png'), fullPage: true });

      // Decided here: the card goes once the session moves on.
      await write.getByRole('button', { name: 'Approve' }).click();
      await expect.poll(() => group(writeId).count()).toBe(0);
      expect(await install.count()).toBe(1);
      await page.context().close();
    });

    it('offers the workflows, model profiles, modes and allowed roots, and starts a session with them', async () => {
      const server = await startTestServer({
        deps: { webRoot },
        modelFor: () => scriptedModel([done]),
      });
      const { page } = await openPage(server, '#/new');
      const root = realpathSync(dirname(server.workspace));
      await page.getByLabel('Workspace root').waitFor();
      const optionsOf = (label: string | RegExp) =>
        page.getByLabel(label).locator('option').allTextContents();
      expect(await optionsOf(/Workspace root/)).toEqual([root]);
      expect(await optionsOf('Workflow')).toEqual(['implement-only (default)']);
      expect(await optionsOf('Model profile')).toEqual(['configured default', 'scripted']);
      expect(await optionsOf('Approval mode')).toEqual([
        'prompt',
        'auto (default)',
        'yolo',
        'deny',
      ]);

      await page.getByLabel('Task').fill('Started from the form');
      await page.getByLabel(/Folder inside it/).fill('workspace');
      expect(await page.getByTestId('workspace-path').textContent()).toBe(join(root, 'workspace'));
      await page.getByLabel('Approval mode').selectOption('yolo');
      await page.getByRole('button', { name: 'Start session' }).click();
      await page.waitForURL(/#\/sessions\//);
      const sessionId = decodeURIComponent(page.url().split('#/sessions/')[1] ?? '');
      const session = (await api(server.address).get(`/api/sessions/${sessionId}`)).body;
      expect(session).toMatchObject({
        task: 'Started from the form',
        workspace: realpathSync(server.workspace),
        mode: 'yolo',
      });
      await page.context().close();
    });
  },
);
