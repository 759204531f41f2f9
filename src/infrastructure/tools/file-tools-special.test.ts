import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseWorkspacePolicy } from '../../core/policies/workspace-policy.js';
import { pathsToObserve } from '../../core/toolintent/assess-tool-call.js';
import { createAssessmentPolicy } from '../../core/toolintent/default-rules.js';
import type { WorldObservation } from '../../core/toolintent/toolintent-events.js';
import type { WorldProbe } from '../../core/toolintent/world-probe.js';
import {
  toolSessionView,
  toolSessionProjection,
} from '../../core/toolintent/tool-session-projection.js';
import { builtinTools } from '../../core/tools/builtin-tools.js';
import { toolReceipt } from '../../core/tools/tool-events.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { createDiskWorldProbe } from '../world-probe/disk-world-probe.js';
import { createBuiltinToolExecutors } from './builtin-tool-executors.js';
import { toolReceiptOf, executeToolCall, type ToolExecutionContext } from './tool-executor.js';
import {
  moveVerifiedFile,
  readRegularFileInside,
  readVerifiedFile,
  writeVerifiedFile,
} from './verified-directory.js';
import { layeredGet, layeredRecord } from '../../core/base/layered-record.js';

const base = realpathSync(tempDir('correx-special-'));
const workspace = join(base, 'ws');
const outside = join(base, 'outside');
mkdirSync(join(workspace, 'src'), { recursive: true });
mkdirSync(outside);
const roots = { workspaceRoot: workspace, homeDirectory: base };
const policy = createAssessmentPolicy(parseWorkspacePolicy({}));
const executors = createBuiltinToolExecutors({});

/** Observes what the assessment would with `probe`, and returns the execution context. */
async function observe(
  tool: string,
  args: Record<string, unknown>,
  probe: WorldProbe = createDiskWorldProbe(),
): Promise<ToolExecutionContext> {
  const definition = builtinTools.find((candidate) => candidate.name === tool)!;
  const view = toolSessionView(toolSessionProjection.initial(), roots);
  const observations: Record<string, WorldObservation> = {};
  for (const path of pathsToObserve(policy, view, { callId: 'c', tool: definition, args }))
    observations[path] = await probe.observe(path);
  return { callId: 'c', roots, observations: layeredRecord(observations), egressAllowlist: [] };
}

async function run(tool: string, args: Record<string, unknown>, context?: ToolExecutionContext) {
  const execution = await executeToolCall(
    executors,
    tool,
    args,
    context ?? (await observe(tool, args)),
  );
  // The executor says what it did; the envelope is the runner's, as a session records it.
  const receipt = toolReceiptOf({ callId: 'c', tool, args }, execution);
  expect(() => toolReceipt.schema.parse(receipt)).not.toThrow();
  return receipt;
}

describe('special files', () => {
  it('read_file of a FIFO with no writer is refused with a receipt, not a hang', async () => {
    execFileSync('mkfifo', [join(workspace, 'src/pipe')]);
    const receipt = await run('read_file', { path: 'src/pipe' });
    expect(receipt).toMatchObject({
      outcome: 'refused',
      error: expect.stringContaining('FIFO (named pipe), not a regular file'),
    });
  });

  it('write_file and edit_file refuse a FIFO, copy_file refuses a socket source', async () => {
    execFileSync('mkfifo', [join(workspace, 'src/wpipe')]);
    expect(await run('write_file', { path: 'src/wpipe', content: 'x' })).toMatchObject({
      outcome: 'refused',
    });
    expect(await run('edit_file', { path: 'src/wpipe', search: 'a', replace: 'b' })).toMatchObject({
      outcome: 'refused',
    });
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(join(workspace, 'src/sock'), resolve));
    try {
      const copy = await run('copy_file', { source: 'src/sock', destination: 'src/copy' });
      expect(copy).toMatchObject({ outcome: 'refused', error: expect.stringContaining('socket') });
    } finally {
      server.close();
    }
  });

  it('a device is refused', async () => {
    const receipt = await run('read_file', { path: '/dev/zero' });
    expect(receipt).toMatchObject({ outcome: 'refused', error: expect.stringContaining('device') });
  });
});

describe('search reads', () => {
  it('a search tool reads only regular files that really lie inside the folder it walks', async () => {
    mkdirSync(join(workspace, 'walked/real'), { recursive: true });
    writeFileSync(join(workspace, 'walked/real/a.ts'), 'inside');
    writeFileSync(join(outside, 'a.ts'), 'OUTSIDE SECRET');
    symlinkSync(outside, join(workspace, 'walked/swapped'));
    execFileSync('mkfifo', [join(workspace, 'walked/real/pipe.ts')]);
    const root = join(workspace, 'walked');
    expect(String(await readRegularFileInside(join(root, 'real/a.ts'), root))).toBe('inside');
    // A folder swapped for a symlink after the walk: the descriptor's real path is outside.
    expect(await readRegularFileInside(join(root, 'swapped/a.ts'), root)).toBeNull();
    expect(await readRegularFileInside(join(root, 'real/pipe.ts'), root)).toBeNull();
  });
});

describe('the path holding (where /proc/self/fd is missing, e.g. macOS)', () => {
  const folder = join(workspace, 'held');
  it('writes, reads and moves through lstat-checked folders, creating missing ones', async () => {
    expect(await writeVerifiedFile(join(folder, 'n/e/w.txt'), 'new', 'path')).toBe(
      join(folder, 'n/e/w.txt'),
    );
    expect(String(await readVerifiedFile(join(folder, 'n/e/w.txt'), 'path'))).toBe('new');
    expect(await moveVerifiedFile(join(folder, 'n/e/w.txt'), join(folder, 'm/w.txt'), 'path')).toBe(
      join(folder, 'm/w.txt'),
    );
  });

  it('refuses a folder that is a symlink now, and a FIFO', async () => {
    symlinkSync(outside, join(folder, 'link'));
    await expect(writeVerifiedFile(join(folder, 'link/x.txt'), 'x', 'path')).rejects.toMatchObject({
      code: 'world_changed',
    });
    expect(existsSync(join(outside, 'x.txt'))).toBe(false);
    execFileSync('mkfifo', [join(folder, 'fifo')]);
    await expect(readVerifiedFile(join(folder, 'fifo'), 'path')).rejects.toMatchObject({
      code: 'special_file',
    });
  });
});

describe('time bound', () => {
  it('a file call whose work never settles ends with a timed_out receipt', async () => {
    const stuck: WorldProbe = { observe: () => new Promise(() => undefined) };
    const bounded = createBuiltinToolExecutors({ probe: stuck, timeBoundMs: 50 });
    writeFileSync(join(workspace, 'src/slow.txt'), 'slow');
    const context = await observe('read_file', { path: 'src/slow.txt' });
    const receipt = await executeToolCall(bounded, 'read_file', { path: 'src/slow.txt' }, context);
    expect(receipt).toMatchObject({
      outcome: 'timed_out',
      error: expect.stringContaining('did not finish within 50 ms'),
    });
  });
});

describe('an approved read outside the workspace', () => {
  it('succeeds although the assessment probe did not hash it, and the receipt holds its hash', async () => {
    writeFileSync(join(outside, 'notes.txt'), 'outside notes');
    const assessmentProbe = createDiskWorldProbe({ hashOnlyUnder: [workspace] });
    const context = await observe(
      'read_file',
      { path: join(outside, 'notes.txt') },
      assessmentProbe,
    );
    expect(layeredGet(context.observations, join(outside, 'notes.txt'))?.sha256).toBeNull();
    const receipt = await run('read_file', { path: join(outside, 'notes.txt') }, context);
    expect(receipt).toMatchObject({ outcome: 'succeeded', output: 'outside notes' });
    expect(receipt.files[0]?.before).toMatch(/^[0-9a-f]{64}$/);
  });

  it('still refuses it when it changed after assessment (size and mtime stand in for the hash)', async () => {
    writeFileSync(join(outside, 'moving.txt'), 'v1');
    const assessmentProbe = createDiskWorldProbe({ hashOnlyUnder: [workspace] });
    const context = await observe(
      'read_file',
      { path: join(outside, 'moving.txt') },
      assessmentProbe,
    );
    writeFileSync(join(outside, 'moving.txt'), 'version two');
    const receipt = await run('read_file', { path: join(outside, 'moving.txt') }, context);
    expect(receipt.outcome).toBe('world_changed');
  });
});

describe('names', () => {
  it('a path with a lone surrogate is refused at execution too', async () => {
    const args = { path: 'src/\ud800.ts', content: 'x' };
    const receipt = await run('write_file', args);
    expect(receipt).toMatchObject({
      outcome: 'refused',
      error: expect.stringContaining('lone UTF-16 surrogate'),
    });
  });
});
