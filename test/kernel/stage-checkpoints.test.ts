import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createSteppingClock } from '../../src/core/base/clock.js';
import { createCountingIdSource } from '../../src/core/base/id-source.js';
import type { CorrexEventStore } from '../../src/core/event-catalog.js';
import { runSession } from '../../src/core/kernel/index.js';
import { DEFAULT_NEVER_WRITABLE } from '../../src/core/policies/workspace-policy.js';
import { createBuiltinToolRunner } from '../../src/infrastructure/kernel/builtin-tool-runner.js';
import {
  createPreimageStore,
  preimageDirectory,
} from '../../src/infrastructure/sandbox/preimage-store.js';
import type { CliContext } from '../../src/interfaces/cli/cli-context.js';
import { runCli } from '../../src/interfaces/cli/program.js';
import { cliTestDefaults } from '../support/cli-test-context.js';
import { tempDir } from '../support/temp-dir.js';
import { availability, describeSandboxed } from '../sandbox/sandbox-support.js';
import {
  closeStoresAfterEach,
  eventsOf,
  expectReplayIdentical,
  livePorts,
  newClock,
  newIds,
  openStore,
  scenarioConfig,
  scenarioWorkspace,
  scriptedModel,
} from './kernel-harness.js';

const stores = closeStoresAfterEach();
const json = (value: unknown) => ({ text: JSON.stringify(value) });

/**
 * The StageCheckpointReconciler (flag `stage-checkpoints`) through plan → implement → verify →
 * review → rework → implement again, with real commands under bubblewrap: a checkpoint before
 * every stage attempt, the rework's start reconciled against the implement stage's earlier
 * checkpoint, replay byte for byte, and `correx undo --stage` putting back the exact bytes a
 * checkpoint names. Also corpus material (CORREX_GOLDEN_RECORD).
 */
describeSandboxed('stage checkpoints', () => {
  it('records a checkpoint at every stage boundary, reconciles the rework, replays, and undoes to a stage', async () => {
    const { workspace, storePath } = scenarioWorkspace({ 'keep.txt': 'kept\n' });
    const correxHome = join(realpathSync(tempDir('correx-checkpoint-home-')), 'correx');
    const store = openStore(storePath);
    stores.push(store);
    const model = scriptedModel([
      json({ summary: 'plan', steps: ['write out.txt'], files: [] }),
      { toolCalls: [{ name: 'exec', args: { command: "printf 'first\\n' > out.txt" } }] },
      json({ summary: 'wrote out.txt', filesChanged: ['out.txt'] }),
      json({ summary: 'checked', passed: true }),
      json({ verdict: 'rework', reviewedArtifact: '{{artifact:change}}', notes: ['say second'] }),
      {
        toolCalls: [{ name: 'exec', args: { command: "printf 'second\\n' > out.txt" } }],
      },
      json({ summary: 'rewrote out.txt', filesChanged: ['out.txt'] }),
      json({ summary: 'checked', passed: true }),
      json({ verdict: 'approved', reviewedArtifact: '{{artifact:change}}', notes: [] }),
    ]);
    const config = scenarioConfig({ sandbox: 'bubblewrap' });
    const tools = createBuiltinToolRunner({
      exec: {
        sandbox: { availability, neverWritable: [...DEFAULT_NEVER_WRITABLE] },
        preimages: createPreimageStore(preimageDirectory(correxHome)),
      },
    });
    const outcome = await runSession(
      {
        store,
        sessionId: 's-checkpoints',
        config,
        ports: livePorts(model, tools),
        clock: newClock(),
        ids: newIds(),
      },
      {
        type: 'start',
        task: 'Write out.txt',
        workspace,
        workflowId: 'default-coding',
        mode: 'auto',
      },
    );
    const events = await eventsOf(store, 's-checkpoints');
    expect(outcome.status, JSON.stringify(events.slice(-6).map((e) => e.payload))).toBe(
      'completed',
    );
    const out = join(workspace, 'out.txt');
    // A checkpoint right before every stage start, naming that start.
    const starts = events.filter((event) => event.payload.type === 'stage_started');
    expect(starts.map((event) => event.payload)).toHaveLength(7);
    for (const start of starts) {
      const { stageId, attempt } = start.payload as { stageId: string; attempt: number };
      const before = events.slice(0, start.sequence - 1).reverse();
      const boundary = before.find((event) => !event.payload.type.startsWith('stage_start_'));
      expect(boundary!.payload).toMatchObject({
        type: 'stage_checkpoint_recorded',
        stageId,
        attempt,
      });
    }
    const checkpoints = events.flatMap((event) =>
      event.payload.type === 'stage_checkpoint_recorded'
        ? [{ sequence: event.sequence, ...event.payload }]
        : [],
    );
    const implement = checkpoints.filter((checkpoint) => checkpoint.stageId === 'implement');
    expect(implement).toHaveLength(2);
    expect(implement[0]!.files).toEqual([]);
    const firstWrite = events.flatMap((event) =>
      event.payload.type === 'tool_receipt' ? event.payload.files : [],
    )[0]!;
    expect(implement[1]!.files).toEqual([
      { path: out, sha256: firstWrite.after, mode: firstWrite.modeAfter },
    ]);
    // The rework starts from the workspace as left, against implement's first checkpoint.
    const reconciled = events.flatMap((event) =>
      event.payload.type === 'stage_start_reconciled' ? [event.payload] : [],
    );
    expect(reconciled).toEqual([
      {
        type: 'stage_start_reconciled',
        stageId: 'implement',
        attempt: 1,
        reason: 'rework',
        basis: 'as_left',
        checkpointSequence: implement[0]!.sequence,
        changedSince: [out],
      },
      expect.objectContaining({ stageId: 'verify', changedSince: [out] }),
      expect.objectContaining({ stageId: 'review', changedSince: [out] }),
    ]);
    await expectReplayIdentical(store, 's-checkpoints', config);

    // Back to the rework's checkpoint: the bytes and mode the first implement left.
    const cli = cliOn(store, correxHome);
    expect(readFileSync(out, 'utf8')).toBe('second\n');
    expect(await cli.run('undo', 's-checkpoints', '--stage', 'implement')).toBe(0);
    expect(readFileSync(out, 'utf8')).toBe('first\n');
    expect(cli.out.at(-1)).toContain(`back to #${implement[1]!.sequence}`);
    // Back to before the plan: the file the session created is gone, the rest untouched.
    expect(await cli.run('undo', 's-checkpoints', '--stage', 'plan')).toBe(0);
    expect(existsSync(out)).toBe(false);
    expect(readFileSync(join(workspace, 'keep.txt'), 'utf8')).toBe('kept\n');
  });
});

function cliOn(store: CorrexEventStore, correxHome: string) {
  const out: string[] = [];
  const context: CliContext = {
    ...cliTestDefaults,
    version: '0',
    correxHome,
    defaultStore: 'memory',
    clock: createSteppingClock('2026-12-01T12:01:00.000Z', 1000),
    ids: createCountingIdSource('cli'),
    user: 'alice',
    openStores: async (location) => ({
      kind: 'memory',
      location,
      events: store,
      close: async () => {},
    }),
    migrateStore: async () => {
      throw new Error('not used');
    },
    out: (text) => out.push(text),
    err: (text) => out.push(text),
  };
  return { out, run: (...argv: string[]) => runCli(context, argv) };
}
