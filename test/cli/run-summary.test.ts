import { describe, expect, it } from 'vitest';
import type { CorrexEvent } from '../../src/core/event-catalog.js';
import { nodeSha256 } from '../../src/infrastructure/system/node-sha256.js';
import { runSummary } from '../../src/interfaces/cli/run-summary.js';
import { runSummaryLines } from '../../src/interfaces/cli/run-summary-lines.js';
import { readCorpusEvents } from '../golden/sessions/session-corpus.js';

const nothingKept = () => null;
const logsOf = (...names: string[]) => {
  const logs = new Map<string, readonly CorrexEvent[]>();
  for (const name of names) {
    const events = readCorpusEvents(name);
    logs.set(events[0]!.sessionId, events);
  }
  return logs;
};

/** The run summary from recorded sessions of the frozen corpus: the log alone decides it. */
describe('run summary', () => {
  it('counts lines of files changed from the contents the log holds, checked against the recorded hashes', () => {
    const logs = logsOf('critique-outcomes.ndjson');
    const [id] = [...logs.keys()];
    const summary = runSummary(id!, logs, nothingKept, nodeSha256);
    expect(summary).toMatchObject({ status: 'completed', exitCode: 0, failureReason: null });
    expect(summary.checks).toEqual([
      expect.objectContaining({ name: 'test', passed: true, exitCode: 0, sequence: 81 }),
    ]);
    expect(summary.filesChanged.map((file) => [file.path.split('/').at(-1), file.change])).toEqual([
      ['README.md', 'modified'],
      ['greet.js', 'modified'],
    ]);
    for (const file of summary.filesChanged) {
      expect(file.added).toBeGreaterThan(0);
      expect(file.removed).not.toBeNull();
    }
  });

  it('says the line counts are unknown when a hash does not match what the log holds', () => {
    const logs = logsOf('critique-outcomes.ndjson');
    const [id] = [...logs.keys()];
    const summary = runSummary(id!, logs, nothingKept, () => 'not the recorded hash');
    expect(summary.filesChanged.every((file) => file.added === null && file.removed === null)).toBe(
      true,
    );
    expect(runSummaryLines(summary).join('\n')).toContain('(lines not known: bytes not kept)');
  });

  it("names a failed session's reason and exit code, and its checks' last result", () => {
    const logs = logsOf('definition-of-done-fail.ndjson');
    const [id] = [...logs.keys()];
    const summary = runSummary(id!, logs, nothingKept, nodeSha256);
    expect(summary).toMatchObject({ status: 'failed', exitCode: 1, waitingFor: null });
    expect(summary.failureReason?.category).toBe('validation');
    expect(summary.checks).toEqual([
      expect.objectContaining({ name: 'lint', passed: false, exitCode: 1 }),
    ]);
    expect(summary.filesChanged).toEqual([
      expect.objectContaining({ change: 'created', removed: 0 }),
    ]);
    const lines = runSummaryLines(summary);
    expect(lines).toContain('checks    lint FAILED (exit 1)');
    expect(lines.find((line) => line.startsWith('outcome'))).toMatch(
      /^outcome {3}failed: validation: .* \(exit 1\)$/,
    );
  });

  it("prints a failure's multi-line message as lines under the outcome, not as \\n escapes", () => {
    const logs = logsOf('definition-of-done-fail.ndjson');
    const [id] = [...logs.keys()];
    const summary = runSummary(id!, logs, nothingKept, nodeSha256);
    const lines = runSummaryLines({
      ...summary,
      failureReason: {
        category: 'validation',
        message: 'check test failed (exit 1):\nnot ok 1 - median\n  expected: 2.5\n  actual: 2\n',
      },
    });
    expect(lines).toContain('outcome   failed: validation: check test failed (exit 1): (exit 1)');
    expect(lines).toContain('          │   expected: 2.5');
    expect(lines).toContain('          │   actual: 2');
    expect(lines.join('\n')).not.toContain('\\n');
  });

  it("sums a sub-session's tokens and files into its parent's summary", () => {
    const logs = logsOf('cli-run-subagent-parent.ndjson', 'cli-run-subagent-child.ndjson');
    const [parent, child] = [...logs.keys()];
    const summary = runSummary(parent!, logs, nothingKept, nodeSha256);
    expect(summary.subSessions).toEqual([child]);
    // The child's two model calls, 42 in and 7 out each; the parent asked no model itself.
    expect(summary.tokens).toEqual({ input: 84, output: 14 });
    expect(summary.filesChanged.map((file) => file.path.split('/').at(-1))).toEqual(['hello.txt']);
    expect(summary.filesChanged[0]).toMatchObject({ change: 'created', removed: 0 });
    expect(summary.next).toEqual([
      `correx show ${parent}`,
      `correx diff ${parent}`,
      `correx undo ${parent}`,
      `correx replay ${parent} --verify`,
    ]);
  });
});
