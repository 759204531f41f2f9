import { CorrexError } from '../base/correx-error.js';

/** The roots every model-supplied path is resolved against. Both must be absolute real paths. */
export type ToolPathRoots = {
  readonly workspaceRoot: string;
  readonly homeDirectory: string;
};

/** A model-supplied path after lexical normalization (no disk access). */
export type ResolvedToolPath = {
  readonly raw: string;
  /** Absolute, `.`/`..` collapsed, `~` expanded. Symlinks NOT yet resolved: see `realPath` in observations. */
  readonly absolute: string;
};

export type ToolPathRejection = {
  readonly code:
    'empty' | 'nul_byte' | 'too_long' | 'segment_too_long' | 'other_user_home' | 'not_a_string';
  readonly message: string;
};

export type ToolPathResult =
  | { readonly ok: true; readonly path: ResolvedToolPath }
  | { readonly ok: false; readonly rejection: ToolPathRejection };

/** Longest path accepted (Linux PATH_MAX); longer ones are rejected, never truncated. */
export const MAX_TOOL_PATH_LENGTH = 4096;
const MAX_SEGMENT_BYTES = 255;

/** The roots given to resolveToolPath were not absolute normalized paths: a wiring bug. */
export class InvalidToolPathRootsError extends CorrexError {
  constructor(message: string) {
    super('invalid_tool_path_roots', message);
  }
}

const encoder = new TextEncoder();

/**
 * The one canonical normalization of a model-supplied path, shared by the rules and the tools
 * (spec: ToolPath.resolve). Relative paths are taken from the workspace root (never from a
 * model-chosen directory), `~` and `~/x` become the real home directory (never `<workspace>/~`),
 * `.` and `..` are collapsed lexically, NUL bytes and over-long paths are rejected. Pure: symlink
 * resolution for containment uses the `realPath` recorded by the WorldProbe.
 */
export function resolveToolPath(raw: unknown, roots: ToolPathRoots, base?: string): ToolPathResult {
  assertRoot(roots.workspaceRoot, 'workspaceRoot');
  assertRoot(roots.homeDirectory, 'homeDirectory');
  if (typeof raw !== 'string') return reject('not_a_string', 'a path must be a string');
  if (raw.length === 0) return reject('empty', 'a path may not be empty');
  if (raw.includes('\0')) return reject('nul_byte', 'a path may not contain a NUL byte');
  if (raw.length > MAX_TOOL_PATH_LENGTH) {
    return reject('too_long', `a path may be at most ${MAX_TOOL_PATH_LENGTH} characters`);
  }
  let joined: string;
  if (raw === '~' || raw.startsWith('~/')) joined = roots.homeDirectory + raw.slice(1);
  else if (raw.startsWith('~'))
    return reject(
      'other_user_home',
      'only "~" and "~/..." name a home directory; "~user" is refused',
    );
  else if (raw.startsWith('/')) joined = raw;
  else joined = `${base ?? roots.workspaceRoot}/${raw}`;
  const absolute = normalizeAbsolute(joined);
  if (absolute.length > MAX_TOOL_PATH_LENGTH) {
    return reject('too_long', `a path may be at most ${MAX_TOOL_PATH_LENGTH} characters`);
  }
  for (const segment of absolute.split('/')) {
    // A UTF-16 unit is at most 3 UTF-8 bytes: only a long segment needs encoding to measure.
    if (
      segment.length * 3 > MAX_SEGMENT_BYTES &&
      encoder.encode(segment).length > MAX_SEGMENT_BYTES
    ) {
      return reject('segment_too_long', `a path segment may be at most ${MAX_SEGMENT_BYTES} bytes`);
    }
  }
  return { ok: true, path: { raw, absolute } };
}

/** Collapses `//`, `.` and `..` in an absolute POSIX path; `..` at the root stays at the root. */
export function normalizeAbsolute(path: string): string {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return `/${out.join('/')}`;
}

/** True when `path` is `root` or lies beneath it. Both must be normalized absolute paths. */
export function isPathInside(path: string, root: string): boolean {
  if (root === '/') return true;
  return path === root || path.startsWith(`${root}/`);
}

/** `path` relative to `root` (`''` for the root itself); undefined when outside. */
export function relativeInside(path: string, root: string): string | undefined {
  if (!isPathInside(path, root)) return undefined;
  if (path === root) return '';
  return root === '/' ? path.slice(1) : path.slice(root.length + 1);
}

function assertRoot(root: string, name: string): void {
  if (!root.startsWith('/') || root.includes('\0') || normalizeAbsolute(root) !== root) {
    throw new InvalidToolPathRootsError(
      `${name} must be an absolute normalized path, got ${JSON.stringify(root)}`,
    );
  }
}

function reject(code: ToolPathRejection['code'], message: string): ToolPathResult {
  return { ok: false, rejection: { code, message } };
}
