import { spawn, type ChildProcess } from 'node:child_process';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  realpathSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseWorkspacePolicy } from '../../core/policies/workspace-policy.js';
import { assessToolCall, pathsToObserve } from '../../core/toolintent/assess-tool-call.js';
import { createAssessmentPolicy } from '../../core/toolintent/default-rules.js';
import type { WorldObservation } from '../../core/toolintent/toolintent-events.js';
import {
  toolSessionView,
  toolSessionProjection,
} from '../../core/toolintent/tool-session-projection.js';
import { builtinTools } from '../../core/tools/builtin-tools.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { createDiskWorldProbe } from '../world-probe/disk-world-probe.js';
import { createBuiltinToolExecutors } from './builtin-tool-executors.js';
import { executeToolCall, type ToolExecutionContext } from './tool-executor.js';
import { layeredRecord } from '../../core/base/layered-record.js';

const base = realpathSync(tempDir('correx-race-'));
const workspace = join(base, 'ws');
const outside = join(base, 'outside');
mkdirSync(join(workspace, 'src/d'), { recursive: true });
mkdirSync(join(workspace, 'parked'));
mkdirSync(outside);
const roots = { workspaceRoot: workspace, homeDirectory: base };
const probe = createDiskWorldProbe();
const policy = createAssessmentPolicy(parseWorkspacePolicy({}));
const executors = createBuiltinToolExecutors({});

/**
 * A separate process flips `src/d` between a real folder and a symlink to a folder outside the
 * workspace, as another session's sandboxed command could. It never writes into `outside`.
 */
function startFlipper(): ChildProcess {
  const script = `
    const fs = require('node:fs');
    const [d, outside, parked] = process.argv.slice(1);
    fs.mkdirSync(parked + '/d', { recursive: true });
    fs.rmdirSync(parked + '/d');
    for (;;) {
      try { fs.renameSync(d, parked + '/d'); } catch {}
      try { fs.symlinkSync(outside, d); } catch {}
      try { fs.unlinkSync(d); } catch {}
      try { fs.renameSync(parked + '/d', d); } catch {}
    }`;
  return spawn(
    process.execPath,
    ['-e', script, join(workspace, 'src/d'), outside, join(workspace, 'parked')],
    { stdio: 'ignore' },
  );
}

/** Observes and assesses as the kernel does; the context to execute with, or null when not allowed. */
async function observeFor(tool: string, args: Record<string, unknown>) {
  const definition = builtinTools.find((candidate) => candidate.name === tool)!;
  const call = { callId: 'c', tool: definition, args };
  const initial = toolSessionProjection.initial();
  const observations: Record<string, WorldObservation> = {};
  for (const path of pathsToObserve(policy, toolSessionView(initial, roots), call))
    observations[path] = await probe.observe(path);
  // Every source was read before, so read-before-write does not stand in the way.
  const reads = Object.fromEntries(
    Object.entries(observations)
      .filter(([, seen]) => seen.sha256 !== null)
      .map(([path, seen]) => [path, seen.sha256 ?? '']),
  );
  const view = toolSessionView(
    { ...initial, observations: layeredRecord(observations), reads: layeredRecord(reads) },
    roots,
  );
  const assessment = assessToolCall(policy, view, call);
  const context: ToolExecutionContext = {
    callId: 'c',
    roots,
    observations: layeredRecord(observations),
    egressAllowlist: [],
  };
  return { context, verdict: assessment.verdict, codes: assessment.findings.map((f) => f.code) };
}

/** Every file and folder under `dir`, relative. */
function listAll(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

describe('writing tools under a racing parent-folder swap', () => {
  let flipper: ChildProcess | undefined;
  afterAll(() => flipper?.kill('SIGKILL'));

  it('write, copy and move (one path for every writing tool) never put bytes outside, and receipts say where they went', async () => {
    writeFileSync(join(workspace, 'seed.txt'), 'seed');
    flipper = startFlipper();
    // The flipper is running once the folder has been seen as a link (a state, not a delay).
    while (!lstatSync(join(workspace, 'src/d'), { throwIfNoEntry: false })?.isSymbolicLink())
      await new Promise((resolve) => setTimeout(resolve, 5));
    const outcomes: Record<string, number> = {};
    const raced = () => (outcomes.world_changed ?? 0) + (outcomes.symlink_escape ?? 0);
    // At least 150 rounds, and on until some call met the swap: how often one does depends on
    // how the two processes are scheduled, which a busy machine changes.
    for (let attempt = 0; attempt < 150 || (raced() === 0 && attempt < 20_000); attempt += 1) {
      const calls: [string, Record<string, unknown>][] = [
        ['write_file', { path: `src/d/g${attempt}.ts`, content: `g${attempt}` }],
        ['write_file', { path: `src/d/e${attempt}/f.ts`, content: `f${attempt}` }],
        ['copy_file', { source: 'seed.txt', destination: `src/d/c${attempt}/copy.txt` }],
        ['move_file', { source: `m${attempt}.txt`, destination: `src/d/m${attempt}/m.txt` }],
      ];
      writeFileSync(join(workspace, `m${attempt}.txt`), 'move me');
      for (const [tool, args] of calls) {
        const { context, verdict, codes } = await observeFor(tool, args);
        if (verdict !== 'ALLOW') {
          for (const code of codes) outcomes[code] = (outcomes[code] ?? 0) + 1;
          continue;
        }
        const receipt = await executeToolCall(executors, tool, args, context);
        outcomes[receipt.outcome] = (outcomes[receipt.outcome] ?? 0) + 1;
        for (const file of receipt.files) {
          if (file.access === 'write') expect(file.path.startsWith(`${workspace}/`)).toBe(true);
        }
      }
    }
    flipper.kill('SIGKILL');
    expect(listAll(outside)).toEqual([]);
    // The race was real: some calls met a swapped folder (at assessment or at execution).
    expect(raced()).toBeGreaterThan(0);
  }, 120_000);

  it('a succeeded write receipt names the file that holds the bytes', async () => {
    const args = { path: 'src/plain/x.ts', content: 'x' };
    const receipt = await executeToolCall(
      executors,
      'write_file',
      args,
      (await observeFor('write_file', args)).context,
    );
    expect(receipt.outcome).toBe('succeeded');
    expect(receipt.files[0]?.path).toBe(join(workspace, 'src/plain/x.ts'));
    expect(readFileSync(receipt.files[0]!.path, 'utf8')).toBe('x');
  });
});
