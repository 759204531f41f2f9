import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ContextManifestSchema } from '../inference/context-manifest.js';
import {
  buildContextPack,
  PinnedContextOverBudgetError,
  safeBuildContextPack,
} from './build-context-pack.js';
import { ContextInputError } from './context-pack-settings.js';
import { isPinned, type ContextCandidate } from './context-candidate.js';
import { OPERATING_GUIDANCE } from './operating-guidance.js';
import { contextPackDigest, renderContextPack } from './render-context-pack.js';
import { steeringNoteCandidate } from './steering-note.js';
import { createEstimatingTokenizer } from './tokenizer.js';
import { toolArgsHintCandidate } from './tool-args-hint.js';

const tokenizer = createEstimatingTokenizer();
const event = (id: string) => ({ kind: 'event' as const, id });
const task: ContextCandidate = {
  id: 'task',
  layer: 'L1',
  kind: 'task',
  source: event('e1'),
  content: 'Task: add a --verbose flag to the CLI.',
  order: 1,
};
const turn = (n: number, content = `turn ${n} ${'words '.repeat(20)}`): ContextCandidate => ({
  id: `turn-${n}`,
  layer: 'L1',
  kind: 'turn',
  source: event(`t${n}`),
  content,
  order: 10 + n,
});
const toolOutput = (n: number, size: number): ContextCandidate => ({
  id: `tool-${n}`,
  layer: 'L1',
  kind: 'tool_result',
  source: event(`r${n}`),
  content: `START-${n} ${'log line with output\n'.repeat(size)} END-${n}`,
  order: 100 + n,
});
const summary = (n: number): ContextCandidate => ({
  id: `summary-${n}`,
  layer: 'L2',
  kind: 'summary',
  source: { kind: 'artifact', id: `a${n}` },
  content: `stage ${n} summary ${'detail '.repeat(30)}`,
  order: 50 + n,
});

describe('buildContextPack', () => {
  it('always carries the operating guidance, the task and steering notes', () => {
    const note = steeringNoteCandidate(
      { sessionId: 's', content: 'Use pnpm, not npm.' },
      'ev-9',
      9,
    );
    const pack = buildContextPack(
      { stageId: 'implement', candidates: [task, note, turn(1)] },
      { maxTokens: 1000 },
      tokenizer,
    );
    const messages = renderContextPack(pack);
    expect(messages[0]!.role).toBe('system');
    expect(messages[0]!.content).toContain(OPERATING_GUIDANCE);
    expect(messages[0]!.content).toContain('Use pnpm, not npm.');
    expect(pack.entries.map((e) => e.id)).toEqual([
      'operating-guidance',
      'steering:ev-9',
      'task',
      'turn-1',
    ]);
    expect(pack.manifest.tokenizer).toBe('estimate-v1');
    expect(contextPackDigest(messages)).toMatch(/^[0-9a-f]{64}$/);
  });

  it('filters other stages and empty content, and de-duplicates identical content', () => {
    const pack = buildContextPack(
      {
        stageId: 'implement',
        candidates: [
          task,
          { ...turn(1), stageId: 'review' },
          turn(2, '   '),
          turn(3, 'same text'),
          { ...summary(1), content: 'same text' },
          turn(4, 'same text'),
        ],
      },
      { maxTokens: 1000 },
      tokenizer,
    );
    expect(pack.manifest.excluded).toEqual([
      expect.objectContaining({ id: 'turn-1', reason: 'other_stage' }),
      expect.objectContaining({ id: 'turn-2', reason: 'empty' }),
      expect.objectContaining({ id: 'turn-3', reason: 'duplicate', duplicateOf: 'turn-4' }),
      expect.objectContaining({ id: 'summary-1', reason: 'duplicate', duplicateOf: 'turn-4' }),
    ]);
  });

  it('compresses large tool outputs before dropping anything, keeping head and tail', () => {
    const pack = buildContextPack(
      { stageId: 's', candidates: [task, summary(1), toolOutput(1, 400), turn(1)] },
      { maxTokens: 700 },
      tokenizer,
    );
    const tool = pack.entries.find((e) => e.id === 'tool-1')!;
    expect(tool.compression).toBe('head_tail');
    expect(tool.content).toMatch(/^START-1/);
    expect(tool.content).toMatch(/END-1$/);
    expect(pack.manifest.excluded).toEqual([]);
    expect(pack.manifest.included.find((e) => e.id === 'tool-1')).toMatchObject({
      compression: 'head_tail',
      compressedBecause: 'over_budget',
    });
    expect(pack.totalTokens).toBeLessThanOrEqual(700);
    // With room to spare, an oversized output is still capped: nothing raw accumulates.
    const roomy = buildContextPack(
      { stageId: 's', candidates: [task, toolOutput(1, 400)] },
      { maxTokens: 50_000 },
      tokenizer,
    );
    expect(roomy.manifest.included.find((e) => e.id === 'tool-1')).toMatchObject({
      tokens: expect.any(Number) as number,
      originalTokens: 2407,
      compressedBecause: 'entry_cap',
    });
    expect(roomy.entries.find((e) => e.id === 'tool-1')!.tokens).toBeLessThanOrEqual(2000);
  });

  it('drops lower layers first and oldest first under pressure, never pinned entries', () => {
    const candidates = [task, summary(1), summary(2), turn(1), turn(2), turn(3)];
    const pack = buildContextPack({ stageId: 's', candidates }, { maxTokens: 220 }, tokenizer);
    const dropped = pack.manifest.excluded
      .filter((e) => e.reason === 'over_budget')
      .map((e) => e.id);
    expect(dropped.slice(0, 2)).toEqual(['summary-1', 'summary-2']);
    if (dropped.length > 2) expect(dropped[2]).toBe('turn-1');
    expect(pack.entries.map((e) => e.id)).toContain('task');
    expect(pack.entries.at(-1)!.id).toBe('turn-3');
  });

  it('drops the least relevant first within a layer', () => {
    const candidates = [task, { ...turn(1), relevance: 0.9 }, { ...turn(2), relevance: 0.1 }];
    const pack = buildContextPack({ stageId: 's', candidates }, { maxTokens: 180 }, tokenizer);
    expect(pack.manifest.excluded.map((e) => e.id)).toEqual(['turn-2']);
  });

  it('carries a tool-argument hint with the failing tool schema at the end', () => {
    const hint = toolArgsHintCandidate({
      tool: 'write_file',
      error: 'missing required property "path"',
      argsSchema: { type: 'object', required: ['path', 'content'] },
      argsRaw: '{"content":"x"}',
      eventId: 'ev-20',
      sequence: 20,
    });
    const pack = buildContextPack(
      { stageId: 's', candidates: [task, turn(1), hint] },
      { maxTokens: 1000 },
      tokenizer,
    );
    const last = renderContextPack(pack).at(-1)!;
    expect(last.content).toContain('write_file');
    expect(last.content).toContain('"required"');
    expect(last.content).toContain('{"content":"x"}');
  });

  it('reports pinned content over budget as a named error', () => {
    const result = safeBuildContextPack(
      { stageId: 's', candidates: [task] },
      { maxTokens: 20 },
      tokenizer,
    );
    expect(result.ok).toBe(false);
    expect(() =>
      buildContextPack({ stageId: 's', candidates: [task] }, { maxTokens: 20 }, tokenizer),
    ).toThrow(PinnedContextOverBudgetError);
  });

  it('rejects malformed input with ContextInputError', () => {
    const build =
      (candidates: ContextCandidate[], budget = { maxTokens: 100 }) =>
      () =>
        buildContextPack({ stageId: 's', candidates }, budget, tokenizer);
    expect(build([turn(1), turn(1)])).toThrow(/duplicate candidate id "turn-1"/);
    expect(build([], { maxTokens: 0 })).toThrow(ContextInputError);
    expect(build([], { maxTokens: 10, reserveForOutput: 10 } as never)).toThrow(/leaves no room/);
  });

  it('is deterministic', () => {
    const input = {
      stageId: 's',
      candidates: [task, summary(1), toolOutput(1, 300), turn(1), turn(2)],
    };
    expect(buildContextPack(input, { maxTokens: 400 }, tokenizer)).toEqual(
      buildContextPack(input, { maxTokens: 400 }, tokenizer),
    );
  });
});

const candidateArbitrary = fc.record({
  layer: fc.constantFrom('L0', 'L1', 'L2', 'L3' as const),
  kind: fc.constantFrom(
    'turn',
    'tool_result',
    'summary',
    'knowledge',
    'steering',
    'brief',
    'task' as const,
  ),
  content: fc.oneof(
    fc.string({ maxLength: 200 }),
    fc.constantFrom('dup A', 'dup B'),
    fc.integer({ min: 0, max: 5000 }).map((n) => `out ${'z'.repeat(n)} tail`),
  ),
  order: fc.integer({ min: 0, max: 1000 }),
  relevance: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
  stageId: fc.option(fc.constantFrom('s', 'other'), { nil: undefined }),
});

describe('buildContextPack properties', () => {
  it('never exceeds the budget, never drops a pinned entry and accounts for every candidate', () => {
    fc.assert(
      fc.property(
        fc.array(candidateArbitrary, { maxLength: 40 }),
        fc.integer({ min: 50, max: 6000 }),
        fc.integer({ min: 0, max: 40 }),
        (raw, maxTokens, reserveForOutput) => {
          const candidates: ContextCandidate[] = raw.map((c, index) => ({
            id: `c${index}`,
            source: { kind: 'event', id: `e${index}` },
            layer: c.layer,
            kind: c.kind,
            content: c.content,
            order: c.order,
            ...(c.relevance === undefined ? {} : { relevance: c.relevance }),
            ...(c.stageId === undefined ? {} : { stageId: c.stageId }),
          }));
          const budget = { maxTokens: maxTokens + reserveForOutput, reserveForOutput };
          const result = safeBuildContextPack({ stageId: 's', candidates }, budget, tokenizer);
          if (!result.ok) {
            expect(result.error.pinnedTokens).toBeGreaterThan(maxTokens);
            return;
          }
          const { pack } = result;
          const recount = pack.entries.reduce((sum, e) => sum + tokenizer.count(e.content) + 4, 0);
          expect(recount).toBe(pack.totalTokens);
          expect(pack.totalTokens).toBeLessThanOrEqual(maxTokens);
          ContextManifestSchema.parse(pack.manifest);
          const seen = [...pack.manifest.included, ...pack.manifest.excluded]
            .map((e) => e.id)
            .sort();
          expect(seen).toEqual(['operating-guidance', ...candidates.map((c) => c.id)].sort());
          const contents = pack.entries.map((e) => e.content);
          expect(new Set(contents).size).toBe(contents.length);
          for (const candidate of candidates) {
            if (!isPinned(candidate)) continue;
            const exclusion = pack.manifest.excluded.find((e) => e.id === candidate.id);
            expect(exclusion?.reason ?? 'included').not.toBe('over_budget');
            const entry = pack.entries.find((e) => e.id === candidate.id);
            if (entry) expect(entry.content).toBe(candidate.content);
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
