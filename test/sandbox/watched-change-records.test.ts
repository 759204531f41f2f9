import { createHash } from 'node:crypto';
import {
  linkSync,
  mkdirSync,
  realpathSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_NEVER_WRITABLE } from '../../src/core/policies/workspace-policy.js';
import type { SandboxSettings } from '../../src/infrastructure/sandbox/confined-process.js';
import {
  createChangeRecorder,
  type ChangeRecorder,
} from '../../src/infrastructure/sandbox/workspace-changes.js';
import { createExecExecutor } from '../../src/infrastructure/tools/exec-tool.js';
import { createDiskWorldProbe } from '../../src/infrastructure/world-probe/disk-world-probe.js';
import { tempDir } from '../support/temp-dir.js';
import { availability } from './sandbox-support.js';
import { inotifyIsComplete } from '../../src/infrastructure/sandbox/inotify-support.js';
import { layeredRecord } from '../../src/core/base/layered-record.js';

/**
 * The change recorder once warm narrows its walks to the directories inotify reported (issue
 * #17). These prove the narrowing never loses what a whole walk would find: changes made by
 * hand between commands stay out of the next command's record, writes through another hard
 * link, new, moved and replaced directories, two commands at once, and an inotify queue
 * overflow (which Node does not report) all come out as a pair of whole walks would have.
 */
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
let workspace: string;
let home: string;
let recorder: ChangeRecorder;
beforeEach(() => {
  const base = realpathSync(tempDir('correx-watched-'));
  workspace = join(base, 'ws');
  home = join(base, 'home');
  mkdirSync(join(workspace, 'src'), { recursive: true });
  mkdirSync(home);
  writeFileSync(join(workspace, 'a.txt'), 'a\n');
  writeFileSync(join(workspace, 'src', 'b.txt'), 'b\n');
  recorder = createChangeRecorder();
});
afterEach(() => recorder.close());
const ws = (path: string) => join(workspace, path);
/** One command's record, the command being `change` (run in this process). */
const recordOf = async (change: () => void) => {
  const baseline = await recorder.before(workspace);
  change();
  return recorder.after(baseline);
};
const paths = (record: { files: { path: string }[] }) => record.files.map((file) => file.path);

describe('the watching change recorder', () => {
  it('keeps a change made between two commands out of the next one’s record', async () => {
    await recordOf(() => writeFileSync(ws('a.txt'), 'first\n'));
    writeFileSync(ws('src/b.txt'), 'by hand\n'); // between commands
    const second = await recordOf(() => writeFileSync(ws('a.txt'), 'second\n'));
    expect(second.files).toEqual([
      expect.objectContaining({
        path: ws('a.txt'),
        before: sha('first\n'),
        after: sha('second\n'),
      }),
    ]);
  });

  it('sees a write through a hard link in another directory', async () => {
    linkSync(ws('a.txt'), ws('src/link.txt'));
    await recordOf(() => undefined); // warm
    const record = await recordOf(() => writeFileSync(ws('src/link.txt'), 'via link\n'));
    expect(paths(record)).toEqual([ws('a.txt'), ws('src/link.txt')]);
    expect(record.files[0]).toMatchObject({ before: sha('a\n'), after: sha('via link\n') });
  });

  it('walks directories created, moved and replaced by a command', async () => {
    await recordOf(() => undefined);
    const created = await recordOf(() => {
      mkdirSync(ws('x/y/z'), { recursive: true });
      writeFileSync(ws('x/y/z/deep.txt'), 'deep\n');
    });
    expect(paths(created)).toEqual([ws('x/y/z/deep.txt')]);
    const moved = await recordOf(() => renameSync(ws('x'), ws('moved')));
    expect(moved.files.map((file) => [file.path, file.access])).toEqual([
      [ws('moved/y/z/deep.txt'), 'write'],
      [ws('x/y/z/deep.txt'), 'delete'],
    ]);
    // Replaced behind the record's back, then changed inside: the new directory is watched.
    const replaced = await recordOf(() => {
      rmSync(ws('src'), { recursive: true });
      mkdirSync(ws('src'));
      writeFileSync(ws('src/b.txt'), 'new b\n');
    });
    expect(replaced.files).toEqual([
      expect.objectContaining({ path: ws('src/b.txt'), before: sha('b\n'), after: sha('new b\n') }),
    ]);
    const inside = await recordOf(() => writeFileSync(ws('src/b.txt'), 'newer b\n'));
    expect(paths(inside)).toEqual([ws('src/b.txt')]);
  });

  it('gives two commands running at once everything that changed while each ran', async () => {
    await recordOf(() => undefined);
    const first = await recorder.before(workspace);
    writeFileSync(ws('a.txt'), 'during first\n');
    const second = await recorder.before(workspace);
    writeFileSync(ws('src/b.txt'), 'during both\n');
    expect(paths(await recorder.after(first))).toEqual([ws('a.txt'), ws('src/b.txt')]);
    writeFileSync(ws('a.txt'), 'during second\n');
    const secondRecord = await recorder.after(second);
    expect(secondRecord.files).toEqual([
      expect.objectContaining({ path: ws('a.txt'), before: sha('during first\n') }),
      expect.objectContaining({ path: ws('src/b.txt'), before: sha('b\n') }),
    ]);
  });

  it('finds a change whose event an overflowing inotify queue dropped', async () => {
    // More events than the kernel queues (16,384 by default), made without letting the event
    // loop read any (the two names alternate, so none merges with the one before): the change
    // after them has no event, only a whole walk sees it.
    mkdirSync(ws('many'));
    writeFileSync(ws('many/1'), '');
    writeFileSync(ws('many/2'), '');
    await recordOf(() => undefined);
    const record = await recordOf(() => {
      for (let index = 0; index < 17_000; index++) {
        const at = new Date(1_700_000_000_000 + index * 1000);
        utimesSync(ws(`many/${1 + (index % 2)}`), at, at);
      }
      writeFileSync(ws('src/b.txt'), 'after the flood\n');
    });
    expect(paths(record)).toEqual([ws('src/b.txt')]);
  });
});

describe('where inotify is trusted', () => {
  it('watches only local file systems on Linux; elsewhere every sync walks', () => {
    expect(inotifyIsComplete('/proc')).toBe(false); // procfs changes come from the kernel, unreported
    expect(inotifyIsComplete(join(workspace, 'missing'))).toBe(false);
  });
});

describe('exec with one warm recorder', () => {
  const sandbox: SandboxSettings | undefined =
    availability.kind === 'bubblewrap'
      ? { availability, neverWritable: [...DEFAULT_NEVER_WRITABLE] }
      : undefined;
  it(`records each command’s own changes, not a hand edit between them (${availability.kind})`, async () => {
    const executor = createExecExecutor({
      probe: createDiskWorldProbe(),
      changes: recorder,
      ...(sandbox === undefined ? {} : { sandbox }),
    });
    const exec = (command: string, callId: string) =>
      executor.execute(
        { command },
        {
          callId,
          roots: { workspaceRoot: workspace, homeDirectory: home },
          observations: layeredRecord(),
          egressAllowlist: [],
        },
      );
    expect(paths(await exec('echo one > src/one.txt', 'c1'))).toEqual([ws('src/one.txt')]);
    writeFileSync(ws('a.txt'), 'by hand\n');
    const second = await exec('echo two >> src/one.txt && rm src/b.txt', 'c2');
    expect(second.files.map((file) => [file.path, file.access, file.before])).toEqual([
      [ws('src/b.txt'), 'delete', sha('b\n')],
      [ws('src/one.txt'), 'write', sha('one\n')],
    ]);
  });
});
