import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PayloadShape, StoredEvent } from '../events/event-envelope.js';
import { toolSessionProjection } from './tool-session-projection.js';
import { layeredEntries, layeredGet } from '../base/layered-record.js';

let sequence = 0;
const event = (payload: PayloadShape & Record<string, unknown>): StoredEvent<PayloadShape> => {
  sequence += 1;
  return {
    eventId: `e${sequence}`,
    sessionId: 's',
    sequence,
    timestamp: '2026-11-30T12:00:00.000Z',
    version: 1,
    causationId: null,
    correlationId: null,
    payload,
    position: sequence,
    hash: 'h',
  };
};
const A = 'a'.repeat(64);
const B = 'b'.repeat(64);
const receipt = (outcome: string, files: unknown[]) => ({
  type: 'tool_receipt',
  callId: 'c',
  tool: 't',
  args: {},
  outcome,
  exitCode: null,
  error: null,
  output: '',
  outputBytes: 0,
  outputSha256: A,
  truncated: false,
  files,
  durationMs: 0,
});
const fold = (...payloads: (PayloadShape & Record<string, unknown>)[]) =>
  payloads.map(event).reduce(toolSessionProjection.evolve, toolSessionProjection.initial());

describe('toolSessionProjection', () => {
  it('remembers what the model saw: reads, its own successful writes, and forgets deletions', () => {
    const state = fold(
      receipt('succeeded', [{ path: '/w/a', access: 'read', before: A, after: A }]),
      receipt('succeeded', [{ path: '/w/b', access: 'write', before: null, after: B }]),
      receipt('world_changed', [{ path: '/w/c', access: 'write', before: null, after: B }]),
      receipt('succeeded', [{ path: '/w/a', access: 'delete', before: A, after: null }]),
    );
    expect(layeredEntries(state.reads)).toEqual({ '/w/b': B });
  });

  it('keeps the latest observation per path', () => {
    const observation = (sha: string) => ({
      path: '/w/a',
      kind: 'file',
      realPath: '/w/a',
      linkTarget: null,
      sha256: sha,
      size: 1,
      mtimeMs: 1,
      linkCount: 1,
    });
    const state = fold(
      { type: 'world_observed', callId: null, observation: observation(A) },
      { type: 'world_observed', callId: 'c', observation: observation(B) },
    );
    expect(layeredGet(state.observations, '/w/a')?.sha256).toBe(B);
    // The same observation again changes nothing: the state (and its map) stays as it was.
    const again = toolSessionProjection.evolve(
      state,
      event({ type: 'world_observed', callId: 'd', observation: observation(B) }),
    );
    expect(again).toBe(state);
  });

  it('rebuilds the egress allowlist from its change events, sorted and without duplicates', () => {
    const state = fold(
      {
        type: 'egress_allowlist_changed',
        added: ['b.example', 'a.example'],
        removed: [],
        by: 'policy',
        reason: 'start',
      },
      {
        type: 'egress_allowlist_changed',
        added: ['a.example', 'c.example'],
        removed: ['b.example'],
        by: 'alice',
        reason: 'x',
      },
      { type: 'session_created', anything: true },
    );
    expect(state.egressAllowlist).toEqual(['a.example', 'c.example']);
  });

  it('folds receipts and restores as a copy of the whole map per event would, leaving untouched state as it was', () => {
    const path = fc.constantFrom('/w/a', '/w/b', '/w/c');
    const hash = fc.constantFrom(A, B, null);
    const file = fc.record({
      path,
      access: fc.constantFrom('read', 'write', 'delete'),
      before: hash,
      after: hash,
    });
    const step = fc.oneof(
      fc.record({
        kind: fc.constant('receipt' as const),
        outcome: fc.constantFrom('succeeded', 'failed'),
        files: fc.array(file, { maxLength: 4 }),
      }),
      fc.record({
        kind: fc.constant('restored' as const),
        paths: fc.array(path, { maxLength: 2 }),
      }),
    );
    fc.assert(
      fc.property(fc.array(step, { maxLength: 60 }), (steps) => {
        // The fold as it was written before: a fresh copy of the map for every such event.
        let expected: Record<string, string> = {};
        let state = toolSessionProjection.initial();
        for (const s of steps) {
          const next = { ...expected };
          if (s.kind === 'receipt') {
            for (const f of s.files) {
              if (f.access === 'read' && f.before !== null) next[f.path] = f.before;
              else if (f.access === 'write' && f.after !== null && s.outcome === 'succeeded')
                next[f.path] = f.after;
              else if (f.access === 'delete') delete next[f.path];
            }
          } else for (const p of s.paths) delete next[p];
          expected = next;
          const before = state;
          const snapshot = { ...layeredEntries(before.reads) };
          state = toolSessionProjection.evolve(
            before,
            event(
              s.kind === 'receipt'
                ? receipt(s.outcome, s.files)
                : {
                    type: 'workspace_restored',
                    files: s.paths.map((p) => ({ path: p, restored: 'deleted' })),
                  },
            ),
          );
          // The same entries in the same order as the plain record.
          expect(Object.entries(layeredEntries(state.reads))).toEqual(Object.entries(expected));
          expect(layeredEntries(before.reads)).toEqual(snapshot);
        }
      }),
    );
  });
});
