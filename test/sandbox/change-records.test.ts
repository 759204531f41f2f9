import { createHash } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_NEVER_WRITABLE } from '../../src/core/policies/workspace-policy.js';
import type { SandboxSettings } from '../../src/infrastructure/sandbox/confined-process.js';
import { createPreimageStore } from '../../src/infrastructure/sandbox/preimage-store.js';
import { createChangeRecorder } from '../../src/infrastructure/sandbox/workspace-changes.js';
import { tempDir } from '../support/temp-dir.js';
import { availability, execIn } from './sandbox-support.js';

/**
 * Change records of exec (issue #17) on real processes: the receipt lists what the command
 * created, modified, deleted, renamed or chmod-ed in the workspace, with hashes and modes, and
 * nothing for a file changed and restored. Runs under bubblewrap where this machine has it.
 */
const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const sandbox: SandboxSettings | undefined =
  availability.kind === 'bubblewrap'
    ? { availability, neverWritable: [...DEFAULT_NEVER_WRITABLE] }
    : undefined;

let fixture: { workspace: string; home: string };
beforeEach(() => {
  const base = realpathSync(tempDir('correx-changes-'));
  fixture = { workspace: join(base, 'ws'), home: join(base, 'home') };
  mkdirSync(join(fixture.workspace, '.git'), { recursive: true });
  mkdirSync(fixture.home);
  writeFileSync(join(fixture.workspace, 'a.txt'), 'a\n');
  writeFileSync(join(fixture.workspace, 'b.txt'), 'b\n');
  writeFileSync(join(fixture.workspace, 's.sh'), 'echo s\n');
  chmodSync(join(fixture.workspace, 's.sh'), 0o644);
  chmodSync(join(fixture.workspace, 'a.txt'), 0o644);
});
const ws = (path: string) => join(fixture.workspace, path);
const run = (command: string, timeoutMs?: number) =>
  execIn(
    fixture,
    { command, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
    sandbox === undefined ? {} : { sandbox },
  );

describe(`exec change records (${availability.kind})`, () => {
  it('records a created file', async () => {
    const receipt = await run('mkdir -p src && echo hi > src/new.txt');
    expect(receipt.files).toEqual([
      {
        path: ws('src/new.txt'),
        access: 'write',
        before: null,
        after: sha('hi\n'),
        modeBefore: null,
        modeAfter: expect.any(Number) as unknown,
      },
    ]);
  });

  it('records a modified and a deleted file', async () => {
    const receipt = await run('echo changed > a.txt && rm b.txt');
    expect(receipt.files).toEqual([
      expect.objectContaining({
        path: ws('a.txt'),
        access: 'write',
        before: sha('a\n'),
        after: sha('changed\n'),
        modeBefore: 0o644,
        modeAfter: 0o644,
      }),
      expect.objectContaining({
        path: ws('b.txt'),
        access: 'delete',
        before: sha('b\n'),
        after: null,
      }),
    ]);
  });

  it('records a rename as a delete and a create of the same bytes', async () => {
    const receipt = await run('mv b.txt c.txt');
    expect(receipt.files.map((f) => [f.path, f.access, f.before, f.after])).toEqual([
      [ws('b.txt'), 'delete', sha('b\n'), null],
      [ws('c.txt'), 'write', null, sha('b\n')],
    ]);
  });

  it('records a chmod: same bytes, another mode', async () => {
    const receipt = await run('chmod 755 s.sh');
    expect(receipt.files).toEqual([
      {
        path: ws('s.sh'),
        access: 'write',
        before: sha('echo s\n'),
        after: sha('echo s\n'),
        modeBefore: 0o644,
        modeAfter: 0o755,
      },
    ]);
  });

  it('records nothing for a file changed and restored to its old bytes', async () => {
    const receipt = await run("printf 'x' > a.txt && sleep 0.01 && printf 'a\\n' > a.txt");
    expect(receipt.outcome).toBe('succeeded');
    expect(readFileSync(ws('a.txt'), 'utf8')).toBe('a\n');
    expect(receipt.files).toEqual([]);
  });

  it('records what a command killed mid-write left behind', async () => {
    const receipt = await run(
      "printf 'partial' > k.txt && sleep 30 && printf 'rest' >> k.txt",
      1500,
    );
    expect(receipt.outcome).toBe('timed_out');
    expect(receipt.files).toEqual([
      expect.objectContaining({ path: ws('k.txt'), before: null, after: sha('partial') }),
    ]);
  });

  it('does not compare git’s own store', async () => {
    const receipt = await run('echo x > .git/packed-refs');
    expect(receipt.files).toEqual([]);
  });
});

describe('the change recorder', () => {
  it('hashes only what changed once warm, and says when a walk was cut short', async () => {
    const recorder = createChangeRecorder();
    const first = await recorder.before(fixture.workspace);
    writeFileSync(ws('a.txt'), 'a2\n');
    expect((await recorder.after(first)).files.map((f) => f.path)).toEqual([ws('a.txt')]);
    const second = await recorder.before(fixture.workspace);
    expect(await recorder.after(second)).toEqual({ files: [], complete: true });
    const small = createChangeRecorder({ limit: 2 });
    expect((await small.after(await small.before(fixture.workspace))).complete).toBe(false);
    recorder.close();
    small.close();
  });
});

describe('pre-images', () => {
  it('keeps the bytes a command overwrote or deleted, content-addressed and verified', async () => {
    const store = createPreimageStore(join(fixture.workspace, '..', 'preimages'));
    const recorder = createChangeRecorder({ preimages: store });
    const baseline = await recorder.before(fixture.workspace);
    writeFileSync(ws('a.txt'), 'overwritten\n');
    const [change] = (await recorder.after(baseline)).files;
    recorder.close();
    expect(change).toMatchObject({ before: sha('a\n'), after: sha('overwritten\n') });
    expect(store.get(change!.before!)?.toString()).toBe('a\n');
    expect(store.get(change!.after!)?.toString()).toBe('overwritten\n');
    // A blob altered on disk is never handed back.
    writeFileSync(join(store.directory, change!.before!.slice(0, 2), change!.before!), 'forged');
    expect(store.get(change!.before!)).toBeNull();
  });
});
