import { createHash } from 'node:crypto';
import { linkSync, mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorldObservationSchema } from '../../core/toolintent/toolintent-events.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { createDiskWorldProbe } from './disk-world-probe.js';

const base = realpathSync(tempDir('correx-probe-'));
const ws = join(base, 'ws');
const out = join(base, 'out');
mkdirSync(join(ws, 'dir'), { recursive: true });
mkdirSync(out);
writeFileSync(join(ws, 'dir/f.txt'), 'hello');
writeFileSync(join(out, 'secret.txt'), 'secret');
symlinkSync('../out', join(ws, 'rel-link'));
symlinkSync(join(out, 'not-yet.txt'), join(ws, 'dangling'));
symlinkSync('chain-b', join(ws, 'chain-a'));
symlinkSync('dir/f.txt', join(ws, 'chain-b'));
symlinkSync('loop-b', join(ws, 'loop-a'));
symlinkSync('loop-a', join(ws, 'loop-b'));
linkSync(join(out, 'secret.txt'), join(ws, 'hard.txt'));
const probe = createDiskWorldProbe();
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('createDiskWorldProbe', () => {
  it('observes a regular file with its hash, size and link count', async () => {
    const observation = await probe.observe(join(ws, 'dir/f.txt'));
    expect(WorldObservationSchema.parse(observation)).toMatchObject({
      kind: 'file',
      realPath: join(ws, 'dir/f.txt'),
      sha256: sha('hello'),
      size: 5,
      linkCount: 1,
      linkTarget: null,
    });
  });

  it('resolves relative symlinks in the middle of a path, and chains of links', async () => {
    expect(await probe.observe(join(ws, 'rel-link/secret.txt'))).toMatchObject({
      kind: 'file',
      realPath: join(out, 'secret.txt'),
    });
    expect(await probe.observe(join(ws, 'chain-a'))).toMatchObject({
      kind: 'file',
      realPath: join(ws, 'dir/f.txt'),
      linkTarget: 'chain-b',
    });
  });

  it('reports where a dangling link or a missing path would land', async () => {
    expect(await probe.observe(join(ws, 'dangling'))).toMatchObject({
      kind: 'missing',
      realPath: join(out, 'not-yet.txt'),
      linkTarget: join(out, 'not-yet.txt'),
    });
    expect(await probe.observe(join(ws, 'rel-link/new/deeper.txt'))).toMatchObject({
      kind: 'missing',
      realPath: join(out, 'new/deeper.txt'),
    });
    expect(await probe.observe(join(ws, 'dir/f.txt/below'))).toMatchObject({
      kind: 'missing',
      realPath: join(ws, 'dir/f.txt/below'),
    });
  });

  it('survives symlink loops and sees hard links', async () => {
    expect((await probe.observe(join(ws, 'loop-a'))).kind).toBe('missing');
    expect((await probe.observe(join(ws, 'hard.txt'))).linkCount).toBe(2);
  });

  it('hashes only under the given roots when asked', async () => {
    const scoped = createDiskWorldProbe({ hashOnlyUnder: [ws] });
    expect((await scoped.observe(join(out, 'secret.txt'))).sha256).toBeNull();
    expect((await scoped.observe(join(ws, 'dir/f.txt'))).sha256).toBe(sha('hello'));
  });

  it('refuses relative paths and NUL bytes', async () => {
    await expect(probe.observe('relative')).rejects.toThrow(RangeError);
    await expect(probe.observe('/a\u0000b')).rejects.toThrow(RangeError);
  });
});
