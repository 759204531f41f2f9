import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { CorrexError } from '../../core/base/correx-error.js';

/** The most bytes correx reads of a configuration file (harness.yaml, a workflow, a policy). */
export const MAX_CONFIG_FILE_BYTES = 4 * 1024 * 1024;

/** A file named to correx is larger than it reads: refused before a byte is parsed. */
export class FileTooLargeError extends CorrexError {
  constructor(what: string, path: string, size: number, maxBytes: number) {
    super(
      'file_too_large',
      `${what} ${path} is ${size} bytes; correx reads at most ${maxBytes} bytes of it`,
    );
  }
}

/** A file named to correx is a FIFO, socket, device or folder: refused, never opened for reading. */
export class NotARegularFileError extends CorrexError {
  constructor(what: string, path: string, kind: string) {
    super(
      'not_a_regular_file',
      `${what} ${path} is a ${kind}, not a regular file; correx refuses it`,
    );
  }
}

function kindOf(info: Stats): string | null {
  if (info.isFile()) return null;
  if (info.isFIFO()) return 'FIFO (named pipe)';
  if (info.isSocket()) return 'socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'device';
  if (info.isDirectory()) return 'folder';
  return 'special file';
}

/**
 * Reads a file a person or a repository named (a policy, a workflow, harness.yaml, a project's
 * package.json): opened without blocking, so a FIFO cannot hang the read; anything but a regular
 * file refused; at most `maxBytes` read, a larger file refused by its size before it is read
 * (and again if it grows while read). Errors of the open itself (ENOENT...) pass through.
 */
export async function readBoundedFile(
  path: string,
  options: { readonly maxBytes: number; readonly what: string },
): Promise<Buffer> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    const kind = kindOf(info);
    if (kind !== null) throw new NotARegularFileError(options.what, path, kind);
    if (info.size > options.maxBytes)
      throw new FileTooLargeError(options.what, path, info.size, options.maxBytes);
    // Read in chunks up to the bound, whatever the size said: a file may grow while it is read.
    const chunk = Buffer.alloc(64 * 1024);
    const parts: Buffer[] = [];
    let total = 0;
    for (;;) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) return Buffer.concat(parts, total);
      total += bytesRead;
      if (total > options.maxBytes)
        throw new FileTooLargeError(options.what, path, total, options.maxBytes);
      parts.push(Buffer.from(chunk.subarray(0, bytesRead)));
    }
  } finally {
    await handle.close();
  }
}
