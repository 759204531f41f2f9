import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type * as ExecCommandAnalysis from '../../src/core/toolintent/shell-analysis/exec-command-analysis.js';

// Every shell analysis goes through analyzeExecCall: counted here, behaviour unchanged.
const analyses = vi.hoisted(() => ({ count: 0 }));
vi.mock(
  '../../src/core/toolintent/shell-analysis/exec-command-analysis.js',
  async (importOriginal) => {
    const original = await importOriginal<typeof ExecCommandAnalysis>();
    return {
      ...original,
      analyzeExecCall: (...args: Parameters<typeof original.analyzeExecCall>) => {
        analyses.count++;
        return original.analyzeExecCall(...args);
      },
    };
  },
);

afterEach(() => {
  vi.restoreAllMocks();
});

/** Calls of `safeParse`/`parse` on a schema (the one validation entry points zod offers callers). */
function countValidations(schema: object): () => number {
  const safeParse = vi.spyOn(schema as { safeParse: (value: unknown) => unknown }, 'safeParse');
  const parse = vi.spyOn(schema as { parse: (value: unknown) => unknown }, 'parse');
  return () => safeParse.mock.calls.length + parse.mock.calls.length;
}

/**
 * The work the kernel does for one proposed call, over a real session: one exec call and one
 * write_file call, each probed, assessed, approved, started and run. A call is validated against
 * its schema once and its command line analysed once; the prepared call is carried, not rebuilt.
 */
describe('work per proposed tool call', () => {
  it('validates each call once and analyses the exec line once', async () => {
    // Workers keep modules between files: import the kernel afresh so it sees the counting mock.
    vi.resetModules();
    const { runSession } = await import('../../src/core/kernel/runner/run-session.js');
    const { execTool, writeFileTool } = await import('../../src/core/tools/builtin-tools.js');
    const {
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
    } = await import('./kernel-harness.js');
    const execArgs = { command: 'echo hi > out.txt' };
    const writeArgs = { content: 'notes\n', path: 'notes.txt' };
    const execRaw = JSON.stringify(execArgs);
    const writeRaw = JSON.stringify(writeArgs);
    const { workspace, storePath } = scenarioWorkspace({});
    const store = openStore(storePath);
    onTestFinished(() => store.close());
    const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
    const model = scriptedModel([
      { toolCalls: [{ name: 'exec', argsRaw: execRaw }] },
      { toolCalls: [{ name: 'write_file', argsRaw: writeRaw }] },
      { text: JSON.stringify({ summary: 'done', filesChanged: ['notes.txt', 'out.txt'] }) },
    ]);
    const execValidations = countValidations(execTool.argsSchema);
    const writeValidations = countValidations(writeFileTool.argsSchema);
    const parse = vi.spyOn(JSON, 'parse');
    analyses.count = 0;
    const outcome = await runSession(
      {
        store,
        sessionId: 's-work',
        config,
        ports: livePorts(model),
        clock: newClock(),
        ids: newIds(),
      },
      { type: 'start', task: 'Write notes', workspace, workflowId: 'implement-only', mode: 'yolo' },
    );
    const parsesOf = (raw: string) => parse.mock.calls.filter(([text]) => text === raw).length;
    const counts = {
      exec: { validations: execValidations(), analyses: analyses.count, parses: parsesOf(execRaw) },
      write: { validations: writeValidations(), parses: parsesOf(writeRaw) },
    };
    parse.mockRestore();
    expect(outcome.status).toBe('completed');
    const events = await eventsOf(store, 's-work');
    expect(
      events.filter((event) => event.payload.type === 'tool_receipt').map((event) => event.payload),
    ).toMatchObject([
      { tool: 'exec', outcome: 'succeeded' },
      { tool: 'write_file', outcome: 'succeeded' },
    ]);
    // Parses of the argument text: the provider reading the answer (1); the answer recorded as
    // text (`answer-arguments-as-text`: 1 to check the text parses to what the provider parsed,
    // 1 where the fold renders the answer's calls in canonical form for the transcript); the fold
    // of `tool_call_proposed` (1: decide folds what it emits, and the runner keeps that state
    // instead of folding the stored event again); the canonical form the check validates (1).
    // The runner, not the executor, writes the receipt's envelope.
    expect(counts).toEqual({
      exec: { validations: 1, analyses: 1, parses: 5 },
      write: { validations: 1, parses: 5 },
    });
    await expectReplayIdentical(store, 's-work', config);
  });
});
