import { constants, existsSync, type Stats } from 'node:fs';
import { randomBytes } from 'node:crypto';
import {
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  realpath,
  rename,
  unlink,
  type FileHandle,
} from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { CorrexError } from '../../core/base/correx-error.js';
import { FAULT_POINTS, faultPoint } from '../system/fault-point.js';
import { WorldChangedError } from './tool-executor.js';

/**
 * openat(2)-style file access for the file tools. Node has no `openat`, but on Linux
 * `/proc/self/fd/<n>/<name>` resolves `<name>` inside the very directory descriptor `n` holds, so a
 * path is walked one component at a time from `/`, each folder opened with O_NOFOLLOW and kept
 * open while the next is opened inside it. A folder swapped for a symlink at any depth, at any
 * moment, makes the walk fail instead of leading the bytes elsewhere; the receipt then names the
 * descriptor's real path, which is where the bytes went.
 */

const DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;

/** The file tools work on regular files only; a FIFO, socket or device is refused, never opened for I/O. */
export class SpecialFileError extends CorrexError {
  constructor(path: string, what: string) {
    super('special_file', `${path} is a ${what}, not a regular file; the file tools refuse it`);
  }
}

/**
 * How folders are held: `descriptor` (Linux procfs: every name is taken inside an open folder
 * descriptor, no window at all) or `path` (elsewhere, macOS: each component is lstat-checked
 * and the folder's real path verified again after the operation, which narrows the window to
 * the moments between those checks and reports a move it sees instead of hiding it).
 */
export type FolderHolding = 'descriptor' | 'path';

let detected: FolderHolding | undefined;

/** `descriptor` where `/proc/self/fd` resolves folder descriptors, else `path`. */
export function defaultFolderHolding(): FolderHolding {
  detected ??= process.platform === 'linux' && existsSync('/proc/self/fd') ? 'descriptor' : 'path';
  return detected;
}

function errorCode(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error ? String(error.code) : undefined;
}

function describeSpecial(info: Stats): string | null {
  if (info.isFile()) return null;
  if (info.isFIFO()) return 'FIFO (named pipe)';
  if (info.isSocket()) return 'socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'device';
  if (info.isDirectory()) return 'folder';
  if (info.isSymbolicLink()) return 'symlink';
  return 'special file';
}

/** A folder held open by descriptor, reached without following any symlink. */
export type VerifiedDirectory = {
  /** The path that names `name` inside this very folder, whatever happens to its path meanwhile. */
  inside(name: string): string;
  /** Where the folder really is now (the kernel's path of the descriptor). */
  realPath(): Promise<string>;
  /** Flushes the folder's entries (a rename inside it) to disk. */
  sync(): Promise<void>;
  close(): Promise<void>;
};

function wrap(handle: FileHandle): VerifiedDirectory {
  return {
    inside: (name) => `/proc/self/fd/${handle.fd}/${name}`,
    realPath: () => readlink(`/proc/self/fd/${handle.fd}`),
    sync: () => handle.sync(),
    close: () => handle.close(),
  };
}

/**
 * Opens the folder at the absolute, symlink-free `realDirectory`, creating missing folders when
 * `create` is set. Any component that is now a symlink or not a folder is a WorldChangedError.
 */
export async function openVerifiedDirectory(
  realDirectory: string,
  options: { readonly create: boolean; readonly holding?: FolderHolding },
): Promise<VerifiedDirectory> {
  if ((options.holding ?? defaultFolderHolding()) === 'path')
    return openPathDirectory(realDirectory, options.create);
  let current = await open('/', constants.O_RDONLY | constants.O_DIRECTORY);
  const components = realDirectory.split('/').filter((part) => part !== '');
  let walked = '';
  try {
    for (const component of components) {
      if (component === '.' || component === '..')
        throw new WorldChangedError(`${realDirectory} is not a resolved path`);
      walked += `/${component}`;
      const inside = `/proc/self/fd/${current.fd}/${component}`;
      let next: FileHandle;
      try {
        next = await open(inside, DIRECTORY_FLAGS);
      } catch (error) {
        const code = errorCode(error);
        if (code === 'ENOENT' && options.create) {
          try {
            await mkdir(inside, 0o755);
          } catch (mkdirError) {
            if (errorCode(mkdirError) !== 'EEXIST') throw mkdirError;
          }
          next = await openOrChanged(inside, walked);
        } else if (code === 'ENOENT') {
          throw new WorldChangedError(`${walked} no longer exists`);
        } else if (code === 'ELOOP' || code === 'ENOTDIR') {
          throw new WorldChangedError(
            `${walked} is no longer a folder (a symlink or file was put there); nothing was written`,
          );
        } else {
          throw error;
        }
      }
      await current.close();
      current = next;
    }
    const directory = wrap(current);
    const now = await directory.realPath();
    if (now !== (walked === '' ? '/' : walked))
      throw new WorldChangedError(`${walked} moved to ${now} while it was opened`);
    return directory;
  } catch (error) {
    await current.close().catch(() => undefined);
    throw error;
  }
}

/** The `path` holding: every component lstat-checked to be a real folder (created when missing). */
async function openPathDirectory(
  realDirectory: string,
  create: boolean,
): Promise<VerifiedDirectory> {
  let walked = '';
  for (const component of realDirectory.split('/').filter((part) => part !== '')) {
    if (component === '.' || component === '..')
      throw new WorldChangedError(`${realDirectory} is not a resolved path`);
    walked += `/${component}`;
    let info = await lstat(walked).catch((error: unknown) => {
      if (errorCode(error) === 'ENOENT') return null;
      throw error;
    });
    if (info === null && create) {
      await mkdir(walked, 0o755).catch((error: unknown) => {
        if (errorCode(error) !== 'EEXIST') throw error;
      });
      info = await lstat(walked);
    }
    if (info === null) throw new WorldChangedError(`${walked} no longer exists`);
    if (!info.isDirectory())
      throw new WorldChangedError(
        `${walked} is no longer a folder (a symlink or file was put there); nothing was written`,
      );
  }
  const expected = walked === '' ? '/' : walked;
  return {
    inside: (name) => `${expected === '/' ? '' : expected}/${name}`,
    realPath: () => realpath(expected),
    sync: () => syncFolderAt(expected),
    close: () => Promise.resolve(),
  };
}

async function syncFolderAt(path: string): Promise<void> {
  const handle = await open(path, DIRECTORY_FLAGS);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/** After a `path`-held operation: the folder must still be where it was checked to be. */
async function confirmStillAt(directory: VerifiedDirectory, expected: string, name: string) {
  const now = await directory.realPath().catch(() => null);
  if (now !== expected)
    throw new WorldChangedError(
      `${expected} was moved or swapped during the operation${now === null ? '' : ` (it now resolves to ${now})`}; check ${now ?? expected}/${name}`,
    );
}

async function openOrChanged(inside: string, walked: string): Promise<FileHandle> {
  try {
    return await open(inside, DIRECTORY_FLAGS);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'ELOOP' || code === 'ENOTDIR' || code === 'ENOENT')
      throw new WorldChangedError(`${walked} changed while it was created; nothing was written`);
    throw error;
  }
}

/** Refuses anything but a regular file (or nothing) at `name` in `directory`, before opening it. */
async function refuseSpecial(directory: VerifiedDirectory, name: string, shown: string) {
  let info: Stats;
  try {
    info = await lstat(directory.inside(name));
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
  const special = describeSpecial(info);
  if (special === 'symlink')
    throw new WorldChangedError(`${shown} is now a symlink; nothing was read or written`);
  if (special !== null) throw new SpecialFileError(shown, special);
  return info;
}

/** Reads the regular file at the symlink-free `realPath`; a FIFO, socket or device is refused. */
export async function readVerifiedFile(
  realPath: string,
  holding: FolderHolding = defaultFolderHolding(),
): Promise<Buffer> {
  const directory = await openVerifiedDirectory(dirname(realPath), { create: false, holding });
  try {
    const name = basename(realPath);
    await refuseSpecial(directory, name, realPath);
    // O_NONBLOCK: a FIFO swapped in after the check opens at once instead of blocking forever.
    const handle = await open(
      directory.inside(name),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK,
    );
    try {
      const special = describeSpecial(await handle.stat());
      if (special !== null) throw new SpecialFileError(realPath, special);
      const bytes = await handle.readFile();
      if (holding === 'path') await confirmStillAt(directory, dirname(realPath), name);
      return bytes;
    } finally {
      await handle.close();
    }
  } finally {
    await directory.close();
  }
}

/**
 * Writes `content` at the symlink-free `realPath`, creating missing folders inside verified
 * ones, atomically: the bytes go to a temporary file beside the target (in the same verified
 * folder descriptor), are flushed to disk, and the temporary file is renamed over the target,
 * so every reader, and a process killed at any moment, sees the old bytes or the new, never a
 * torn or empty file. An existing regular file's mode is kept (not its inode: hard links to it
 * keep the old bytes); anything else at the name is refused. Returns the real path written.
 */
export async function writeVerifiedFile(
  realPath: string,
  content: string | Buffer,
  holding: FolderHolding = defaultFolderHolding(),
): Promise<string> {
  const directory = await openVerifiedDirectory(dirname(realPath), { create: true, holding });
  try {
    const name = basename(realPath);
    const existing = await refuseSpecial(directory, name, realPath);
    await replaceAtomically(directory, name, content, existing === null ? null : existing.mode);
    if (holding === 'path') await confirmStillAt(directory, dirname(realPath), name);
    return `${await directory.realPath()}/${name}`;
  } finally {
    await directory.close();
  }
}

/** The prefix of the temporary files that writes to `name` leave only when killed mid-write. */
function temporaryPrefix(name: string): string {
  return `.${name}.correx-write-`;
}

/**
 * Puts `content` at `name` inside `directory` by a temporary file, fsync and rename(2) (which
 * replaces the name itself, never following a symlink put there meanwhile), then flushes the
 * folder so the rename survives a power loss. `mode`: the permission bits to keep (null: a new
 * file, created 0644 less the umask). The temporary file is removed on any failure; one left by
 * a process killed mid-write is removed by the next write to the same name.
 */
export async function replaceAtomically(
  directory: VerifiedDirectory,
  name: string,
  content: string | Buffer,
  mode: number | null,
): Promise<void> {
  const temporary = `${temporaryPrefix(name)}${process.pid}-${randomBytes(6).toString('hex')}`;
  const handle = await open(
    directory.inside(temporary),
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    0o644,
  );
  let renamed = false;
  try {
    try {
      if (mode !== null) await handle.chmod(mode & 0o7777);
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await faultPoint(FAULT_POINTS.writeContentPending);
    await rename(directory.inside(temporary), directory.inside(name));
    renamed = true;
  } finally {
    if (!renamed) await unlink(directory.inside(temporary)).catch(() => undefined);
  }
  await directory.sync();
  await removeAbandonedTemporaries(directory, name);
}

/** Removes temporary files of `name` whose writing process is gone (killed mid-write). */
async function removeAbandonedTemporaries(directory: VerifiedDirectory, name: string) {
  const prefix = temporaryPrefix(name);
  let entries: string[];
  try {
    entries = await readdir(directory.inside('.'));
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(prefix)) continue;
    const pid = Number(/^(\d+)-[0-9a-f]+$/.exec(entry.slice(prefix.length))?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    await unlink(directory.inside(entry)).catch(() => undefined);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === 'EPERM';
  }
}

/**
 * Renames the regular file at `sourceRealPath` to `destinationRealPath`, both names taken inside
 * verified folder descriptors (rename(2) never follows a symlink at either name). Returns the real
 * path of the destination.
 */
export async function moveVerifiedFile(
  sourceRealPath: string,
  destinationRealPath: string,
  holding: FolderHolding = defaultFolderHolding(),
): Promise<string> {
  const from = await openVerifiedDirectory(dirname(sourceRealPath), { create: false, holding });
  try {
    const to = await openVerifiedDirectory(dirname(destinationRealPath), {
      create: true,
      holding,
    });
    try {
      const sourceName = basename(sourceRealPath);
      const destinationName = basename(destinationRealPath);
      const source = await refuseSpecial(from, sourceName, sourceRealPath);
      if (source === null) throw new WorldChangedError(`${sourceRealPath} no longer exists`);
      await refuseSpecial(to, destinationName, destinationRealPath);
      await rename(from.inside(sourceName), to.inside(destinationName));
      if (holding === 'path')
        await confirmStillAt(to, dirname(destinationRealPath), destinationName);
      return `${await to.realPath()}/${destinationName}`;
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
}

/**
 * Reads `path` for a search tool walking `root` (a real path): opened without following a final
 * symlink and without blocking on a FIFO, kept only when the descriptor is a regular file whose
 * real path lies inside `root`, so a component swapped for a symlink after the walk cannot lead
 * the read outside. Null when the file is not one to read (special, moved out, gone).
 */
export async function readRegularFileInside(
  path: string,
  root: string,
  holding: FolderHolding = defaultFolderHolding(),
): Promise<Buffer | null> {
  let handle: FileHandle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    if (!(await handle.stat()).isFile()) return null;
    const real =
      holding === 'descriptor'
        ? await readlink(`/proc/self/fd/${handle.fd}`)
        : await realpath(path).catch(() => '');
    if (!real.startsWith(root === '/' ? '/' : `${root}/`)) return null;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
