import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runSession, recordedKernelConfig, replaySession } from '../../src/core/kernel/index.js';
import { nodeSha256 } from '../../src/infrastructure/system/node-sha256.js';
import type { ScriptedTurn } from '../../src/infrastructure/providers/scripted-provider.js';
import { permutedSession, storeOf } from '../support/permute-model-keys.js';
import {
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

/*
 * Malformed model output, fuzzed (issue 33): sessions whose model answers with random JSON in
 * random key orders, broken and truncated arguments, unknown tools, answers nested far too deep
 * (text, finishing calls, arguments), oversized refused arguments and unnameable programs. Every
 * session must end (completed or failed, never wedged or thrown), replay from its recorded
 * configuration, and replay again with the keys of every model JSON object permuted.
 * CORREX_FUZZ_SESSIONS sets the number of sessions: 300 in CI (CI=true, as `.ci/run` runs it),
 * 40 elsewhere, so a developer's `npm test` stays quick.
 */
const SESSIONS = Number(process.env.CORREX_FUZZ_SESSIONS ?? (process.env.CI === 'true' ? 300 : 40));

const nested = (depth: number) => '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
const key = fc.constantFrom('path', 'content', 'summary', 'filesChanged', 'argv', 'zeta', 'a');
const object = fc.dictionary(key, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 5 });

const argsText = fc.oneof(
  object.map((value) => JSON.stringify(value)),
  fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value)),
  object.map((value) => JSON.stringify(value).slice(0, -1)),
  fc.constantFrom(nested(300), nested(10_000), '', '{', '{"path":"notes.txt"} trailing'),
  fc.constantFrom(
    JSON.stringify({ path: 'notes.txt', content: 'x'.repeat(20_000), extra: 1 }),
    JSON.stringify({ path: 'notes.txt' }),
    JSON.stringify({ startLine: 1, path: 'notes.txt' }),
    JSON.stringify({ argv: [' sh'] }),
    JSON.stringify({ argv: ['echo', 'hi'], cwd: '.' }),
  ),
);

const call = fc.record({
  name: fc.constantFrom(
    'read_file',
    'write_file',
    'exec',
    'list_dir',
    'no_such_tool',
    'finish_change',
  ),
  argsRaw: argsText,
});

const turn: fc.Arbitrary<ScriptedTurn> = fc.oneof(
  fc.record({ toolCalls: fc.array(call, { minLength: 1, maxLength: 3 }) }),
  argsText.map((text) => ({ text })),
  fc.oneof(argsText, fc.string()).map((text) => ({ text, plainText: true })),
  object.map((value) => ({ text: '```json\n' + JSON.stringify(value) + '\n```' })),
);

/** Turns that print short in a counterexample (a 10,000-deep answer would fill the screen). */
function shortly(turns: ScriptedTurn[]): ScriptedTurn[] {
  return Object.assign(turns, {
    [fc.toStringMethod]: () =>
      JSON.stringify(turns, (_key, value: unknown) =>
        typeof value === 'string' && value.length > 200
          ? `${value.slice(0, 100)}…(${value.length} characters)`
          : value,
      ),
  });
}

const finish: ScriptedTurn = {
  text: JSON.stringify({ filesChanged: [], summary: 'done' }),
};

async function fuzzedSession(turns: ScriptedTurn[], index: number) {
  const { workspace, storePath } = scenarioWorkspace({ 'notes.txt': 'notes\n' });
  const store = openStore(storePath);
  try {
    const config = scenarioConfig({
      workflow: implementOnlyWorkflow(),
      limits: { maxTurnsPerStage: turns.length + 3 },
    });
    // After the random turns, a good answer twice, then a failure that ends the stage for sure.
    const model = scriptedModel([
      ...turns,
      finish,
      finish,
      { fail: { category: 'auth', message: 'the fuzz script is over' } },
    ]);
    const sessionId = `s-fuzz-${index}`;
    const outcome = await runSession(
      { store, sessionId, config, ports: livePorts(model), clock: newClock(), ids: newIds() },
      { type: 'start', task: 'fuzz', workspace, workflowId: 'implement-only', mode: 'auto' },
    );
    expect(['completed', 'failed']).toContain(outcome.status);
    const recorded = await recordedKernelConfig(store, sessionId, nodeSha256);
    const report = await replaySession(store, sessionId, recorded);
    if (!report.ok) throw new Error(`replay diverged: ${JSON.stringify(report.divergence)}`);
    const events = await eventsOf(store, sessionId);
    const permuted = await storeOf(permutedSession(events, index + 1));
    const again = await replaySession(permuted, sessionId, undefined, { sha256: nodeSha256 });
    await permuted.close();
    if (!again.ok)
      throw new Error(`replay with permuted keys diverged: ${JSON.stringify(again.divergence)}`);
  } finally {
    await store.close();
  }
}

describe('malformed model output, fuzzed', () => {
  it(`${SESSIONS} sessions end, replay, and replay with the model's keys permuted`, async () => {
    let index = 0;
    await fc.assert(
      fc.asyncProperty(
        fc.array(turn, { minLength: 1, maxLength: 5 }).map(shortly),
        async (turns) => {
          index += 1;
          await fuzzedSession(turns, index);
        },
      ),
      {
        numRuns: SESSIONS,
        endOnFailure: true,
        // CORREX_FUZZ_SEED=<seed> and CORREX_FUZZ_PATH=<path>, from a failure's report, replay it.
        // CI runs one fixed seed, so a red run is a change of correx, never a draw.
        // Found counterexamples run first, every time: seed -610439842 path 289 was a finishing
        // call with empty arguments that the permutation rewrote to `{}` (a different answer,
        // not another key order).
        examples: [[shortly([{ toolCalls: [{ name: 'finish_change', argsRaw: '' }] }])]],
        ...(process.env.CORREX_FUZZ_SEED === undefined
          ? process.env.CI === 'true'
            ? { seed: 20261203 }
            : {}
          : { seed: Number(process.env.CORREX_FUZZ_SEED) }),
        ...(process.env.CORREX_FUZZ_PATH === undefined
          ? {}
          : { path: process.env.CORREX_FUZZ_PATH }),
      },
    );
  }, 600_000);
});
