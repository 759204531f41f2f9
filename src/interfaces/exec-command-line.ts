/*
 * An `exec` call as a person would type it: the command line (`command`), or the argv joined
 * with POSIX shell quoting, and the folder it runs in. The CLI's approval prompt and the web
 * page's cards both show it through these, so they cannot drift apart. Pure: no I/O.
 */

/** Characters a POSIX shell reads literally outside quotes. */
const PLAIN = /^[\w@%+=:,./-]+$/;

/** One word quoted as a POSIX shell reads it back (`it's` → `'it'\''s'`). */
export function shellWord(word: string): string {
  return PLAIN.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The command line of an exec call's arguments (its JSON text as the model sent it): `command`
 * as written, else `argv` quoted word by word; undefined when they hold neither.
 */
export function execCommandLine(argsRaw: string): string | undefined {
  let args: unknown;
  try {
    args = JSON.parse(argsRaw);
  } catch {
    return undefined;
  }
  if (typeof args !== 'object' || args === null) return undefined;
  const { command, argv } = args as { command?: unknown; argv?: unknown };
  if (typeof command === 'string') return command;
  return Array.isArray(argv) && argv.length > 0 && argv.every((part) => typeof part === 'string')
    ? argv.map(shellWord).join(' ')
    : undefined;
}

/** A path the assessment resolved for a call (`cwd` is the folder an exec runs in). */
export type ResolvedTarget = {
  readonly param: string;
  readonly resolved: string;
  readonly realPath?: string | null | undefined;
};

/** The folder an exec call runs in: its resolved `cwd`, else the session's workspace. */
export function execFolder(
  targets: readonly ResolvedTarget[],
  workspace: string | null | undefined,
): string | undefined {
  const cwd = targets.find((target) => target.param === 'cwd');
  return cwd === undefined ? (workspace ?? undefined) : (cwd.realPath ?? cwd.resolved);
}
