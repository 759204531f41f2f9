import { randomBytes } from 'node:crypto';
import {
  closeSync,
  constants,
  fstatSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  watch,
  writeSync,
} from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { ServerTokenError } from './server-errors.js';

export const TOKEN_FILE_NAME = 'server-token';
const MIN_TOKEN_LENGTH = 32;

export type ServerToken = {
  readonly token: string;
  /** Where it came from: given (flag or environment), read from the file, or generated into it. */
  readonly source: 'given' | 'file' | 'generated';
  readonly path: string | null;
};

/** A fresh token: 32 random bytes, base64url (43 characters). */
export function generateServerToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * The bearer token of `correx serve`: the one given, else the one stored in
 * `$CORREX_HOME/server-token`, else a new one written there with owner-only permissions. A
 * token file that group or others may read (or that another user owns) is refused rather than
 * used, because anyone who can read it can drive sessions.
 */
export function loadOrCreateServerToken(options: {
  readonly correxHome: string;
  readonly given?: string;
}): ServerToken {
  if (options.given !== undefined) {
    checkToken(options.given, 'the given token');
    return { token: options.given, source: 'given', path: null };
  }
  mkdirSync(options.correxHome, { recursive: true, mode: 0o700 });
  const path = join(options.correxHome, TOKEN_FILE_NAME);
  const created = tryCreate(path);
  if (created !== null) return { token: created, source: 'generated', path };
  return { token: readTokenFile(path), source: 'file', path };
}

function tryCreate(path: string): string | null {
  let fd: number;
  try {
    // `wx`: never overwrite, never follow a planted file; mode 0600 from the first byte.
    fd = openSync(path, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return null;
    throw error;
  }
  const token = generateServerToken();
  try {
    writeSync(fd, `${token}\n`);
  } finally {
    closeSync(fd);
  }
  return token;
}

/** The token in `path`, refused when others may read the file or it holds no valid token. */
export function readServerTokenFile(path: string): string {
  return readTokenFile(path);
}

/**
 * Replaces the token file with a fresh token (`correx serve --rotate-token`): written to a new
 * owner-only file, then renamed over the old one, so a reader never sees half a token. A server
 * watching the file switches to it and closes the sockets opened with the old one.
 */
export function rotateServerTokenFile(correxHome: string): { token: string; path: string } {
  mkdirSync(correxHome, { recursive: true, mode: 0o700 });
  const path = join(correxHome, TOKEN_FILE_NAME);
  const temporary = `${path}.${process.pid}.new`;
  rmSync(temporary, { force: true });
  const token = tryCreate(temporary);
  if (token === null) throw new ServerTokenError('server_token_invalid', `${temporary} exists`);
  renameSync(temporary, path);
  return { token, path };
}

/**
 * Calls `onChange` whenever the token file is written, replaced or removed, with what it holds
 * now (or the error reading it). Watches the folder, so an atomic replace is seen too.
 */
export function watchServerTokenFile(
  path: string,
  onChange: (result: { token: string } | { error: Error }) => void,
): () => void {
  const name = basename(path);
  let last: string | null = null;
  const watcher = watch(dirname(path), (_event, file) => {
    if (file !== null && file !== name) return;
    let result: { token: string } | { error: Error };
    try {
      result = { token: readTokenFile(path) };
    } catch (error) {
      result = { error: error as Error };
    }
    const key = 'token' in result ? result.token : `error:${result.error.message}`;
    if (key === last) return;
    last = key;
    onChange(result);
  });
  return () => watcher.close();
}

function readTokenFile(path: string): string {
  // Without blocking: a FIFO put at the path must not hang the server's start.
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      throw new ServerTokenError('server_token_insecure', `${path} is not a file`);
    if (stat.size > 4096)
      throw new ServerTokenError('server_token_invalid', `${path} is too large to hold a token`);
    if ((stat.mode & 0o077) !== 0) {
      throw new ServerTokenError(
        'server_token_insecure',
        `${path} may be read by other users (mode ${(stat.mode & 0o777).toString(8)}); run chmod 600 on it or delete it to have a new one generated`,
      );
    }
    const uid = process.getuid?.();
    if (uid !== undefined && stat.uid !== uid) {
      throw new ServerTokenError('server_token_insecure', `${path} belongs to another user`);
    }
    const token = readFileSync(fd, 'utf8').trim();
    checkToken(token, path);
    return token;
  } finally {
    closeSync(fd);
  }
}

function checkToken(token: string, what: string): void {
  if (token.length < MIN_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token)) {
    throw new ServerTokenError(
      'server_token_invalid',
      `${what} must be at least ${MIN_TOKEN_LENGTH} printable characters without spaces`,
    );
  }
}
