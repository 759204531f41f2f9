import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, sep } from 'node:path';

export type AllowedWorkspace =
  | { readonly ok: true; readonly path: string }
  | {
      readonly ok: false;
      /** `outside`: an existing folder, but not inside any allowed root. */
      readonly reason: 'invalid' | 'outside';
      readonly message: string;
    };

/**
 * The workspace's real path, when it is an existing folder inside an allowed root. The one
 * check `correx serve` (REST) and `correx mcp` apply to a workspace a client names.
 */
export async function allowedWorkspace(
  path: string,
  roots: readonly string[],
): Promise<AllowedWorkspace> {
  if (!isAbsolute(path))
    return { ok: false, reason: 'invalid', message: 'workspace must be an absolute path' };
  let real: string;
  try {
    real = await realpath(path);
  } catch {
    return { ok: false, reason: 'invalid', message: `workspace ${path} does not exist` };
  }
  if (!(await stat(real)).isDirectory())
    return { ok: false, reason: 'invalid', message: `workspace ${path} is not a folder` };
  // Compared after resolving symlinks, so a link inside a root cannot point outside it.
  if (
    !roots.some((root) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep))
  )
    return {
      ok: false,
      reason: 'outside',
      message: `workspace ${path} is outside the allowed roots`,
    };
  return { ok: true, path: real };
}
