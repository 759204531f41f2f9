// src/infrastructure/system/guarded-paths.ts
import { existsSync, realpathSync } from "node:fs";
import { isAbsolute, relative, resolve, sep } from "node:path";
function isInsidePath(path, root) {
  const rel = relative(root, path);
  return rel === "" || !rel.startsWith("..") && !isAbsolute(rel) && !rel.startsWith(sep);
}
function guardedPathOverlap(workspace, guarded) {
  for (const path of guarded) {
    const real = existsSync(path) ? realpathSync(path) : resolve(path);
    if (isInsidePath(real, workspace))
      return `workspace ${workspace} contains ${real}, which correx keeps out of the agent's reach; choose a folder that does not contain it`;
    if (isInsidePath(workspace, real))
      return `workspace ${workspace} is inside ${real}, which correx keeps out of the agent's reach; choose a folder outside it`;
  }
  return null;
}

export {
  isInsidePath,
  guardedPathOverlap
};
