import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { EventPayload } from '../../src/core/event-catalog.js';
import { sessionConfiguredPayload } from '../../src/core/kernel/index.js';
import { scenarioConfig } from '../kernel/kernel-harness.js';
import { appendSession, createExecRecorder } from '../server/support/exec-change-session.js';
import {
  closeAfterEach,
  startTestServer,
  type TestServer,
} from '../server/support/server-fixture.js';
import { tempDir } from '../support/temp-dir.js';
import { browserTestsEnabled } from './support/chromium.js';
import { pageHarness, WEB_ARTIFACTS } from './support/page-harness.js';
import { loadGoldenSession } from './support/golden-session.js';

const ORIGINAL = 'one\ntwo\nthree\n';

closeAfterEach();

describe.runIf(browserTestsEnabled())('a finished session opens with its outcome', () => {
  const pages = pageHarness();
  const openSession = async (server: TestServer, sessionId: string): Promise<Page> => {
    const page = await pages.open(server, `#/sessions/${encodeURIComponent(sessionId)}`);
    await page.getByTestId('outcome').waitFor();
    return page;
  };

  /**
   * A server whose store holds a completed session: real exec calls changed the workspace
   * (pre-images kept where the server reads them), a check passed in verify.
   */
  const execSession = async () => {
    const preimageDirectory = join(tempDir('correx-preimages-'), 'preimages');
    const server = await startTestServer({
      files: { 'src/a.txt': ORIGINAL, 'src/keep.txt': 'untouched\n' },
      deps: { webRoot: pages.webRoot(), user: 'alice', preimageDirectory },
    });
    const run = createExecRecorder(server.workspace, preimageDirectory);
    const payloads: EventPayload[] = [
      {
        type: 'session_created',
        task: 'Shout two in src/a.txt',
        workspace: server.workspace,
        workflowId: 'default-coding',
        mode: 'auto',
      },
      sessionConfiguredPayload(scenarioConfig()),
      {
        type: 'project_checks_detected',
        checks: [{ name: 'test', command: 'node --test', source: 'package.json' }],
        problems: [],
      },
      { type: 'workflow_started', workflowId: 'default-coding', firstStageId: 'implement' },
      { type: 'stage_started', stageId: 'implement', attempt: 1 },
      ...(await run('implement.1', 'implement', "sed -i 's/two/TWO/' src/a.txt")),
      ...(await run(
        'implement.2',
        'implement',
        'mkdir -p src/gen && echo made > src/gen/b.txt && rm src/keep.txt',
      )),
      { type: 'stage_completed', stageId: 'implement', attempt: 1 },
      { type: 'stage_started', stageId: 'verify', attempt: 1 },
      {
        type: 'dod_check_ran',
        stageId: 'verify',
        attempt: 1,
        name: 'test',
        command: 'node --test',
        outcome: 'completed',
        exitCode: 0,
        output: '# pass 4\n',
        outputBytes: 9,
        truncated: false,
        durationMs: 120,
      },
      { type: 'stage_completed', stageId: 'verify', attempt: 1 },
      { type: 'workflow_completed', finalStageId: 'verify', summary: 'two is shouted' },
    ];
    await appendSession(server.store, 's-exec', payloads);
    return { server, file: (path: string) => join(server.workspace, path) };
  };

  it('shows result, checks, the real diff of every command and undoes the changes after a confirmation', async () => {
    const { server, file } = await execSession();
    const page = await openSession(server, 's-exec');
    const outcome = page.getByTestId('outcome');
    await expect.poll(() => page.getByTestId('outcome-result').textContent()).toBe('completed');
    expect(await page.getByTestId('outcome-summary').textContent()).toContain('two is shouted');
    expect(await page.getByTestId('outcome-checks').innerText()).toContain(
      'passed test $ node --test',
    );
    await outcome.getByRole('heading', { name: /Files changed \(3\)/ }).waitFor();
    const changes = outcome.getByRole('list', { name: 'Recorded changes' });
    const commands = await changes.locator('code.command').allTextContents();
    expect(commands).toEqual([
      "$ sed -i 's/two/TWO/' src/a.txt",
      '$ mkdir -p src/gen && echo made > src/gen/b.txt && rm src/keep.txt',
    ]);
    const aDiff = await changes
      .locator(`figure[data-path="${file('src/a.txt')}"] pre`)
      .textContent();
    expect(aDiff!.trimEnd().split('\n')).toEqual([
      '@@ -1,3 +1,3 @@',
      ' one',
      '-two',
      '+TWO',
      ' three',
    ]);
    expect(
      await changes.locator(`figure[data-path="${file('src/keep.txt')}"]`).innerText(),
    ).toContain('deleted');
    // The outcome comes before the timeline: prominent, not at the bottom.
    const [outcomeBox, timelineBox] = await Promise.all([
      outcome.boundingBox(),
      page.getByRole('heading', { name: 'Timeline' }).boundingBox(),
    ]);
    expect(outcomeBox!.y).toBeLessThan(timelineBox!.y);
    await page.screenshot({ path: join(WEB_ARTIFACTS, 'session-outcome.png'), fullPage: true });

    // A dismissed confirmation undoes nothing; an accepted one restores the exact bytes.
    page.once('dialog', (dialog) => void dialog.dismiss());
    await page.getByRole('button', { name: 'Undo these changes' }).click();
    expect(readFileSync(file('src/a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    let asked = '';
    page.once('dialog', (dialog) => {
      asked = dialog.message();
      void dialog.accept();
    });
    await page.getByRole('button', { name: 'Undo these changes' }).click();
    await page.getByTestId('undo-result').waitFor();
    expect(asked).toContain('Undo every change this session recorded (3 file(s))');
    expect(await page.getByTestId('undo-result').textContent()).toMatch(
      /Undone: 3 file\(s\) restored, recorded as event #\d+/,
    );
    expect(readFileSync(file('src/a.txt'), 'utf8')).toBe(ORIGINAL);
    expect(readFileSync(file('src/keep.txt'), 'utf8')).toBe('untouched\n');
    expect(existsSync(file('src/gen/b.txt'))).toBe(false);
    const [restored] = await server.store.read('s-exec', {
      afterSequence: (await server.store.lastSequence('s-exec')) - 1,
    });
    expect(restored!.payload).toMatchObject({ type: 'workspace_restored', by: 'alice' });
    // The undone changes are no longer listed as changes: the outcome says they were undone.
    const undoneNote = outcome.getByTestId('undone-changes');
    await undoneNote.waitFor();
    // The note fills in as the page takes in the undo's events: wait for its whole text.
    await expect
      .poll(() => undoneNote.innerText())
      .toMatch(
        /^Undone by alice \(event #\d+\): 2 recorded change\(s\) taken back, 3 file\(s\) restored to how they were before the session: /,
      );
    expect(await undoneNote.innerText()).toContain(file('src/keep.txt'));
    await outcome.getByRole('heading', { name: /Files changed \(0\)/ }).waitFor();
    expect(await outcome.getByRole('list', { name: 'Recorded changes' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Undo these changes' }).count()).toBe(0);
    expect(await outcome.innerText()).toContain('No recorded change stands in the workspace now.');
    await page.screenshot({
      path: join(WEB_ARTIFACTS, 'session-outcome-undone.png'),
      fullPage: true,
    });
  });

  it('lists the files changed outside correx when it refuses to undo', async () => {
    const { server, file } = await execSession();
    writeFileSync(file('src/gen/b.txt'), 'edited by hand\n');
    const page = await openSession(server, 's-exec');
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Undo these changes' }).click();
    const refused = page.getByTestId('undo-refused');
    await refused.waitFor();
    expect(await refused.innerText()).toContain('these files changed outside correx since');
    expect(await refused.locator('li').allTextContents()).toEqual([file('src/gen/b.txt')]);
    expect(readFileSync(file('src/a.txt'), 'utf8')).toBe('one\nTWO\nthree\n');
    await page.screenshot({
      path: join(WEB_ARTIFACTS, 'session-outcome-undo-refused.png'),
      fullPage: true,
    });
  });

  it('renders a recorded run: plan steps, the review verdict, change summaries, exec as a command with its exit code, tokens and cost', async () => {
    const server = await startTestServer({ deps: { webRoot: pages.webRoot() } });
    // The demo run of the corpus, its model profile priced (as harness.yaml would price it).
    const sessionId = await loadGoldenSession(server.store, 'cli-demo', (payload) =>
      payload.type === 'session_configured'
        ? pricedConfiguration(payload, { inputPerMillion: 3, outputPerMillion: 15 })
        : payload,
    );
    const page = await openSession(server, sessionId);
    expect(await page.getByTestId('outcome-result').textContent()).toBe('completed');
    expect(await page.getByTestId('outcome-cost').textContent()).toBe('$0.0000');
    expect(await page.getByTestId('outcome-checks').textContent()).toBe('none detected');
    // The edit of src/median.js, diffed against the content its read recorded.
    const changes = page.getByRole('list', { name: 'Recorded changes' });
    await changes.waitFor();
    const diff = await changes.locator('pre').first().innerText();
    expect(diff).toMatch(/^-.*sort\(\)/m);
    expect(diff).toMatch(/^\+.*sort\(\(a, b\) => a - b\)/m);
    expect(await changes.innerText()).not.toContain('bytes not kept');

    const timeline = page.getByTestId('timeline');
    const folded = timeline.getByRole('button', { name: /^Show \d+ entries$/ });
    while ((await folded.count()) > 0) await folded.first().click();
    const steps = timeline.getByRole('list', { name: 'Plan steps' });
    expect(await steps.locator('li').allTextContents()).toEqual([
      'run the tests to see the failure',
      'compare numbers in the sort of src/median.js',
      'run the tests again',
    ]);
    expect(await timeline.getByTestId('review-verdict').textContent()).toBe('approved');
    expect(await timeline.locator('[data-artifact-kind="change"]').innerText()).toContain(
      'median compares numbers by value when sorting',
    );
    const execs = await timeline.getByTestId('exec-command').allTextContents();
    expect(execs).toContain('$ node --test test/median.test.js');
    const first = timeline
      .locator('li.tool-call', { has: page.getByTestId('exec-command') })
      .first();
    expect(await first.locator('summary').innerText()).toContain('exit 1');
    // The exit code is said once: in the summary, not again when the call is opened.
    await first.locator('summary').click();
    expect((await first.innerText()).match(/exit 1/g)).toHaveLength(1);
    await page.screenshot({ path: join(WEB_ARTIFACTS, 'session-artifacts.png'), fullPage: true });

    // A run over the OpenAI-compatible wire that used tokens: 84 in, 14 out at $3/$15 a million.
    const wireId = await loadGoldenSession(server.store, 'cli-run-openai-compatible', (payload) =>
      payload.type === 'session_configured'
        ? pricedConfiguration(payload, { inputPerMillion: 3, outputPerMillion: 15 })
        : payload,
    );
    const wire = await openSession(server, wireId);
    expect(await wire.getByTestId('outcome-tokens').textContent()).toBe('84 in / 14 out');
    expect(await wire.getByTestId('outcome-cost').textContent()).toBe('$0.0005');
    // The cost is in the session header too, and in the session list's row.
    expect(await wire.getByTestId('session-cost').textContent()).toBe('$0.0005');
    await wire.goto(`${server.address.url}/#/`);
    const listed = wire.locator(`tr[data-session-id="${wireId}"] [data-testid=row-cost]`);
    await listed.waitFor();
    expect(await listed.textContent()).toBe('$0.0005');
  });

  it('shows a failed check on its stage and in the outcome of a failed session', async () => {
    const server = await startTestServer({ deps: { webRoot: pages.webRoot() } });
    const sessionId = await loadGoldenSession(server.store, 'definition-of-done-fail');
    const page = await openSession(server, sessionId);
    expect(await page.getByTestId('outcome-result').textContent()).toBe('failed');
    expect(await page.getByTestId('outcome-summary').textContent()).toContain(
      'Failed (validation)',
    );
    expect(await page.getByTestId('outcome-checks').innerText()).toContain(
      'failed lint $ node lint.js exit 1 in implement',
    );
    const stage = page.getByTestId('timeline').locator('li.stage', { hasText: 'implement' });
    expect(await stage.getByTestId('stage-failed-checks').textContent()).toBe('check failed: lint');
    expect(await stage.locator('li[data-kind="check"]').innerText()).toContain(
      'greet.js:1:1: error: says bad',
    );
    await page.screenshot({
      path: join(WEB_ARTIFACTS, 'session-failed-check.png'),
      fullPage: true,
    });
  });
});

function pricedConfiguration(
  payload: Extract<EventPayload, { type: 'session_configured' }>,
  prices: { inputPerMillion: number; outputPerMillion: number },
): EventPayload {
  const configuration = payload.configuration as { models: Record<string, unknown>[] };
  return {
    ...payload,
    configuration: {
      ...configuration,
      models: configuration.models.map((model) => ({ ...model, prices })),
    },
  } as EventPayload;
}
