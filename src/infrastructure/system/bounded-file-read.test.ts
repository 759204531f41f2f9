import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../../test/support/temp-dir.js';
import { readBoundedFile } from './bounded-file-read.js';

describe('readBoundedFile', () => {
  const dir = tempDir('correx-bounded-');
  const read = (path: string, maxBytes = 10) =>
    readBoundedFile(path, { maxBytes, what: 'the file' });

  it('reads a regular file up to the bound, and refuses one byte more by its size', async () => {
    writeFileSync(join(dir, 'ten'), '0123456789');
    expect((await read(join(dir, 'ten'))).toString()).toBe('0123456789');
    writeFileSync(join(dir, 'eleven'), '0123456789a');
    await expect(read(join(dir, 'eleven'))).rejects.toMatchObject({
      code: 'file_too_large',
      message: `the file ${join(dir, 'eleven')} is 11 bytes; correx reads at most 10 bytes of it`,
    });
  });

  it('refuses a FIFO without blocking, a device and a folder, and passes ENOENT through', async () => {
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    await expect(read(join(dir, 'pipe'))).rejects.toMatchObject({
      code: 'not_a_regular_file',
      message: expect.stringContaining('is a FIFO (named pipe), not a regular file'),
    });
    await expect(read('/dev/zero')).rejects.toMatchObject({ code: 'not_a_regular_file' });
    mkdirSync(join(dir, 'folder'));
    await expect(read(join(dir, 'folder'))).rejects.toMatchObject({
      message: expect.stringContaining('is a folder'),
    });
    await expect(read(join(dir, 'absent'))).rejects.toMatchObject({ code: 'ENOENT' });
  });
});
