import { describe, expect, it } from 'vitest';
import { estimateTokens } from '../../src/core/context/tokenizer.js';
import {
  UNVERSIONED_BEHAVIOUR,
  type KernelBehaviour,
} from '../../src/core/kernel/config/behaviour.js';
import type { InferenceProvider } from '../../src/core/inference/inference-provider.js';
import type { InferenceRequest } from '../../src/core/inference/inference-request.js';
import { kernelProjection, runSession } from '../../src/core/kernel/index.js';
import { nextStep } from '../../src/core/kernel/decider/next-step.js';
import { evolveRun, startedRun } from '../../src/core/kernel/decider/stage-run.js';
import { createScriptedProvider } from '../../src/infrastructure/providers/scripted-provider.js';
import {
  eventsOf,
  expectReplayIdentical,
  implementOnlyWorkflow,
  livePorts,
  newClock,
  newIds,
  openStore,
  scenarioConfig,
  scenarioWorkspace,
  scriptedModel,
  closeStoresAfterEach,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

describe('journal compaction', () => {
  it('folds older turns of a long stage into a recorded summary that the next packs carry instead', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'a\n' });
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({
      workflow: implementOnlyWorkflow(),
      limits: { compactJournalAfter: 6, compactJournalKeep: 2 },
    });
    const list = { toolCalls: [{ name: 'list_dir', args: { path: '.' } }] };
    const turns = [
      ...Array.from({ length: 8 }, () => list),
      { text: JSON.stringify({ summary: 'looked', filesChanged: [] }) },
    ];
    const model = scriptedModel(turns);
    const outcome = await runSession(
      {
        store,
        sessionId: 's-compact',
        config,
        ports: livePorts(model),
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'look around', workspace, workflowId: 'implement-only', mode: 'auto' },
    );
    expect(outcome.status).toBe('completed');
    const events = await eventsOf(store, 's-compact');
    const compactions = events.filter((event) => event.payload.type === 'journal_compacted');
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    // The first turn's result left the pack; the summary that replaced it is there.
    const last = model.request(turns.length - 1);
    // (A verbatim entry is its own message, so it follows a newline in the joined pack.)
    expect(model.request(2)).toContain('\nResult of call implement.1.1.1');
    expect(last).not.toContain('\nResult of call implement.1.1.1');
    expect(last).toContain('Summary of earlier turns in this stage');
    expect(last).toContain(
      '- correx (tool_result): Result of call implement.1.1.1 (list_dir): succeeded',
    );
    await expectReplayIdentical(store, 's-compact', config);
  });

  /** A long stage of list_dir turns; the summaries its compactions recorded, in order. */
  async function longStage(turnCount: number, behaviour?: KernelBehaviour) {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'a\n' });
    const store = openStore(storePath);
    stores.push(store);
    const config = scenarioConfig({
      workflow: implementOnlyWorkflow(),
      limits: {
        compactJournalAfter: 6,
        compactJournalKeep: 2,
        compactJournalMaxTokens: 150,
        maxTurnsPerStage: turnCount + 2,
      },
      ...(behaviour === undefined ? {} : { behaviour }),
    });
    const list = { toolCalls: [{ name: 'list_dir', args: { path: '.' } }] };
    const turns = [
      ...Array.from({ length: turnCount }, () => list),
      { text: JSON.stringify({ summary: 'looked', filesChanged: [] }) },
    ];
    const sessionId = `s-long-${turnCount}-${behaviour === undefined ? 'now' : 'before'}`;
    const outcome = await runSession(
      {
        store,
        sessionId,
        config,
        ports: livePorts(scriptedModel(turns)),
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'look around', workspace, workflowId: 'implement-only', mode: 'auto' },
    );
    expect(outcome.status).toBe('completed');
    await expectReplayIdentical(store, sessionId, config);
    return (await eventsOf(store, sessionId)).flatMap((event) =>
      event.payload.type === 'journal_compacted' ? [event.payload.summary] : [],
    );
  }

  it('caps each summary at compactJournalMaxTokens, so the bytes compactions write grow linearly', async () => {
    const summaries = await longStage(30);
    expect(summaries.length).toBeGreaterThan(10);
    for (const summary of summaries) expect(estimateTokens(summary)).toBeLessThanOrEqual(150);
    expect(summaries.at(-1)).toMatch(/the \d+ oldest lines left out/);
    // The newest entries are the ones kept.
    expect(summaries.at(-1)).toContain('implement.1.');
    const sizes = summaries.map((summary) => summary.length);
    expect(Math.max(...sizes.slice(-5))).toBeLessThanOrEqual(
      2 * Math.max(...sizes.slice(0, 5)) + 200,
    );
  });

  /**
   * A model that writes summaries when asked (a request that offers no tools), answering with
   * `summary(n)` for the n-th, and otherwise plays `turns`.
   */
  function summarisingModel(
    turns: Parameters<typeof createScriptedProvider>[0]['turns'],
    summary: (index: number) => Parameters<typeof createScriptedProvider>[0]['turns'][number],
  ) {
    const stage = createScriptedProvider({ turns, name: 'scripted' });
    const asked: InferenceRequest[] = [];
    const provider: InferenceProvider = {
      name: 'scripted',
      infer(request, signal) {
        if (request.tools.length > 0) return stage.infer(request, signal);
        asked.push(request);
        return createScriptedProvider({ turns: [summary(asked.length)] }).infer(request, signal);
      },
    };
    return { provider, asked, stage };
  }

  /** Compaction after 6 entries, keeping 2, summaries of at most 120 tokens by the model. */
  const modelSummaryConfig = () =>
    scenarioConfig({
      workflow: implementOnlyWorkflow(),
      limits: {
        compactJournalAfter: 6,
        compactJournalKeep: 2,
        compactJournalMaxTokens: 120,
        maxTurnsPerStage: 14,
      },
      journalSummary: 'model',
      budgets: { maxTokens: 1_000_000 },
    });

  async function modelWrittenStage(
    sessionId: string,
    summary: (index: number) => Parameters<typeof createScriptedProvider>[0]['turns'][number],
  ) {
    const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'a\n' });
    const store = openStore(storePath);
    stores.push(store);
    const config = modelSummaryConfig();
    const list = { toolCalls: [{ name: 'list_dir', args: { path: '.' } }] };
    const model = summarisingModel(
      [
        ...Array.from({ length: 10 }, () => list),
        { text: JSON.stringify({ summary: 'looked', filesChanged: [] }) },
      ],
      summary,
    );
    const outcome = await runSession(
      {
        store,
        sessionId,
        config,
        ports: livePorts(model.provider),
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'look around', workspace, workflowId: 'implement-only', mode: 'auto' },
    );
    expect(outcome.status).toBe('completed');
    await expectReplayIdentical(store, sessionId, config);
    return { events: await eventsOf(store, sessionId), model, outcome };
  }

  it('with journal.summary model, the stage model writes each summary, recorded so replay reads it', async () => {
    const { events, model, outcome } = await modelWrittenStage('s-model-summary', (index) => ({
      text: `Summary ${index}: listed . several times; it holds a.txt and nothing changed.${' More detail.'.repeat(index === 2 ? 200 : 0)}`,
      usage: { inputTokens: 300, outputTokens: 40 },
    }));
    const requested = events.filter((event) => event.payload.type === 'journal_summary_requested');
    const compactions = events.flatMap((event) =>
      event.payload.type === 'journal_compacted' ? [event.payload] : [],
    );
    expect(requested.length).toBeGreaterThanOrEqual(2);
    expect(compactions).toHaveLength(requested.length);
    expect(model.asked).toHaveLength(requested.length);
    for (const [index, compaction] of compactions.entries()) {
      expect(compaction.requestId).toBe(
        (requested[index]!.payload as { requestId: string }).requestId,
      );
      expect(compaction.summary).toContain('written by the model');
      expect(compaction.summary).toContain(`Summary ${index + 1}: listed`);
      // The model's word does not set the bound: a long answer is cut to it.
      expect(estimateTokens(compaction.summary)).toBeLessThanOrEqual(120);
    }
    expect(compactions[1]!.summary.endsWith('…')).toBe(true);
    // The second summary request reads the first summary; the stage's next turn reads the newest.
    expect(model.asked[1]!.messages.map((message) => message.content).join('\n')).toContain(
      'Summary 1: listed',
    );
    expect(model.asked[0]!.limits.maxOutputTokens).toBeLessThanOrEqual(120);
    const lastTurn = model.stage.requests
      .at(-1)!
      .messages.map((m) => m.content)
      .join('\n');
    expect(lastTurn).toContain(`Summary ${compactions.length}: listed`);
    // The answers are the compaction's, not turns: no journal entry, and their tokens count.
    expect(lastTurn).not.toContain('Summary 1: listed');
    expect(outcome.state.features.budget.used['scripted']?.output ?? 0).toBeGreaterThanOrEqual(
      40 * requested.length,
    );
  });

  it('rebuilds a pending summary request after a restart exactly as recorded', async () => {
    const { events } = await modelWrittenStage('s-model-summary-restart', (index) => ({
      text: `Summary ${index}.`,
    }));
    const at = events.findIndex((event) => event.payload.type === 'journal_summary_requested');
    // A process that stopped right after recording the request: nothing built in memory.
    const state = events
      .slice(0, at + 1)
      .reduce(
        (folded, event) => kernelProjection.evolve(folded, event),
        kernelProjection.initial(),
      );
    const step = nextStep(modelSummaryConfig(), state, new Map());
    const recorded = events[at]!.payload as { requestId: string; requestDigest: string };
    expect(step).toMatchObject({
      kind: 'await',
      effect: {
        type: 'infer',
        requestId: recorded.requestId,
        requestDigest: recorded.requestDigest,
        request: { tools: [] },
      },
    });
  });

  it('an answer to a summary the attempt no longer waits on (after a redirect) is not a turn', () => {
    const run = startedRun('implement', 2);
    const late = {
      eventId: 'late',
      sessionId: 's',
      sequence: 40,
      position: 40,
      hash: '',
      timestamp: '2026-11-30T12:00:00.000Z',
      causationId: null,
      correlationId: null,
      payload: {
        type: 'inference_completed' as const,
        requestId: 'implement.1.summary.31',
        provider: 'scripted',
        requestDigest: 'a'.repeat(64),
        result: {
          text: 'A summary of attempt 1.',
          toolCalls: [],
          finishReason: 'stop' as const,
          usage: { inputTokens: 10, outputTokens: 5 },
          modelId: 'm',
          latencyMs: 1,
        },
      },
    };
    const after = evolveRun(run, late as never);
    expect(after).toBe(run);
    expect(after.transcript).toEqual([]);
  });

  it('falls back to lines when the summary call fails, without a retry delay', async () => {
    const { events } = await modelWrittenStage('s-model-summary-failed', () => ({
      fail: { category: 'rate_limit', message: 'slow down', retryAfterMs: 60_000 },
    }));
    const types = events.map((event) => event.payload.type);
    expect(types).toContain('journal_summary_requested');
    expect(types).not.toContain('retry_delay_started');
    const compactions = events.flatMap((event) =>
      event.payload.type === 'journal_compacted' ? [event.payload] : [],
    );
    expect(compactions.length).toBeGreaterThanOrEqual(2);
    for (const compaction of compactions) {
      expect(compaction.requestId).toBeUndefined();
      expect(compaction.summary).toContain('- correx (tool_result): Result of call');
    }
  });

  it('keeps copying earlier summaries whole for sessions recorded before the bound', async () => {
    const summaries = await longStage(30, UNVERSIONED_BEHAVIOUR);
    expect(summaries.at(-1)!.length).toBeGreaterThan(5 * summaries[0]!.length);
    expect(summaries.at(-1)).not.toMatch(/oldest lines left out/);
  });
});
