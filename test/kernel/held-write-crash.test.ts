import { readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CorrexEvent } from '../../src/core/event-catalog.js';
import { planUndo, recordedChanges } from '../../src/core/kernel/index.js';
import { FAULT_POINTS } from '../../src/infrastructure/system/fault-point.js';
import { LINK_WRITES_SCRIPT, WRITES_SCRIPT } from './crash-script.js';
import { killWhenPaused, runChild } from './crash-process.js';
import { eventsOf, expectReplayIdentical, openStore, scenarioWorkspace } from './kernel-harness.js';
import { resumeOnce } from './resume-once.js';

/** A last-resort bound for a test of real processes on a busy machine: they wait for states, never for time. */
const OUTER_BOUND_MS = 300_000;

/*
 * Issue #33.4: a `kill -9` where a file write's receipt was once held (after the write ran,
 * until the next write's intent, a window as long as the next call's probe). Each case kills
 * the real session process as it observes the next write's target (a recorded point, not a
 * delay), changes the workspace as the trial did, resumes, and checks what the log says.
 */

const ofCall = (events: readonly CorrexEvent[], type: string, callId: string) =>
  events.filter(
    (event) =>
      event.payload.type === type && (event.payload as { callId?: string }).callId === callId,
  );

/** A workspace with link.txt → real.txt (which holds `old`), and other.txt beside it. */
function linkWorkspace() {
  const made = scenarioWorkspace({ 'real.txt': 'old\n', 'other.txt': 'not a target\n' });
  symlinkSync('real.txt', join(made.workspace, 'link.txt'));
  return made;
}

/** Runs `script` in a child killed as it first observes d.txt (the second write's target). */
async function killBeforeSecondWrite(storePath: string, workspace: string, script: string) {
  const first = await runChild([storePath, workspace, 's-held-write'], {
    CRASH_SCRIPT: script,
    CRASH_AT_PROBE_OF: 'd.txt',
    // Time read from a stepping clock: a busy machine never decides what the runner may hold.
    CRASH_CLOCK: 'stepping',
  });
  expect(first.signal).toBe('SIGKILL');
}

describe('a kill -9 after a file write, before the next write starts (issue #33.4)', () => {
  it(
    'keeps the change record: diff lists the file and undo puts it back',
    async () => {
      const { workspace, storePath } = scenarioWorkspace({});
      await killBeforeSecondWrite(storePath, workspace, 'writes');
      const store = openStore(storePath);
      try {
        const write = 'implement.1.1.1';
        // The write's receipt is in the log before the process died: nothing to read back.
        const before = await eventsOf(store, 's-held-write');
        expect(ofCall(before, 'tool_receipt', write)).toHaveLength(1);
        const { config, done } = resumeOnce(store, 's-held-write', WRITES_SCRIPT);
        expect((await done).status).toBe('completed');
        const events = await eventsOf(store, 's-held-write');
        expect(ofCall(events, 'tool_call_interrupted', write)).toHaveLength(0);
        const c = join(workspace, 'c.txt');
        expect(
          recordedChanges(events).flatMap((change) => change.files.map((f) => f.path)),
        ).toEqual([c, join(workspace, 'd.txt')]);
        const undo = planUndo(events);
        expect(undo.ok && undo.steps.find((step) => step.path === c)).toMatchObject({
          path: c,
          restore: null,
        });
        await expectReplayIdentical(store, 's-held-write', config);
      } finally {
        await store.close();
      }
    },
    OUTER_BOUND_MS,
  );

  it(
    'keeps the real target of a write through a symlink: the claim of the real file holds',
    async () => {
      const { workspace, storePath } = linkWorkspace();
      await killBeforeSecondWrite(storePath, workspace, 'link');
      const store = openStore(storePath);
      try {
        const { config, done } = resumeOnce(store, 's-held-write', LINK_WRITES_SCRIPT, 'resume', 2);
        expect((await done).status).toBe('completed');
        const events = await eventsOf(store, 's-held-write');
        const real = join(workspace, 'real.txt');
        expect(readFileSync(real, 'utf8')).toBe('through the link\n');
        expect(recordedChanges(events).map((change) => change.files[0]!.path)).toContain(real);
        // The stage's claim "changed real.txt" was checked against the log and held, first time.
        expect(events.map((event) => event.payload.type)).not.toContain('validation_failed');
        await expectReplayIdentical(store, 's-held-write', config);
      } finally {
        await store.close();
      }
    },
    OUTER_BOUND_MS,
  );

  it(
    'never writes again through a link pointed elsewhere before resume',
    async () => {
      const { workspace, storePath } = linkWorkspace();
      await killBeforeSecondWrite(storePath, workspace, 'link');
      const link = join(workspace, 'link.txt');
      rmSync(link);
      symlinkSync('other.txt', link);
      const store = openStore(storePath);
      try {
        const { config, done } = resumeOnce(store, 's-held-write', LINK_WRITES_SCRIPT, 'resume', 2);
        expect((await done).status).toBe('completed');
        expect(readFileSync(join(workspace, 'other.txt'), 'utf8')).toBe('not a target\n');
        expect(readFileSync(join(workspace, 'real.txt'), 'utf8')).toBe('through the link\n');
        const events = await eventsOf(store, 's-held-write');
        const write = 'implement.1.2.1';
        expect(ofCall(events, 'tool_call_started', write)).toHaveLength(1);
        expect(ofCall(events, 'tool_call_interrupted', write)).toHaveLength(0);
        await expectReplayIdentical(store, 's-held-write', config);
      } finally {
        await store.close();
      }
    },
    OUTER_BOUND_MS,
  );

  it(
    "never overwrites a person's edit made before resume",
    async () => {
      const { workspace, storePath } = scenarioWorkspace({});
      await killBeforeSecondWrite(storePath, workspace, 'writes');
      const c = join(workspace, 'c.txt');
      writeFileSync(c, 'edited by a person\n');
      const store = openStore(storePath);
      try {
        const { config, done } = resumeOnce(store, 's-held-write', WRITES_SCRIPT);
        expect((await done).status).toBe('completed');
        expect(readFileSync(c, 'utf8')).toBe('edited by a person\n');
        const events = await eventsOf(store, 's-held-write');
        expect(ofCall(events, 'tool_call_started', 'implement.1.1.1')).toHaveLength(1);
        await expectReplayIdentical(store, 's-held-write', config);
      } finally {
        await store.close();
      }
    },
    OUTER_BOUND_MS,
  );
});

/*
 * The window that remains for every call (killed inside the write, its intent recorded and its
 * receipt not): resume reads the target back, and a target changed since is asked about.
 */
describe('a kill -9 inside a file write, then the target changed before resume', () => {
  async function killInsideFirstWrite(storePath: string, workspace: string, script: string) {
    const first = await killWhenPaused(
      [storePath, workspace, 's-in-write'],
      { CRASH_SCRIPT: script },
      FAULT_POINTS.writeContentPending,
      dirname(storePath),
    );
    expect(first.signal).toBe('SIGKILL');
  }

  it(
    'asks a person instead of writing over an edit made since (write_file is idempotent)',
    async () => {
      const { workspace, storePath } = scenarioWorkspace({});
      await killInsideFirstWrite(storePath, workspace, 'writes');
      const c = join(workspace, 'c.txt');
      writeFileSync(c, 'edited by a person\n');
      const store = openStore(storePath);
      try {
        const { config, done } = resumeOnce(store, 's-in-write', WRITES_SCRIPT);
        const outcome = await done;
        expect(outcome.waiting).toMatchObject({ kind: 'approval', callId: 'implement.1.1.1' });
        expect(readFileSync(c, 'utf8')).toBe('edited by a person\n');
        const events = await eventsOf(store, 's-in-write');
        expect(ofCall(events, 'tool_call_classified', 'implement.1.1.1')[0]?.payload).toMatchObject(
          {
            classification: 'unknown',
            action: 'ask',
          },
        );
        await expectReplayIdentical(store, 's-in-write', config);
      } finally {
        await store.close();
      }
    },
    OUTER_BOUND_MS,
  );

  it(
    'asks a person instead of writing through a link pointed elsewhere since',
    async () => {
      const { workspace, storePath } = linkWorkspace();
      // The first write is link.txt's (the read before it writes nothing).
      await killInsideFirstWrite(storePath, workspace, 'link');
      const link = join(workspace, 'link.txt');
      rmSync(link);
      symlinkSync('other.txt', link);
      const store = openStore(storePath);
      try {
        const { config, done } = resumeOnce(store, 's-in-write', LINK_WRITES_SCRIPT, 'resume', 2);
        const outcome = await done;
        expect(outcome.waiting).toMatchObject({ kind: 'approval', callId: 'implement.1.2.1' });
        expect(readFileSync(join(workspace, 'other.txt'), 'utf8')).toBe('not a target\n');
        expect(readFileSync(join(workspace, 'real.txt'), 'utf8')).toBe('old\n');
        await expectReplayIdentical(store, 's-in-write', config);
      } finally {
        await store.close();
      }
    },
    OUTER_BOUND_MS,
  );
});
