import {
  openVerifiedDirectory,
  replaceAtomically
} from "./chunk-I3NCHX22.js";
import {
  appendToSession,
  isPathInside,
  planUndo,
  replay,
  sessionProjection
} from "./chunk-OYJRPCLU.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/sandbox/restore-workspace.ts
import { createHash } from "node:crypto";
import { constants, realpathSync } from "node:fs";
import { lstat, open, unlink } from "node:fs/promises";
import { basename, dirname, join, relative, sep } from "node:path";
var RestorePathOutsideWorkspaceError = class extends CorrexError {
  constructor(path, reason) {
    super(
      "restore_path_outside_workspace",
      `refused to restore ${path}: it no longer resolves inside the workspace (${reason}); nothing was written through it`
    );
  }
};
async function restoreWorkspace(steps, options) {
  const changedSince = [];
  const missingPreimages = [];
  const outsideWorkspace = [];
  const realRoot = realRootOf(options.workspaceRoot);
  const current = /* @__PURE__ */ new Map();
  for (const step of steps) {
    const real = realRoot === null ? null : realTarget(step.path, options.workspaceRoot, realRoot);
    const located = real === null ? { kind: "outside", reason: "not under the workspace" } : await locate(real, realRoot, options.holding);
    if (located.kind === "outside") {
      outsideWorkspace.push(step.path);
      continue;
    }
    const now = located.kind === "absent" ? { sha256: null, mode: null } : located.kind === "present" ? { sha256: located.sha256, mode: located.mode } : null;
    if (now !== null) current.set(step.path, now);
    if (now === null || now.sha256 !== step.expected) changedSince.push(step.path);
    else if (step.restore !== null && !options.preimages.has(step.restore))
      missingPreimages.push(step.path);
  }
  if (changedSince.length > 0 || missingPreimages.length > 0 || outsideWorkspace.length > 0)
    return { ok: false, changedSince, missingPreimages, outsideWorkspace };
  const files = [];
  for (const step of steps) {
    const before = current.get(step.path);
    const real = realTarget(step.path, options.workspaceRoot, realRoot);
    if (step.restore === null) {
      if (before.sha256 !== null) await removeInside(step.path, real, options.holding);
    } else {
      const bytes = options.preimages.get(step.restore);
      if (bytes === null) throw new Error(`the pre-image ${step.restore} vanished while restoring`);
      await writeInside(step.path, real, bytes, step.mode, options.holding);
    }
    files.push({
      path: step.path,
      access: step.restore === null ? "delete" : "write",
      before: before.sha256,
      after: step.restore,
      modeBefore: before.mode,
      modeAfter: step.restore === null ? null : step.mode
    });
  }
  return { ok: true, files };
}
function realRootOf(workspaceRoot) {
  try {
    return realpathSync(workspaceRoot);
  } catch {
    return null;
  }
}
function realTarget(path, workspaceRoot, realRoot) {
  if (!isPathInside(path, workspaceRoot) && !isPathInside(path, realRoot)) return null;
  const base = isPathInside(path, workspaceRoot) ? workspaceRoot : realRoot;
  const inside = relative(base, path);
  if (inside === "" || inside.split(sep).some((part) => part === "..")) return null;
  return join(realRoot, inside);
}
function errorCode(error) {
  return error instanceof Error && "code" in error ? String(error.code) : void 0;
}
async function locate(real, realRoot, holding) {
  let walked = realRoot;
  for (const component of relative(realRoot, dirname(real)).split(sep).filter((part) => part !== "")) {
    walked = join(walked, component);
    let info;
    try {
      info = await lstat(walked);
    } catch (error) {
      if (errorCode(error) === "ENOENT") return { kind: "absent" };
      throw error;
    }
    if (info.isSymbolicLink()) return { kind: "outside", reason: `${walked} is now a symlink` };
    if (!info.isDirectory()) return { kind: "outside", reason: `${walked} is not a folder` };
  }
  let directory;
  try {
    directory = await openVerifiedDirectory(dirname(real), {
      create: false,
      ...holding === void 0 ? {} : { holding }
    });
  } catch (error) {
    if (CorrexError.isInstance(error) && error.code === "world_changed")
      return { kind: "outside", reason: error.message };
    throw error;
  }
  try {
    const name = directory.inside(basename(real));
    let info;
    try {
      info = await lstat(name);
    } catch (error) {
      if (errorCode(error) === "ENOENT") return { kind: "absent" };
      throw error;
    }
    if (!info.isFile()) return { kind: "not_a_file" };
    const handle = await open(
      name,
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK
    );
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) return { kind: "not_a_file" };
      return {
        kind: "present",
        sha256: createHash("sha256").update(await handle.readFile()).digest("hex"),
        mode: stat.mode & 4095
      };
    } finally {
      await handle.close();
    }
  } finally {
    await directory.close();
  }
}
async function verifiedFolder(shown, real, create, holding) {
  try {
    return await openVerifiedDirectory(dirname(real), {
      create,
      ...holding === void 0 ? {} : { holding }
    });
  } catch (error) {
    if (CorrexError.isInstance(error) && error.code === "world_changed")
      throw new RestorePathOutsideWorkspaceError(shown, error.message);
    throw error;
  }
}
async function removeInside(shown, real, holding) {
  const directory = await verifiedFolder(shown, real, false, holding);
  try {
    await unlink(directory.inside(basename(real)));
  } finally {
    await directory.close();
  }
}
async function writeInside(shown, real, bytes, mode, holding) {
  const directory = await verifiedFolder(shown, real, true, holding);
  try {
    await replaceAtomically(directory, basename(real), bytes, mode);
  } finally {
    await directory.close();
  }
}

// src/interfaces/session-undo.ts
async function undoSessionChanges(deps, request) {
  const { store, recording } = deps;
  const { sessionId } = request;
  if (request.toSequence !== void 0 && request.stageId !== void 0)
    return { outcome: "invalid", message: "give at most one of a sequence or a stage to undo to" };
  const read = await store.read(sessionId);
  if (read.length === 0) return { outcome: "unknown_session" };
  const { state } = await replay(store, sessionProjection, sessionId);
  if (state.status === "running" && request.force !== true) return { outcome: "running" };
  const workspace = read.find((event) => event.payload.type === "session_created")?.payload?.workspace;
  if (workspace === void 0)
    return { outcome: "invalid", message: `session ${sessionId} names no workspace` };
  const plan = planUndo(read, {
    ...request.toSequence === void 0 ? {} : { toSequence: request.toSequence },
    ...request.stageId === void 0 ? {} : { stageId: request.stageId }
  });
  if (!plan.ok) return { outcome: "invalid", message: plan.message };
  if (plan.steps.length === 0) return { outcome: "nothing", toSequence: plan.toSequence };
  const result = await restoreWorkspace(plan.steps, {
    workspaceRoot: workspace,
    preimages: deps.preimages
  });
  if (!result.ok)
    return {
      outcome: "refused",
      changedSince: result.changedSince,
      missingPreimages: result.missingPreimages,
      outsideWorkspace: result.outsideWorkspace
    };
  const stored = await appendToSession(recording, store, sessionId, {
    type: "workspace_restored",
    by: request.by,
    toSequence: plan.toSequence,
    stageId: plan.stageId,
    files: result.files
  });
  return {
    outcome: "restored",
    toSequence: plan.toSequence,
    files: result.files,
    event: stored
  };
}

export {
  undoSessionChanges
};
