import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';

/**
 * The real path of the program `argv0` names, found the way execvp(3) finds it: a name with a
 * slash is taken relative to `cwd`, a bare name is looked up on `searchPath`; symlinks are
 * resolved (`/bin/sh` → `/usr/bin/dash`). Null when nothing executable is found (the process
 * then fails to start, and the receipt says so).
 */
export async function resolveExecutable(
  argv0: string,
  searchPath: string,
  cwd: string,
): Promise<string | null> {
  const candidates = argv0.includes('/')
    ? [isAbsolute(argv0) ? argv0 : join(cwd, argv0)]
    : searchPath
        .split(':')
        .filter((dir) => isAbsolute(dir))
        .map((dir) => join(dir, argv0));
  for (const candidate of candidates) {
    try {
      if (!(await stat(candidate)).isFile()) continue;
      await access(candidate, constants.X_OK);
      return await realpath(candidate);
    } catch {
      // Not here: try the next directory.
    }
  }
  return null;
}
