import { describe, expect, it } from 'vitest';
import type { ChangeDiffDto } from '../../src/interfaces/protocol/session-changes-dto.js';
import type { EventDto } from '../../src/interfaces/protocol/event-dto.js';
import { addOutcomeEvent, createOutcome } from '../../web/src/model/session-outcome.js';
import { standingChanges } from '../../web/src/model/standing-changes.js';

const change = (sequence: number, tool: string, path: string): ChangeDiffDto => ({
  sequence,
  callId: tool === 'undo' ? 'undo by ana' : `c${sequence}`,
  stageId: tool === 'undo' ? null : 'implement',
  tool,
  outcome: 'succeeded',
  command: tool === 'exec' ? 'touch x' : null,
  files: [{ path, change: 'modified', mode: null, before: 'a', after: 'b', hunks: [], note: null }],
});

const restored = (sequence: number, toSequence: number, paths: string[]): EventDto => ({
  eventId: `e${sequence}`,
  sessionId: 's1',
  sequence,
  timestamp: '2026-01-01T12:00:00.000Z',
  version: 1,
  causationId: null,
  correlationId: null,
  type: 'workspace_restored',
  payload: {
    type: 'workspace_restored',
    by: 'ana',
    toSequence,
    stageId: null,
    files: paths.map((path) => ({ path, access: 'write', before: 'b', after: 'a' })),
  },
});

describe('the changes that still stand after an undo', () => {
  it('lists every change while nothing was undone', () => {
    const changes = [change(5, 'exec', '/w/a'), change(9, 'write_file', '/w/b')];
    expect(standingChanges(changes, [])).toEqual({ standing: changes, undone: [] });
  });

  it('takes the undone changes and the undo record out of the list and says them under the undo', () => {
    const outcome = createOutcome();
    addOutcomeEvent(outcome, restored(12, 7, ['/w/b']));
    const changes = [
      change(5, 'exec', '/w/a'),
      change(9, 'write_file', '/w/b'),
      change(12, 'undo', '/w/b'),
      // A change made after the undo (a retried session) stands.
      change(15, 'write_file', '/w/c'),
    ];
    const { standing, undone } = standingChanges(changes, outcome.restores);
    expect(standing.map((entry) => entry.sequence)).toEqual([5, 15]);
    expect(undone).toEqual([
      {
        restore: { sequence: 12, toSequence: 7, by: 'ana', files: ['/w/b'] },
        changes: [changes[1]],
      },
    ]);
  });

  it('an undo of everything leaves nothing standing', () => {
    const outcome = createOutcome();
    addOutcomeEvent(outcome, restored(20, 0, ['/w/a', '/w/b']));
    const changes = [
      change(5, 'exec', '/w/a'),
      change(9, 'write_file', '/w/b'),
      change(20, 'undo', '/w/a'),
    ];
    const { standing, undone } = standingChanges(changes, outcome.restores);
    expect(standing).toEqual([]);
    expect(undone[0]!.changes.map((entry) => entry.sequence)).toEqual([5, 9]);
  });
});
