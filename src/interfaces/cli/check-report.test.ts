import { describe, expect, it } from 'vitest';
import { cliTestDefaults } from '../../../test/support/cli-test-context.js';
import { createSteppingClock } from '../../core/base/clock.js';
import { createCountingIdSource } from '../../core/base/id-source.js';
import { correxEventCatalog, type EventPayload } from '../../core/event-catalog.js';
import { InMemoryEventStore } from '../../core/events/in-memory-event-store.js';
import type { CliContext } from './cli-context.js';
import { checkReportLines } from './check-report.js';
import { runCli } from './program.js';

const check = (stageId: string, exitCode: number): EventPayload => ({
  type: 'dod_check_ran',
  stageId,
  attempt: 1,
  name: 'test',
  command: 'npm test',
  outcome: 'completed',
  exitCode,
  output: exitCode === 0 ? 'ok\n' : 'not ok 1 - greets\n',
  outputBytes: 3,
  truncated: false,
  durationMs: 400,
});

/** A session whose test check passed in verify and failed in review, as the kernel records it. */
const PAYLOADS: EventPayload[] = [
  {
    type: 'session_created',
    task: 'make greet say hello',
    workspace: '/work/ws',
    workflowId: 'default-coding',
    mode: 'auto',
  },
  { type: 'workflow_started', workflowId: 'default-coding', firstStageId: 'plan' },
  {
    type: 'project_checks_detected',
    checks: [{ name: 'test', command: 'npm test', source: 'package.json' }],
    problems: [{ file: 'Makefile', message: 'cannot be read: EACCES' }],
  },
  { type: 'stage_started', stageId: 'verify', attempt: 1 },
  check('verify', 0),
  { type: 'stage_started', stageId: 'review', attempt: 1 },
  check('review', 1),
  {
    type: 'language_diagnostics_recorded',
    stageId: 'review',
    attempt: 1,
    server: 'typescript-language-server 5.3.0',
    method: 'published',
    files: [
      {
        path: '/work/ws/greet.ts',
        diagnostics: [{ line: 1, column: 1, severity: 'error', message: 'x', code: '2322' }],
      },
    ],
    error: null,
    durationMs: 900,
  },
  {
    type: 'stage_failed',
    stageId: 'review',
    attempt: 1,
    category: 'validation',
    message: 'check `test` (npm test) failed (event #7)',
  },
  {
    type: 'workflow_failed',
    category: 'validation',
    message: 'stage review failed: check `test` (npm test) failed (event #7)',
    stageId: 'review',
  },
];

async function session() {
  const store = new InMemoryEventStore({ catalog: correxEventCatalog });
  await store.appendAll(
    PAYLOADS.map((payload, index) => ({
      eventId: `k-${index}`,
      sessionId: 's',
      timestamp: `2026-11-30T12:00:0${index}.000Z`,
      payload,
    })),
  );
  return store;
}

describe('the checks report', () => {
  it('lists the checks found at the start and every run with its evidence', async () => {
    const store = await session();
    expect(checkReportLines(await store.read('s'))).toEqual([
      'checks    found at start (event #3): test (npm test, package.json)',
      '          could not read: Makefile cannot be read: EACCES',
      'check     test (npm test): FAILED last; runs: verify passed #5, review failed (exit 1) #7',
      'types     review: typescript-language-server 5.3.0, 1 file(s), 1 error(s) (event #8)',
    ]);
  });

  it('reports review findings and whether the rework addressed them', () => {
    const at = (sequence: number, payload: EventPayload) => ({ sequence, payload }) as never;
    expect(
      checkReportLines([
        at(9, {
          type: 'review_findings_recorded',
          stageId: 'review',
          attempt: 1,
          artifactHash: 'a'.repeat(64),
          findings: [
            { id: 'review.1', note: 'README.md is stale', paths: ['/w/README.md'] },
            { id: 'review.2', note: 'name the argument', paths: [] },
          ],
        }),
        at(20, {
          type: 'critique_outcomes_correlated',
          stageId: 'review',
          attempt: 1,
          outcomes: [
            { id: 'review.1', changed: true, checksPassed: true },
            { id: 'review.2', changed: false, checksPassed: true },
          ],
        }),
      ]),
    ).toEqual([
      'finding   review.1 (event #9): README.md is stale',
      'finding   review.2 (event #9): name the argument',
      'rework    1 of 2 findings led to a change that passed its checks (event #20): review.1 changed, checks passed; review.2 unchanged, checks passed',
    ]);
  });

  it('says nothing for a session recorded before checks were detected', () => {
    expect(checkReportLines([])).toEqual([]);
  });

  it('is part of `correx show`, with the check runs in the timeline', async () => {
    const store = await session();
    const out: string[] = [];
    const context: CliContext = {
      ...cliTestDefaults,
      version: '0',
      correxHome: '/unused',
      defaultStore: 'memory',
      clock: createSteppingClock('2026-11-30T12:01:00.000Z', 1000),
      ids: createCountingIdSource('cli'),
      user: 'alice',
      openStores: async (location) => ({
        kind: 'memory',
        location,
        events: store,
        close: async () => {},
      }),
      migrateStore: async () => {
        throw new Error('not used');
      },
      out: (text) => out.push(text),
      err: () => {},
    };
    expect(await runCli(context, ['show', 's'])).toBe(0);
    const text = out.at(-1)!;
    expect(text).toMatch(
      /^check {5}test \(npm test\): FAILED last; runs: verify passed #5, review failed \(exit 1\) #7$/m,
    );
    expect(text).toContain('    3    checks found: test');
    expect(text).toContain('    7    ✗ check test (npm test) exit 1');
  });
});
