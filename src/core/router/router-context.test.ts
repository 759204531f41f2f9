import { describe, expect, it } from 'vitest';
import { PinnedContextOverBudgetError } from '../context/build-context-pack.js';
import { createEstimatingTokenizer } from '../context/tokenizer.js';
import type { EventPayload } from '../event-catalog.js';
import { ContextManifestSchema } from '../inference/context-manifest.js';
import {
  buildRouterContext,
  renderRouterContext,
  ROUTER_SYSTEM_PROMPT,
  type RouterContextInput,
} from './router-context.js';
import { routerProjection } from './router-projection.js';
import type { RouterL2Entry, RouterState, RouterTurn } from './router-state.js';

const tokenizer = createEstimatingTokenizer();

const memory = (n: number): RouterL2Entry => ({
  stageId: `stage${n}`,
  attempt: 1,
  outcome: n % 2 === 0 ? 'success' : 'failure',
  summary: `stage stage${n} attempt 1 ${'outcome words '.repeat(10)}`,
  sequence: n * 10,
  eventId: `e${n * 10}`,
  timestamp: '2026-11-30T12:00:00.000Z',
});
const state = (entries = 0): RouterState => ({
  ...routerProjection.initial(),
  sessionId: 's1',
  workflowStatus: 'running',
  currentStageId: 'verify',
  task: 'Fix the date parser',
  l2Memory: Array.from({ length: entries }, (_, i) => memory(i + 1)),
  lastSequence: entries * 10 + 1,
});
const turns = (count: number): RouterTurn[] =>
  Array.from({ length: count }, (_, i) => ({
    role: i % 2 === 0 ? 'user' : 'router',
    content: `turn ${i} ${'chat '.repeat(8)}`,
    timestamp: '2026-11-30T12:00:00.000Z',
  }));
const ids = (input: RouterContextInput, maxTokens: number) =>
  buildRouterContext(input, { maxTokens }, tokenizer).entries.map((e) => e.id);

describe('buildRouterContext', () => {
  it('holds the system prompt and status (L0), stage summaries citing their sequence (L2) and turns (L1)', () => {
    const pack = buildRouterContext(
      { state: state(2), history: turns(3) },
      { maxTokens: 4096 },
      tokenizer,
    );
    expect(pack.entries.map((e) => [e.id, e.layer])).toEqual([
      ['router-system', 'L0'],
      ['router-status', 'L0'],
      ['stage-outcome:e10', 'L2'],
      ['stage-outcome:e20', 'L2'],
      ['turn:0', 'L1'],
      ['turn:1', 'L1'],
      ['turn:2', 'L1'],
    ]);
    const messages = renderRouterContext(pack);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
    const system = messages[0]!.content;
    expect(system).toContain(ROUTER_SYSTEM_PROMPT);
    expect(system).toContain('Workflow status: running.');
    expect(system).toContain('Current stage: verify.');
    expect(system).toContain('#10 [failure] stage stage1');
    expect(system.indexOf('#10')).toBeLessThan(system.indexOf('#20'));
    expect(ContextManifestSchema.parse(pack.manifest)).toEqual(pack.manifest);
  });

  it('says in L0 what the session waits for, so "what is it waiting for?" has an answer', () => {
    const render = (pending: RouterState['pendingApprovals']) =>
      renderRouterContext(
        buildRouterContext(
          { state: { ...state(0), pendingApprovals: pending }, history: turns(1) },
          { maxTokens: 4096 },
          tokenizer,
        ),
      )[0]!.content;
    expect(render([])).toContain('Waiting for approval: nothing.');
    const waiting = render([
      { callId: 'verify.1.2.1', tool: 'exec', tier: 'T2', reason: 'runs npm test', sequence: 41 },
    ]);
    expect(waiting).toContain(
      '- call verify.1.2.1 (exec, tier T2), requested at #41: runs npm test',
    );
    expect(waiting).not.toContain('Waiting for approval: nothing.');
  });

  it('never carries raw events, artifact content or tool output: only what the projection kept', () => {
    const secret = 'SECRET-TOOL-OUTPUT-4242';
    const artifact = 'ARTIFACT-BODY-9999';
    const events: EventPayload[] = [
      { type: 'workflow_started', workflowId: 'default', firstStageId: 'verify' },
      { type: 'stage_started', stageId: 'verify', attempt: 1 },
      {
        type: 'tool_receipt',
        callId: 'c1',
        tool: 'exec',
        args: { argv: ['npm', 'test'] },
        outcome: 'failed',
        exitCode: 1,
        error: secret,
        output: `${secret}\nFAIL`,
        outputBytes: 30,
        outputSha256: 'c'.repeat(64),
        truncated: false,
        files: [],
        durationMs: 10,
      },
      {
        type: 'inference_completed',
        requestId: 'r1',
        provider: 'p',
        requestDigest: 'c'.repeat(64),
        result: {
          text: `{"summary":"${artifact}"}`,
          toolCalls: [],
          finishReason: 'stop',
          usage: { inputTokens: 1, outputTokens: 1 },
          modelId: 'm',
          latencyMs: 1,
        },
      },
      { type: 'artifact_accepted', hash: 'd'.repeat(64), kind: 'review', stageId: 'verify' },
      {
        type: 'stage_failed',
        stageId: 'verify',
        attempt: 1,
        category: 'validation',
        message: `definition-of-done check \`test\` (npm test) failed:\n${secret}`,
      },
    ];
    const folded = events.reduce(
      (s, payload, i) =>
        routerProjection.evolve(s, {
          eventId: `e${i + 1}`,
          sessionId: 's1',
          sequence: i + 1,
          timestamp: '2026-11-30T12:00:00.000Z',
          version: 1,
          causationId: null,
          correlationId: null,
          payload,
          position: i + 1,
          hash: '',
        }),
      routerProjection.initial(),
    );
    const pack = buildRouterContext(
      { state: folded, history: turns(1) },
      { maxTokens: 4096 },
      tokenizer,
    );
    const text = JSON.stringify(renderRouterContext(pack));
    expect(text).not.toContain(secret);
    expect(text).not.toContain(artifact);
    expect(text).not.toContain('"type":');
    expect(new Set(pack.entries.map((e) => e.kind))).toEqual(
      new Set(['system', 'summary', 'turn']),
    );
    expect(pack.entries.filter((e) => e.source.kind === 'event').map((e) => e.source.id)).toEqual([
      'e6',
    ]);
    expect(pack.entries.some((e) => e.source.kind === 'artifact')).toBe(false);
  });

  it('drops L2 summaries oldest first under budget pressure and records them as over budget', () => {
    const input = { state: state(10), history: turns(1) };
    const full = buildRouterContext(input, { maxTokens: 4096 }, tokenizer);
    const perSummary = full.entries.find((e) => e.layer === 'L2')!.tokens + 4;
    // Room for everything but three summaries.
    const pack = buildRouterContext(
      input,
      { maxTokens: full.totalTokens - 2 * perSummary - 1 },
      tokenizer,
    );
    const kept = pack.entries.filter((e) => e.layer === 'L2').map((e) => e.id);
    expect(kept).toEqual([4, 5, 6, 7, 8, 9, 10].map((n) => `stage-outcome:e${n * 10}`));
    expect(pack.manifest.excluded.map((e) => [e.id, e.reason])).toEqual([
      ['stage-outcome:e10', 'over_budget'],
      ['stage-outcome:e20', 'over_budget'],
      ['stage-outcome:e30', 'over_budget'],
    ]);
    expect(pack.totalTokens).toBeLessThanOrEqual(pack.manifest.budgetTokens);
  });

  it('never drops L0 (system prompt, status) nor the question; fails when they alone do not fit', () => {
    const input = { state: state(5), history: turns(5) };
    const pinnedOnly = buildRouterContext(input, { maxTokens: 4096 }, tokenizer)
      .entries.filter((e) => e.layer === 'L0' || e.id === 'turn:4')
      .reduce((sum, e) => sum + e.tokens + 4, 0);
    expect(ids(input, pinnedOnly)).toEqual(['router-system', 'router-status', 'turn:4']);
    expect(() => ids(input, pinnedOnly - 1)).toThrow(PinnedContextOverBudgetError);
  });

  it('drops older turns only after every summary is gone, oldest first', () => {
    const input = { state: state(3), history: turns(5) };
    const full = buildRouterContext(input, { maxTokens: 4096 }, tokenizer);
    const allButOneTurn = full.entries
      .filter((e) => e.layer !== 'L2' && e.id !== 'turn:0')
      .reduce((sum, e) => sum + e.tokens + 4, 0);
    expect(ids(input, allButOneTurn)).toEqual([
      'router-system',
      'router-status',
      'turn:1',
      'turn:2',
      'turn:3',
      'turn:4',
    ]);
  });

  it('caps the conversation at keepLast turns (default 6), keeping the newest', () => {
    const history = turns(11);
    const l1 = (keepLast?: number) =>
      buildRouterContext(
        { state: state(0), history, ...(keepLast === undefined ? {} : { keepLast }) },
        { maxTokens: 4096 },
        tokenizer,
      )
        .entries.filter((e) => e.layer === 'L1')
        .map((e) => e.id);
    expect(l1()).toEqual(['turn:5', 'turn:6', 'turn:7', 'turn:8', 'turn:9', 'turn:10']);
    expect(l1(2)).toEqual(['turn:9', 'turn:10']);
    expect(() => l1(0)).toThrow(RangeError);
  });

  it('is deterministic, and says in L0 when the input is a steering note', () => {
    const input = { state: state(4), history: turns(4) };
    const a = buildRouterContext(input, { maxTokens: 300 }, tokenizer);
    const b = buildRouterContext(input, { maxTokens: 300 }, tokenizer);
    expect(b).toEqual(a);
    const steering = renderRouterContext(
      buildRouterContext({ ...input, steering: true }, { maxTokens: 4096 }, tokenizer),
    );
    expect(steering[0]!.content).toContain('steering note');
    expect(renderRouterContext(a)[0]!.content).not.toContain('steering note');
  });
});
