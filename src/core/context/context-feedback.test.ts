import { describe, expect, it } from 'vitest';
import { buildContextPack } from './build-context-pack.js';
import type { ContextCandidate } from './context-candidate.js';
import { feedbackRelevance, type FeedbackTurn } from './context-feedback.js';
import { createEstimatingTokenizer } from './tokenizer.js';

const results = [
  { id: 'read-used', subjects: ['src/used.ts'], sequence: 10 },
  { id: 'read-unused', subjects: ['src/unused.ts'], sequence: 11 },
  { id: 'no-path', subjects: [], sequence: 12 },
];
const turn = (sequence: number, calls: string): FeedbackTurn => ({ sequence, calls });

describe('ContextFeedback', () => {
  it('raises a file the model keeps using and lowers one it passes by, turn after turn', () => {
    const turns = [
      turn(20, 'Tool call 1: edit_file {"path":"src/used.ts"}'),
      turn(30, 'Tool call 1: read_file {"path":"src/used.ts"}'),
      turn(40, 'Tool call 1: exec {"command":"npm test -- src/used.ts"}'),
    ];
    const ranks = [1, 2, 3].map((n) => feedbackRelevance(results, turns.slice(0, n)));
    expect(ranks.map((rank) => rank.get('read-used'))).toEqual([0.65, 0.8, 0.95]);
    expect(ranks.map((rank) => rank.get('read-unused'))).toEqual([0.4, 0.3, 0.2]);
    expect(ranks[2]?.has('no-path')).toBe(false);
    // A longer name that contains the path is not a use of it.
    expect(
      feedbackRelevance(results, [turn(20, '{"path":"src/unused.tsx"}')]).get('read-unused'),
    ).toBe(0.4);
    // Use after idling lifts it again.
    const revived = feedbackRelevance(results, [
      turn(20, 'x'),
      turn(30, 'x'),
      turn(40, '{"path":"src/unused.ts"}'),
    ]);
    expect(revived.get('read-unused')).toBe(0.65);
  });

  it('evicts the unused file first under budget pressure', () => {
    const relevance = feedbackRelevance(results, [
      turn(20, '{"path":"src/used.ts"}'),
      turn(30, '{"path":"src/used.ts"}'),
    ]);
    const candidate = (id: string, order: number): ContextCandidate => ({
      id,
      layer: 'L1',
      kind: 'tool_result',
      source: { kind: 'event', id },
      content: `${id}\n${'source line of the file\n'.repeat(60)}`,
      order,
      relevance: relevance.get(id) ?? 0.5,
    });
    const pack = buildContextPack(
      { stageId: 's', candidates: [candidate('read-used', 10), candidate('read-unused', 11)] },
      { maxTokens: 450 },
      createEstimatingTokenizer(),
    );
    const ids = pack.manifest.included.map((entry) => entry.id);
    expect(ids).toContain('read-used');
    expect(pack.manifest.excluded.map((entry) => entry.id)).toContain('read-unused');
    // Without the feedback the older entry (the used one) would have gone first.
    const flat = buildContextPack(
      {
        stageId: 's',
        candidates: [candidate('read-used', 10), candidate('read-unused', 11)].map(
          ({ relevance: _relevance, ...rest }) => rest,
        ),
      },
      { maxTokens: 450 },
      createEstimatingTokenizer(),
    );
    expect(flat.manifest.excluded.map((entry) => entry.id)).toContain('read-used');
  });
});
