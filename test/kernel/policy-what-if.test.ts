import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createSteppingClock } from '../../src/core/base/clock.js';
import { createCountingIdSource } from '../../src/core/base/id-source.js';
import { whatIfPolicy } from '../../src/core/kernel/index.js';
import { parseWorkspacePolicy } from '../../src/core/policies/workspace-policy.js';
import type { CliContext } from '../../src/interfaces/cli/cli-context.js';
import { runCli } from '../../src/interfaces/cli/program.js';
import { loadCorpusStore, readCorpusEvents } from '../golden/sessions/session-corpus.js';
import { cliTestDefaults } from '../support/cli-test-context.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * Policy what-if on a real recorded session (the frozen demo session: three reads, three
 * `node --test` execs, an edit and a blocked write outside the workspace), from the log alone.
 */
const FILE = 'cli-demo.ndjson';
const events = readCorpusEvents(FILE);
const recordedPolicy = (
  events.find((event) => event.payload.type === 'session_configured')!.payload as unknown as {
    configuration: { policy: Record<string, unknown> };
  }
).configuration.policy;
const EXEC_CALLS = ['implement.1.1.1', 'implement.1.5.1', 'verify.1.1.1'];

describe('whatIfPolicy', () => {
  it('changes nothing under the policy the session recorded', () => {
    const report = whatIfPolicy(events, parseWorkspacePolicy(recordedPolicy));
    expect(report).toMatchObject({ assessed: 8, changes: [], inexact: [], skipped: null });
  });

  it('lists exactly the calls a stricter policy flips, and why', () => {
    const stricter = parseWorkspacePolicy({ ...recordedPolicy, tierOverrides: { exec: 'T3' } });
    const report = whatIfPolicy(events, stricter);
    expect(report.changes.map((change) => change.callId)).toEqual(EXEC_CALLS);
    expect(report.changes[0]).toMatchObject({
      tool: 'exec',
      recorded: { verdict: 'ALLOW', tier: 'T2' },
      candidate: { verdict: 'ALLOW', tier: 'T3' },
    });
    const noNode = parseWorkspacePolicy({
      ...recordedPolicy,
      allowedExecutables: (recordedPolicy.allowedExecutables as string[]).filter(
        (name) => name !== 'node',
      ),
    });
    const blocked = whatIfPolicy(events, noNode);
    expect(blocked.changes.map((change) => [change.callId, change.candidate.verdict])).toEqual(
      EXEC_CALLS.map((callId) => [callId, 'BLOCK']),
    );
    expect(blocked.changes[0]!.added).toEqual(['exec-interpreter/program_not_allowed']);
  });

  it('names a session it cannot re-assess instead of guessing', () => {
    expect(whatIfPolicy(events.slice(2), parseWorkspacePolicy({})).skipped).not.toBeNull();
  });
});

describe('correx policy what-if', () => {
  it('prints the flipped calls of a session and of --all, from a policy file', async () => {
    const store = await loadCorpusStore([FILE]);
    const dir = tempDir('correx-what-if-');
    const file = join(dir, 'harness.yaml');
    writeFileSync(
      file,
      `policy:\n${JSON.stringify({ ...recordedPolicy, tierOverrides: { exec: 'T3' } }).replace(
        /^/,
        '  ',
      )}\n`,
    );
    const out: string[] = [];
    const err: string[] = [];
    const context: CliContext = {
      ...cliTestDefaults,
      version: '0',
      correxHome: '/unused',
      defaultStore: 'memory',
      clock: createSteppingClock('2026-12-01T12:00:00.000Z', 1000),
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
      err: (text) => err.push(text),
    };
    const sessionId = events[0]!.sessionId;
    expect(
      await runCli(context, ['policy', 'what-if', '--policy', file, '--session', sessionId]),
    ).toBe(0);
    const printed = out.join('\n');
    for (const callId of EXEC_CALLS)
      expect(printed).toContain(`${sessionId} ${callId} exec: ALLOW T2 -> ALLOW T3`);
    expect(out.at(-1)).toBe(`3 of 8 recorded calls in 1 session(s) would change under ${file}`);
    expect(await runCli(context, ['policy', 'what-if', '--policy', file, '--all'])).toBe(0);
    expect(out.at(-1)).toBe(`3 of 8 recorded calls in 1 session(s) would change under ${file}`);
    expect(await runCli(context, ['policy', 'what-if', '--policy', file])).toBe(2);
    expect(err.at(-1)).toMatch(/exactly one of --session/);
  });
});
