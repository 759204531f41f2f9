import { describe, expect, it } from 'vitest';
import type { PayloadShape, StoredEvent } from '../../events/event-envelope.js';
import { planUndo, recordedChanges } from './session-changes.js';

const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const C = 'c'.repeat(64);

function log(payloads: readonly Record<string, unknown>[]): StoredEvent<PayloadShape>[] {
  return payloads.map(
    (payload, index) => ({ sequence: index + 1, payload }) as unknown as StoredEvent<PayloadShape>,
  );
}

const write = (callId: string, path: string, before: string | null, after: string) => ({
  type: 'tool_receipt',
  callId,
  tool: 'write_file',
  args: {},
  outcome: 'succeeded',
  files: [{ path, access: 'write', before, after }],
});

/** A fork of `/w/parent` into `/w/parent-fork`: the prefix wrote two files, one outside. */
const forkLog = log([
  { type: 'tool_call_proposed', callId: 'c1', stageId: 'implement', tool: 'write_file' },
  write('c1', '/w/parent/src/median.js', null, A),
  write('c2', '/w/elsewhere/notes.txt', null, A),
  {
    type: 'stage_checkpoint_recorded',
    stageId: 'review',
    attempt: 1,
    files: [{ path: '/w/parent/src/median.js', sha256: A, mode: 0o644 }],
  },
  write('c3', '/w/parent/src/median.js', A, B),
  { type: 'session_forked', parentWorkspace: '/w/parent', workspace: '/w/parent-fork' },
  write('c4', '/w/parent-fork/src/median.js', B, C),
]);

describe('the changes a fork reads', () => {
  it('reads what its copied prefix changed in its own workspace; a path outside stays outside', () => {
    expect(
      recordedChanges(forkLog).map((change) => [change.callId, change.files[0]!.path]),
    ).toEqual([
      ['c1', '/w/parent-fork/src/median.js'],
      ['c2', '/w/elsewhere/notes.txt'],
      ['c3', '/w/parent-fork/src/median.js'],
      ['c4', '/w/parent-fork/src/median.js'],
    ]);
  });

  it('undoes a fork to a checkpoint of its prefix in its own workspace, never the parent’s', () => {
    const plan = planUndo(forkLog, { stageId: 'review' });
    expect(plan).toEqual({
      ok: true,
      toSequence: 4,
      stageId: 'review',
      steps: [{ path: '/w/parent-fork/src/median.js', restore: A, mode: 0o644, expected: C }],
    });
  });

  it('leaves a session that is no fork as recorded', () => {
    const unforked = forkLog.filter((event) => event.payload.type !== 'session_forked');
    expect(recordedChanges(unforked).map((change) => change.files[0]!.path)).toEqual([
      '/w/parent/src/median.js',
      '/w/elsewhere/notes.txt',
      '/w/parent/src/median.js',
      '/w/parent-fork/src/median.js',
    ]);
  });
});
