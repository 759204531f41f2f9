// src/interfaces/allowed-workspace.ts
import { realpath, stat } from "node:fs/promises";
import { isAbsolute, sep } from "node:path";
async function allowedWorkspace(path, roots) {
  if (!isAbsolute(path))
    return { ok: false, reason: "invalid", message: "workspace must be an absolute path" };
  let real;
  try {
    real = await realpath(path);
  } catch {
    return { ok: false, reason: "invalid", message: `workspace ${path} does not exist` };
  }
  if (!(await stat(real)).isDirectory())
    return { ok: false, reason: "invalid", message: `workspace ${path} is not a folder` };
  if (!roots.some((root) => real === root || real.startsWith(root.endsWith(sep) ? root : root + sep)))
    return {
      ok: false,
      reason: "outside",
      message: `workspace ${path} is outside the allowed roots`
    };
  return { ok: true, path: real };
}

export {
  allowedWorkspace
};
