import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  readdirSync,
  readFileSync,
  realpathSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { writeVerifiedFile, type FolderHolding } from './verified-directory.js';

const base = realpathSync(tempDir('correx-atomic-'));

/** The temporary files a write left behind in `folder` (none, unless a writer was killed). */
function leftovers(folder: string): string[] {
  return readdirSync(folder).filter((name) => name.includes('.correx-write-'));
}

/** A pid that is surely gone: a process that already ran and was reaped. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe.each<FolderHolding>(['descriptor', 'path'])('an atomic write (%s holding)', (holding) => {
  const folder = join(base, holding);

  it('keeps the mode of the file it replaces, and leaves no temporary file', async () => {
    const target = join(folder, 'script.sh');
    await writeVerifiedFile(target, '#!/bin/sh\necho one\n', holding);
    chmodSync(target, 0o751);
    await writeVerifiedFile(target, '#!/bin/sh\necho two\n', holding);
    expect(readFileSync(target, 'utf8')).toBe('#!/bin/sh\necho two\n');
    expect(statSync(target).mode & 0o7777).toBe(0o751);
    expect(leftovers(folder)).toEqual([]);
  });

  it('writes a read-only file it may replace, keeping it read-only', async () => {
    const target = join(folder, 'frozen.txt');
    await writeVerifiedFile(target, 'one', holding);
    chmodSync(target, 0o444);
    await writeVerifiedFile(target, 'two', holding);
    expect(readFileSync(target, 'utf8')).toBe('two');
    expect(statSync(target).mode & 0o7777).toBe(0o444);
  });

  it('removes a temporary file left by a writer killed mid-write, not one of a live writer', async () => {
    const target = join(folder, 'notes.txt');
    const abandoned = join(folder, `.notes.txt.correx-write-${await deadPid()}-00aa11`);
    const live = join(folder, `.notes.txt.correx-write-${process.ppid}-00bb22`);
    const other = join(folder, `.other.txt.correx-write-${await deadPid()}-00cc33`);
    for (const path of [abandoned, live, other]) writeFileSync(path, 'half');
    await writeVerifiedFile(target, 'whole', holding);
    expect(existsSync(abandoned)).toBe(false);
    // Still being written by a live process; and a write to notes.txt leaves other names alone.
    expect(existsSync(live)).toBe(true);
    expect(existsSync(other)).toBe(true);
    expect(readFileSync(target, 'utf8')).toBe('whole');
  });

  it('leaves the old bytes and no temporary file when the target cannot be replaced', async () => {
    const target = join(folder, 'a-folder');
    await writeVerifiedFile(join(target, 'inside.txt'), 'x', holding);
    await expect(writeVerifiedFile(target, 'y', holding)).rejects.toMatchObject({
      code: 'special_file',
    });
    expect(leftovers(folder).filter((name) => name.startsWith('.a-folder'))).toEqual([]);
  });
});
