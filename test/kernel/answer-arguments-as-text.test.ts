import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/events/canonical-json.js';
import { answerCallArgs } from '../../src/core/inference/answer-call-args.js';
import { currentBehaviour } from '../../src/core/kernel/config/behaviour.js';
import { ANSWER_ARGUMENTS_AS_TEXT } from '../../src/core/kernel/config/kernel-flags.js';
import { recordedKernelConfig, replaySession, runSession } from '../../src/core/kernel/index.js';
import { nodeSha256 } from '../../src/infrastructure/system/node-sha256.js';
import {
  closeStoresAfterEach,
  eventsOf,
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

/**
 * Issue #38: a file a model writes was stored in the answer twice (its text, `argsRaw`, and the
 * parsed copy, `args`). With `answer-arguments-as-text` the answer keeps the text alone and says
 * so (`argsInText`); every reader parses it. The same session recorded with and without the flag
 * makes the same decisions (same proposals, receipts and packs), both replay, and the answer is
 * smaller by the file's content.
 */
const CONTENT = `${'const line = "a file a model writes";\n'.repeat(60)}`;

async function record(flags: ReadonlySet<string>, workspace: string, storePath: string) {
  const store = openStore(storePath);
  stores.push(store);
  const behaviour = { kernelVersion: currentBehaviour().kernelVersion, flags };
  const config = scenarioConfig({ workflow: implementOnlyWorkflow(), behaviour });
  const model = scriptedModel([
    { toolCalls: [{ name: 'write_file', args: { path: 'out.ts', content: CONTENT } }] },
    { toolCalls: [{ name: 'read_file', args: { path: 'out.ts' } }] },
    { text: JSON.stringify({ summary: 'wrote out.ts', filesChanged: ['out.ts'] }) },
  ]);
  const outcome = await runSession(
    {
      store,
      sessionId: 's-args',
      config,
      ports: livePorts(model),
      clock: newClock(),
      ids: newIds(),
    },
    { type: 'start', task: 'Write out.ts', workspace, workflowId: 'implement-only', mode: 'yolo' },
  );
  expect(outcome.status).toBe('completed');
  expect(readFileSync(join(workspace, 'out.ts'), 'utf8')).toBe(CONTENT);
  const report = await replaySession(
    store,
    's-args',
    await recordedKernelConfig(store, 's-args', nodeSha256),
  );
  if (!report.ok) expect.fail(`replay diverged: ${JSON.stringify(report.divergence, null, 2)}`);
  return eventsOf(store, 's-args');
}

describe('answer arguments recorded as text', () => {
  it('records each call once as text, decides the same, replays, and stores less', async () => {
    const all = currentBehaviour().flags;
    expect(all.has(ANSWER_ARGUMENTS_AS_TEXT.name)).toBe(true);
    const without = new Set([...all].filter((flag) => flag !== ANSWER_ARGUMENTS_AS_TEXT.name));
    // One workspace, emptied between the two (its path is in every pack), two stores.
    const { workspace, storePath } = scenarioWorkspace({});
    const parsed = await record(without, workspace, storePath);
    rmSync(join(workspace, 'out.ts'));
    const text = await record(all, workspace, `${storePath}.flagged`);

    type Answer = { result: { toolCalls: Parameters<typeof answerCallArgs>[0][] } };
    const answers = (events: typeof parsed) =>
      events.flatMap((event) =>
        event.payload.type === 'inference_completed' ? [event.payload as unknown as Answer] : [],
      );
    const parsedCalls = answers(parsed).flatMap((answer) => answer.result.toolCalls);
    const textCalls = answers(text).flatMap((answer) => answer.result.toolCalls);
    expect(textCalls.length).toBeGreaterThanOrEqual(2);
    for (const call of parsedCalls) expect(call.args).toBeDefined();
    for (const call of textCalls) {
      expect(call.args).toBeUndefined();
      expect(call.argsInText).toBe(true);
    }
    // Read back, the arguments are the same.
    expect(textCalls.map((call) => canonicalJson(answerCallArgs(call)))).toEqual(
      parsedCalls.map((call) => canonicalJson(answerCallArgs(call))),
    );
    // The same decisions: what was proposed, what ran, and what every model call was sent.
    const same = (type: string, pick: (payload: Record<string, unknown>) => unknown) => {
      const of = (events: typeof parsed) =>
        events
          .filter((event) => event.payload.type === type)
          .map((event) => canonicalJson(pick(event.payload as unknown as Record<string, unknown>)));
      expect(of(text)).toEqual(of(parsed));
      expect(of(text).length).toBeGreaterThan(0);
    };
    same('tool_call_proposed', (payload) => payload);
    same('tool_receipt', ({ durationMs: _ms, ...payload }) => payload);
    same('inference_requested', (payload) => payload.packDigest);
    // The answer that wrote the file is smaller by about the file's content.
    const bytes = (answer: Answer) => canonicalJson(answer).length;
    const saved = bytes(answers(parsed)[0]!) - bytes(answers(text)[0]!);
    expect(saved).toBeGreaterThan(CONTENT.length);
  });

  it('keeps arguments a provider built otherwise than its text parses', () => {
    const call = { callId: 'c', name: 'read_file', argsRaw: '{"path":"a"}', args: { path: 'b' } };
    expect(answerCallArgs(call)).toEqual({ path: 'b' });
    expect(answerCallArgs({ callId: 'c', name: 'x', argsRaw: '[1]', argsInText: true })).toBe(
      undefined,
    );
    expect(answerCallArgs({ callId: 'c', name: 'x', argsRaw: '{"a":1}' })).toBeUndefined();
  });
});
