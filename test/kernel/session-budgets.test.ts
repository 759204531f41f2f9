import { describe, expect, it } from 'vitest';
import {
  currentBehaviour,
  UNVERSIONED_BEHAVIOUR,
  type KernelBehaviour,
} from '../../src/core/kernel/config/behaviour.js';
import { CACHED_INPUT_PRICES } from '../../src/core/kernel/config/kernel-flags.js';
import type { SessionBudgets } from '../../src/core/kernel/index.js';
import { recordCommand, runSession } from '../../src/core/kernel/index.js';
import type { OperatorMode } from '../../src/core/approvals/approval-tier.js';
import {
  closeStoresAfterEach,
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
} from './kernel-harness.js';

const stores = closeStoresAfterEach();

/** Each model turn lists the workspace and reports 100 input and 50 output tokens. */
const list = {
  toolCalls: [{ name: 'list_dir', args: { path: '.' } }],
  usage: { inputTokens: 100, outputTokens: 50 },
};
const done = {
  text: JSON.stringify({ summary: 'looked', filesChanged: [] }),
  usage: { inputTokens: 100, outputTokens: 50 },
};

function setup(
  budgets: SessionBudgets,
  options: {
    behaviour?: KernelBehaviour;
    prices?: { inputPerMillion: number; outputPerMillion: number; cachedInputPerMillion?: number };
  } = {},
) {
  const { workspace, storePath } = scenarioWorkspace({ 'a.txt': 'a\n' });
  const store = openStore(storePath);
  stores.push(store);
  const config = scenarioConfig({
    workflow: implementOnlyWorkflow(),
    budgets,
    ...options,
  });
  return { workspace, store, config };
}

const start = (workspace: string, mode: OperatorMode) =>
  ({ type: 'start', task: 'look around', workspace, workflowId: 'implement-only', mode }) as const;

const typesOf = (events: readonly { payload: { type: string } }[]) =>
  events.map((event) => event.payload.type);

describe('session budgets', () => {
  it('stops before the model call that would go past the token budget, and fails outside prompt mode', async () => {
    const { workspace, store, config } = setup({ maxTokens: 250 });
    const model = scriptedModel([list, list, list, done]);
    const outcome = await runSession(
      { store, sessionId: 's', config, ports: livePorts(model), clock: newClock(), ids: newIds() },
      start(workspace, 'auto'),
    );
    expect(outcome.status).toBe('failed');
    const events = await eventsOf(store, 's');
    // Two calls used 300 tokens: the third is never requested.
    expect(typesOf(events).filter((type) => type === 'inference_requested')).toHaveLength(2);
    expect(events.at(-2)!.payload).toEqual({
      type: 'budget_exhausted',
      budget: 'tokens',
      limit: 250,
      used: 300,
    });
    expect(events.at(-1)!.payload).toMatchObject({
      type: 'workflow_failed',
      category: 'budget',
      message: 'the session reached its tokens budget (300 tokens of 250 tokens)',
    });
    await expectReplayIdentical(store, 's', config);
  });

  it('prices the tokens by the model profile for a cost budget', async () => {
    // $10 per million input and $20 per million output: each turn costs $0.002.
    const { workspace, store, config } = setup(
      { maxCostUsd: 0.005 },
      { prices: { inputPerMillion: 10, outputPerMillion: 20 } },
    );
    const outcome = await runSession(
      {
        store,
        sessionId: 's',
        config,
        ports: livePorts(scriptedModel([list, list, list, list, done])),
        clock: newClock(),
        ids: newIds(),
      },
      start(workspace, 'yolo'),
    );
    expect(outcome.status).toBe('failed');
    const exhausted = (await eventsOf(store, 's')).find(
      (event) => event.payload.type === 'budget_exhausted',
    )!.payload;
    expect(exhausted).toMatchObject({ budget: 'cost', limit: 0.005 });
    expect((exhausted as { used: number }).used).toBeCloseTo(0.006, 10);
    await expectReplayIdentical(store, 's', config);
  });

  it('charges cached input at the cached price, and sessions recorded before the flag at the input price', async () => {
    // 100 input tokens a turn, 80 of them read from the prompt cache, and 50 output.
    const cachedList = { ...list, usage: { ...list.usage, cachedInputTokens: 80 } };
    const prices = { inputPerMillion: 10, cachedInputPerMillion: 1, outputPerMillion: 20 };
    const requestsUnder = async (behaviour: KernelBehaviour) => {
      const { workspace, store, config } = setup({ maxCostUsd: 0.005 }, { prices, behaviour });
      const model = scriptedModel([
        cachedList,
        cachedList,
        cachedList,
        cachedList,
        cachedList,
        done,
      ]);
      await runSession(
        {
          store,
          sessionId: 's',
          config,
          ports: livePorts(model),
          clock: newClock(),
          ids: newIds(),
        },
        start(workspace, 'yolo'),
      );
      await expectReplayIdentical(store, 's', config);
      const events = await eventsOf(store, 's');
      const exhausted = events.find((event) => event.payload.type === 'budget_exhausted')!;
      return {
        requests: typesOf(events).filter((type) => type === 'inference_requested').length,
        used: (exhausted.payload as { used: number }).used,
      };
    };
    // $0.00128 a turn: four turns pass $0.005.
    const cachedPriced = await requestsUnder(currentBehaviour());
    expect(cachedPriced.requests).toBe(4);
    expect(cachedPriced.used).toBeCloseTo(4 * 0.00128, 10);
    // Without the flag every input token costs the input price, $0.002 a turn: three turns.
    const current = currentBehaviour();
    const before = new Set(current.flags);
    before.delete(CACHED_INPUT_PRICES.name);
    const flatPriced = await requestsUnder({ ...current, flags: before });
    expect(flatPriced.requests).toBe(3);
    expect(flatPriced.used).toBeCloseTo(0.006, 10);
  });

  it('measures duration on the recorded timestamps, so replay agrees', async () => {
    // The stepping clock advances 7 ms an event.
    const { workspace, store, config } = setup({ maxDurationMs: 60 });
    const outcome = await runSession(
      {
        store,
        sessionId: 's',
        config,
        ports: livePorts(scriptedModel([list, list, list, list, list, done])),
        clock: newClock(),
        ids: newIds(),
      },
      start(workspace, 'auto'),
    );
    expect(outcome.status).toBe('failed');
    const events = await eventsOf(store, 's');
    expect(
      events.find((event) => event.payload.type === 'budget_exhausted')!.payload,
    ).toMatchObject({ budget: 'duration', limit: 60 });
    await expectReplayIdentical(store, 's', config);
  });

  it('waits for a person in prompt mode, and goes on once the budget is raised', async () => {
    const { workspace, store, config } = setup({ maxTokens: 250 });
    const model = scriptedModel([list, list, list, done]);
    const options = { store, sessionId: 's', config, clock: newClock(), ids: newIds() };
    const waiting = await runSession(
      { ...options, ports: livePorts(model) },
      start(workspace, 'prompt'),
    );
    expect(waiting.status).toBe('running');
    expect(waiting.waiting).toEqual({ kind: 'budget', budget: 'tokens', limit: 250 });
    // Resuming without raising it waits again and records nothing new.
    const before = (await eventsOf(store, 's')).length;
    const again = await runSession({ ...options, ports: livePorts(model) });
    expect(again.waiting).toMatchObject({ kind: 'budget' });
    expect(await eventsOf(store, 's')).toHaveLength(before);

    await recordCommand({ clock: newClock(), ids: newIds('c') }, store, 's', {
      type: 'raise_budget',
      budget: 'tokens',
      limit: 10_000,
      by: 'alice',
    });
    const finished = await runSession({ ...options, ports: livePorts(model) });
    expect(finished.status).toBe('completed');
    const types = typesOf(await eventsOf(store, 's'));
    expect(types.filter((type) => type === 'budget_raised')).toHaveLength(1);
    expect(types.filter((type) => type === 'inference_requested')).toHaveLength(4);
    await expectReplayIdentical(store, 's', config);
  });

  it('ignores budgets for sessions recorded before budgets existed', async () => {
    const { workspace, store, config } = setup(
      { maxTokens: 10 },
      { behaviour: UNVERSIONED_BEHAVIOUR },
    );
    const outcome = await runSession(
      {
        store,
        sessionId: 's',
        config,
        ports: livePorts(scriptedModel([list, done])),
        clock: newClock(),
        ids: newIds(),
      },
      start(workspace, 'auto'),
    );
    expect(outcome.status).toBe('completed');
  });
});
