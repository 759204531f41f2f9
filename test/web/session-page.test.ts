import { mkdirSync, writeFileSync } from 'node:fs';
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
import { buildWebPage, loadSize } from './support/build-web.js';
import { browserTestsEnabled, launchChromium } from './support/chromium.js';
import { seedLongSession } from './support/seed-session.js';

/** Screenshots and measurements land here (gitignored). */
const ARTIFACTS = join(import.meta.dirname, '..', '..', 'test-artifacts', 'web');

closeAfterEach();

type PageTiming = {
  /** When the timeline first rendered (the page's `correx:timeline-rendered` mark), ms after navigation. */
  timelineRenderedMs: number | null;
  domContentLoadedMs: number;
  /** Every performance mark of the page, and each API call's start, first byte and end. */
  marks: [string, number][];
  api: [string, number, number, number][];
};

/** Read in the page (a string: the test's tsconfig has no DOM types). */
const PAGE_TIMING = `(() => {
  const mark = performance.getEntriesByName('correx:timeline-rendered')[0];
  const navigation = performance.getEntriesByType('navigation')[0];
  return {
    timelineRenderedMs: mark ? mark.startTime : null,
    domContentLoadedMs: navigation.domContentLoadedEventEnd,
    marks: performance.getEntriesByType('mark').map((m) => [m.name, Math.round(m.startTime)]),
    api: performance.getEntriesByType('resource')
      .filter((r) => r.name.includes('/api/'))
      .map((r) => [r.name.replace(/^.*\\/api/, ''), Math.round(r.startTime), Math.round(r.responseStart), Math.round(r.responseEnd)]),
  };
})()`;

describe.runIf(browserTestsEnabled())('the web page against a real correx serve', () => {
  let browser: Browser;
  let webRoot: string;

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [webRoot, browser] = await Promise.all([buildWebPage(), launchChromium()]);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
  });

  const openPage = async (server: TestServer, width = 1280): Promise<Page> => {
    const context = await browser.newContext({ viewport: { width, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    await page.goto(`${server.address.url}/`);
    Object.assign(page, { requestsSeen: requests });
    return page;
  };

  const logIn = async (page: Page, token = TOKEN) => {
    await page.getByLabel('Server token').fill(token);
    await page.getByRole('button', { name: 'Log in' }).click();
  };

  it('logs in, watches events arrive live, approves, denies and steers a scripted session', async () => {
    const done = { text: JSON.stringify({ summary: 'done', filesChanged: ['notes.txt'] }) };
    const server = await startTestServer({
      deps: {
        webRoot,
        // The identity the server authenticates: decisions from the page are recorded as it.
        user: 'alice',
        router: {
          onUserInput: async (_sessionId, input, mode) => ({
            answer: `(${mode}) It waits for your approval of write_file; you asked: ${input}`,
            citedSequences: [1],
          }),
        },
      },
      files: { 'README.md': 'hello\n' },
      modelFor: () =>
        scriptedModel([
          {
            toolCalls: [
              {
                name: 'write_file',
                args: { path: 'notes.txt', content: 'first line\nsecond line\n' },
              },
            ],
          },
          {
            toolCalls: [
              { name: 'write_file', args: { path: 'other.txt', content: 'not wanted\n' } },
            ],
          },
          done,
        ]),
    });
    const created = await api(server.address).post('/api/sessions', {
      task: 'Write notes.txt',
      workspace: server.workspace,
      mode: 'prompt',
    });
    expect(created.status).toBe(201);
    const { sessionId } = created.body as { sessionId: string };

    const page = await openPage(server);
    // A wrong token is refused with a message, and nothing is stored.
    await logIn(page, 'wrong-token-wrong-token-wrong-token-000');
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not accepted');
    // The login text says where the token really is: the file `correx serve` names.
    expect(await page.locator('#login-help').textContent()).toContain(
      'bearer token: line: by default ~/.correx/server-token',
    );
    await logIn(page);
    // Another tab of the same browser is logged in already (the token is in localStorage).
    const secondTab = await page.context().newPage();
    await secondTab.goto(`${server.address.url}/#/`);
    await secondTab.getByRole('link', { name: 'Write notes.txt' }).waitFor();
    expect(await secondTab.getByLabel('Server token').count()).toBe(0);
    await secondTab.close();

    // The session list, then the session page through its link.
    await page.getByRole('link', { name: 'Write notes.txt' }).click();
    const firstCard = page.locator('.approval-card', { hasText: 'notes.txt' });
    await firstCard.waitFor();
    await expect.poll(() => firstCard.locator('.diff').textContent()).toContain('first line');
    expect(await firstCard.textContent()).toMatch(/T[1-3]/);
    const eventsBefore = Number(await page.getByTestId('event-count').textContent());
    expect(eventsBefore).toBeGreaterThan(3);

    await page.screenshot({ path: join(ARTIFACTS, 'session-page-approval.png'), fullPage: true });

    // The approvals inbox lists the same call with its resolved path; back to the session page.
    await page.getByRole('link', { name: 'Approvals' }).click();
    const inboxCard = page.locator('.approval-card', { hasText: 'notes.txt' });
    await inboxCard.waitFor();
    expect(await inboxCard.textContent()).toContain(`${server.workspace}/notes.txt`);
    await page.goBack();
    await firstCard.waitFor();
    // Set on this document; a reload would lose it. (In-page code is a string: no DOM types here.)
    await page.evaluate('window.sameDocument = true');

    // A question for the router is answered on the page and recorded nowhere.
    await page.getByLabel(/Ask the router/).fill('what are you waiting for?');
    await page.getByRole('button', { name: 'Ask', exact: true }).click();
    await page.locator('.answer', { hasText: '(normal) It waits for your approval' }).waitFor();

    // A steering note from the page appears in the timeline.
    await page.getByLabel(/Steering note/).fill('Prefer small commits');
    await page.getByRole('button', { name: 'Send steering note' }).click();
    await page.locator('[data-kind=steering]', { hasText: 'Prefer small commits' }).waitFor();

    // Approve the first write: the session continues and its events arrive without a reload.
    expect(await firstCard.getByLabel('Decided by (optional)').count()).toBe(0);
    await firstCard.getByRole('button', { name: 'Approve' }).click();
    const firstCall = page.locator('[data-kind=tool_call]', { hasText: 'granted by human:alice' });
    await firstCall.locator('.badge.outcome-succeeded').waitFor();
    const secondCard = page.locator('.approval-card', { hasText: 'other.txt' });
    await secondCard.waitFor();
    expect(Number(await page.getByTestId('event-count').textContent())).toBeGreaterThan(
      eventsBefore,
    );
    expect(await page.evaluate('window.sameDocument')).toBe(true);

    // Deny the second with a reason: the denial event shows, the call never runs, the session ends.
    await secondCard.getByRole('button', { name: 'Deny' }).click();
    await secondCard.getByRole('alert').waitFor(); // a denial needs a reason
    await secondCard.getByLabel(/Reason/).fill('only notes.txt, please');
    await secondCard.getByRole('button', { name: 'Deny' }).click();
    const denied = page.locator('[data-kind=tool_call]', { hasText: 'denied by human:alice' });
    await denied.waitFor();
    await denied.locator('summary').click();
    await expect.poll(() => denied.textContent()).toContain('only notes.txt, please');
    expect(await denied.locator('.badge.outcome-succeeded').count()).toBe(0);
    await expect.poll(() => page.getByTestId('session-status').textContent()).toBe('completed');

    const events = (await api(server.address).get(`/api/sessions/${sessionId}/events?limit=1000`))
      .body as { events: { type: string; payload: Record<string, unknown> }[] };
    expect(events.events.find((e) => e.type === 'approval_denied')?.payload).toMatchObject({
      by: { kind: 'human', id: 'alice' },
      reason: 'only notes.txt, please',
    });
    expect(events.events.find((e) => e.type === 'steering_note_added')?.payload).toMatchObject({
      content: 'Prefer small commits',
    });

    // Replay verification from the page, with its result shown.
    await page.getByRole('button', { name: 'Verify replay' }).click();
    await expect
      .poll(() => page.getByTestId('replay-result').textContent())
      .toContain('Replay verified');

    // The token never travels in a URL.
    const requests = (page as Page & { requestsSeen: string[] }).requestsSeen;
    expect(requests.length).toBeGreaterThan(3);
    expect(requests.filter((url) => url.includes(TOKEN))).toEqual([]);

    await page.screenshot({ path: join(ARTIFACTS, 'session-page.png'), fullPage: true });
    await page.setViewportSize({ width: 420, height: 900 });
    await page.screenshot({ path: join(ARTIFACTS, 'session-page-narrow.png'), fullPage: true });
    await page.context().close();
  });

  /** A prompt-mode session waiting for its first approval, open on its page. */
  async function openWaitingSession(task: string) {
    const server = await startTestServer({
      deps: { webRoot },
      modelFor: () =>
        scriptedModel([
          { toolCalls: [{ name: 'write_file', args: { path: 'a.txt', content: 'a\n' } }] },
        ]),
    });
    const created = await api(server.address).post('/api/sessions', {
      task,
      workspace: server.workspace,
      mode: 'prompt',
    });
    const { sessionId } = created.body as { sessionId: string };
    const context = await browser.newContext();
    await context.addInitScript(`localStorage.setItem('correx.token', ${JSON.stringify(TOKEN)})`);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${server.address.url}/#/sessions/${sessionId}`);
    await page.locator('.approval-card').waitFor();
    return { context, page };
  }

  it('cancels a waiting session from the page', async () => {
    const { context, page } = await openWaitingSession('Wait for me');
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.locator('[data-kind=workflow_cancelled]').waitFor();
    await expect.poll(() => page.getByTestId('session-status').textContent()).toBe('cancelled');
    expect(await page.getByRole('button', { name: 'Cancel' }).isDisabled()).toBe(true);
    await context.close();
  });

  it('pauses and resumes a waiting session from the page', async () => {
    const { context, page } = await openWaitingSession('Pause me');
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.locator('[data-kind=orchestration_paused]').waitFor();
    await expect.poll(() => page.getByTestId('session-status').textContent()).toBe('paused');
    expect(await page.getByRole('button', { name: 'Pause' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Resume' }).click();
    await page.locator('[data-kind=orchestration_resumed]').waitFor();
    await expect.poll(() => page.getByTestId('session-status').textContent()).toBe('running');
    await context.close();
  });

  it('retries a failed session from the page, as correx resume --retry does, and shows its cost', async () => {
    const server = await startTestServer({
      deps: { webRoot },
      modelFor: () =>
        scriptedModel([
          { fail: { category: 'invalid_request', message: 'not today' } },
          { text: JSON.stringify({ summary: 'done', filesChanged: [] }) },
        ]),
    });
    const created = await api(server.address).post('/api/sessions', {
      task: 'Fail once',
      workspace: server.workspace,
      mode: 'auto',
    });
    const { sessionId } = created.body as { sessionId: string };
    const context = await browser.newContext();
    await context.addInitScript(`localStorage.setItem('correx.token', ${JSON.stringify(TOKEN)})`);
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    await page.goto(`${server.address.url}/#/sessions/${sessionId}`);
    await expect.poll(() => page.getByTestId('session-status').textContent()).toBe('failed');
    // The test profile has no prices: the header says so rather than showing $0.
    expect(await page.getByTestId('session-cost').textContent()).toBe('no prices configured');
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Retry' }).click();
    await page.locator('[data-kind=session_retried]').waitFor();
    expect(await page.locator('[data-kind=session_retried]').textContent()).toContain(
      'Retried by api from stage implement (attempt 2)',
    );
    await expect.poll(() => page.getByTestId('session-status').textContent()).toBe('completed');
    expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0);
    await page.screenshot({ path: join(ARTIFACTS, 'session-retried.png'), fullPage: true });
    await context.close();
  });

  it('renders a 5,000-event session, then shows designed states for a missing session and a stopped server', async () => {
    const server = await startTestServer({ deps: { webRoot } });
    await seedLongSession(server.store, 'long-session', server.workspace, 5_000);
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.addInitScript(`localStorage.setItem('correx.token', ${JSON.stringify(TOKEN)})`);
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);

    await page.goto(`${server.address.url}/#/sessions/long-session`);
    await page.locator('[data-testid=timeline][data-rendered]').waitFor();
    expect(await page.getByTestId('event-count').textContent()).toBe('5000');
    expect(await page.getByTestId('rework-cycles').textContent()).toContain('1 rework cycle');
    expect(await page.locator('.timeline > li.stage').count()).toBe(8);
    const timing = await page.evaluate<PageTiming>(PAGE_TIMING);
    expect(timing.timelineRenderedMs).not.toBeNull();
    const size = loadSize(webRoot);
    const metrics = {
      events: 5_000,
      ...timing,
      loadBytes: size.bytes,
      loadGzipBytes: size.gzipBytes,
      files: size.files,
    };
    writeFileSync(join(ARTIFACTS, 'metrics.json'), `${JSON.stringify(metrics, null, 2)}\n`);
    console.log(
      `web page: ${size.bytes} bytes (${size.gzipBytes} gzipped) of HTML+JS+CSS; a ${metrics.events}-event session's timeline rendered ${Math.round(timing.timelineRenderedMs ?? 0)} ms after navigation (details in test-artifacts/web/metrics.json)`,
    );

    await page.goto(`${server.address.url}/#/sessions/no-such-session`);
    await page.getByRole('heading', { name: 'Session not found' }).waitFor();

    await server.close();
    await page.getByRole('link', { name: 'Sessions', exact: true }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toContain('not reachable');
    await context.close();
  });
});
