import {
  isPathInside,
  normalizeAbsolute
} from "./chunk-OYJRPCLU.js";

// src/infrastructure/world-probe/disk-world-probe.ts
import { createHash } from "node:crypto";
import { constants, realpathSync } from "node:fs";
import { lstat, open, readlink, stat } from "node:fs/promises";
var MAX_LINK_HOPS = 40;
function createDiskWorldProbe(options = {}) {
  const maxHashBytes = options.maxHashBytes ?? 16 * 1024 * 1024;
  return {
    async observe(absolutePath) {
      if (!absolutePath.startsWith("/") || absolutePath.includes("\0")) {
        throw new RangeError(
          `the probe takes absolute paths without NUL, got ${JSON.stringify(absolutePath)}`
        );
      }
      const path = normalizeAbsolute(absolutePath);
      for (let attempt = 0; attempt < 2; attempt += 1) {
        try {
          return await observeOnce(path);
        } catch (error) {
          if (!isFilesystemError(error)) throw error;
        }
      }
      return {
        path,
        kind: "other",
        realPath: path,
        linkTarget: null,
        sha256: null,
        size: null,
        mtimeMs: null,
        linkCount: null,
        changedDuringObservation: true
      };
    }
  };
  async function observeOnce(path) {
    const own = await lstatOrNull(path);
    const linkTarget = own?.isSymbolicLink() === true ? await readlink(path) : null;
    const resolved = await resolveSegments(path);
    const target = resolved.exists ? await statOrNull(resolved.realPath) : null;
    const kind = target === null ? "missing" : target.isFile() ? "file" : target.isDirectory() ? "directory" : "other";
    let sha256 = null;
    const hashable = options.hashOnlyUnder?.some((root) => isPathInside(resolved.realPath, root)) ?? true;
    if (target !== null && target.isFile() && target.size <= maxHashBytes && hashable) {
      sha256 = await hashRegularFile(resolved.realPath, target);
    }
    return {
      path,
      kind,
      realPath: resolved.realPath,
      linkTarget,
      sha256,
      size: target === null ? null : target.size,
      mtimeMs: target === null ? null : Math.floor(target.mtimeMs),
      linkCount: target?.isFile() === true ? target.nlink : null
    };
  }
}
function isFilesystemError(error) {
  return error instanceof Error && "code" in error && typeof error.code === "string";
}
async function hashRegularFile(path, expected) {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
  try {
    const info = await handle.stat();
    if (!info.isFile() || info.ino !== expected.ino || info.dev !== expected.dev) {
      throw Object.assign(new Error(`${path} changed during observation`), { code: "ECHANGED" });
    }
    return createHash("sha256").update(await handle.readFile()).digest("hex");
  } finally {
    await handle.close();
  }
}
async function resolveSegments(path) {
  let pending = path.split("/").filter((segment) => segment !== "");
  let current = "/";
  let hops = 0;
  while (pending.length > 0) {
    const segment = pending[0];
    pending = pending.slice(1);
    if (segment === ".") continue;
    if (segment === "..") {
      current = normalizeAbsolute(`${current}/..`);
      continue;
    }
    const candidate = current === "/" ? `/${segment}` : `${current}/${segment}`;
    const info = await lstatOrNull(candidate);
    if (info === null) {
      return {
        realPath: normalizeAbsolute([canonical(current), segment, ...pending].join("/")),
        exists: false
      };
    }
    if (info.isSymbolicLink()) {
      hops += 1;
      if (hops > MAX_LINK_HOPS) return { realPath: candidate, exists: false };
      const link = await readlink(candidate);
      const rest = link.split("/").filter((part) => part !== "");
      if (link.startsWith("/")) current = "/";
      pending = [...rest, ...pending];
      continue;
    }
    if (!info.isDirectory() && pending.length > 0) {
      return {
        realPath: normalizeAbsolute([canonical(candidate), ...pending].join("/")),
        exists: false
      };
    }
    current = candidate;
  }
  return { realPath: canonical(current), exists: true };
}
function canonical(path) {
  try {
    return realpathSync.native(path);
  } catch {
    return path;
  }
}
async function lstatOrNull(path) {
  try {
    return await lstat(path);
  } catch {
    return null;
  }
}
async function statOrNull(path) {
  try {
    return await stat(path);
  } catch {
    return null;
  }
}

export {
  createDiskWorldProbe
};
