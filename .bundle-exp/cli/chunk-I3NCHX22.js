import {
  hasLoneSurrogate,
  layeredGet,
  resolveToolPath
} from "./chunk-OYJRPCLU.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/tools/tool-executor.ts
function defineToolExecutor(tool, execute) {
  return {
    name: tool.name,
    execute: (args, context) => execute(args, context)
  };
}
var UnknownToolError = class extends CorrexError {
  constructor(name) {
    super("unknown_tool", `no executor for tool ${JSON.stringify(name)}`);
  }
};
var WorldChangedError = class extends CorrexError {
  constructor(message) {
    super("world_changed", message);
  }
};
var UnassessedTargetError = class extends CorrexError {
  constructor(message) {
    super("unassessed_target", message);
  }
};
async function recheckTarget(probe, raw, context) {
  const resolved = resolveToolPath(raw, context.roots);
  if (!resolved.ok) throw new UnassessedTargetError(resolved.rejection.message);
  const assessed = layeredGet(context.observations, resolved.path.absolute);
  if (assessed === void 0)
    throw new UnassessedTargetError(`${resolved.path.absolute} was never observed for assessment`);
  if (hasLoneSurrogate(resolved.path.raw))
    throw new UnassessedTargetError(
      `${JSON.stringify(resolved.path.raw)} holds a lone UTF-16 surrogate; the disk would get another name`
    );
  const now = await probe.observe(resolved.path.absolute);
  if (now.changedDuringObservation === true || assessed.changedDuringObservation === true)
    throw new WorldChangedError(`${resolved.path.raw} changed during observation; read it again`);
  if (now.realPath !== assessed.realPath) {
    throw new WorldChangedError(
      `${resolved.path.raw} now resolves to ${now.realPath}, not ${assessed.realPath} as assessed`
    );
  }
  const unhashedChanged = assessed.sha256 === null && (now.size !== assessed.size || now.mtimeMs !== assessed.mtimeMs);
  if (now.kind !== assessed.kind || assessed.sha256 !== null && now.sha256 !== assessed.sha256 || now.linkCount !== assessed.linkCount || unhashedChanged) {
    throw new WorldChangedError(
      `${resolved.path.raw} changed on disk between assessment and execution; read it again`
    );
  }
  return { realPath: now.realPath, observed: now };
}
async function executeToolCall(executors, toolName, args, context) {
  const executor = executors[toolName];
  if (executor === void 0) throw new UnknownToolError(toolName);
  return executor.execute(args, context);
}

// src/infrastructure/tools/verified-directory.ts
import { constants, existsSync as existsSync2 } from "node:fs";
import { randomBytes } from "node:crypto";
import {
  lstat,
  mkdir,
  open,
  readdir,
  readlink,
  realpath,
  rename,
  unlink
} from "node:fs/promises";
import { basename, dirname } from "node:path";

// src/infrastructure/system/fault-point.ts
import { existsSync, renameSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
var FAULT_POINTS = {
  /** A file tool's new bytes are written somewhere, and not yet in place at the target. */
  writeContentPending: "write-file:content-pending"
};
function configuredPause() {
  const env = process.env;
  if (env.VITEST === void 0 && env.NODE_ENV !== "test") return null;
  const at = env.CORREX_TEST_PAUSE_AT;
  const signal = env.CORREX_TEST_PAUSE_SIGNAL;
  if (at === void 0 || at === "" || signal === void 0 || signal === "") return null;
  const [name = "", nth = "1"] = at.split("@");
  return { name, nth: Number(nth), signal };
}
var pause = configuredPause();
var passes = /* @__PURE__ */ new Map();
async function faultPoint(name) {
  if (pause === null || pause.name !== name) return;
  const count = (passes.get(name) ?? 0) + 1;
  passes.set(name, count);
  if (count !== pause.nth) return;
  const partial = `${pause.signal}.${process.pid}`;
  writeFileSync(partial, JSON.stringify({ pid: process.pid, point: name, pass: count }));
  renameSync(partial, pause.signal);
  while (!existsSync(`${pause.signal}.continue`)) await sleep(10);
}

// src/infrastructure/tools/verified-directory.ts
var DIRECTORY_FLAGS = constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW;
var SpecialFileError = class extends CorrexError {
  constructor(path, what) {
    super("special_file", `${path} is a ${what}, not a regular file; the file tools refuse it`);
  }
};
var detected;
function defaultFolderHolding() {
  detected ??= process.platform === "linux" && existsSync2("/proc/self/fd") ? "descriptor" : "path";
  return detected;
}
function errorCode(error) {
  return error instanceof Error && "code" in error ? String(error.code) : void 0;
}
function describeSpecial(info) {
  if (info.isFile()) return null;
  if (info.isFIFO()) return "FIFO (named pipe)";
  if (info.isSocket()) return "socket";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "device";
  if (info.isDirectory()) return "folder";
  if (info.isSymbolicLink()) return "symlink";
  return "special file";
}
function wrap(handle) {
  return {
    inside: (name) => `/proc/self/fd/${handle.fd}/${name}`,
    realPath: () => readlink(`/proc/self/fd/${handle.fd}`),
    sync: () => handle.sync(),
    close: () => handle.close()
  };
}
async function openVerifiedDirectory(realDirectory, options) {
  if ((options.holding ?? defaultFolderHolding()) === "path")
    return openPathDirectory(realDirectory, options.create);
  let current = await open("/", constants.O_RDONLY | constants.O_DIRECTORY);
  const components = realDirectory.split("/").filter((part) => part !== "");
  let walked = "";
  try {
    for (const component of components) {
      if (component === "." || component === "..")
        throw new WorldChangedError(`${realDirectory} is not a resolved path`);
      walked += `/${component}`;
      const inside = `/proc/self/fd/${current.fd}/${component}`;
      let next;
      try {
        next = await open(inside, DIRECTORY_FLAGS);
      } catch (error) {
        const code = errorCode(error);
        if (code === "ENOENT" && options.create) {
          try {
            await mkdir(inside, 493);
          } catch (mkdirError) {
            if (errorCode(mkdirError) !== "EEXIST") throw mkdirError;
          }
          next = await openOrChanged(inside, walked);
        } else if (code === "ENOENT") {
          throw new WorldChangedError(`${walked} no longer exists`);
        } else if (code === "ELOOP" || code === "ENOTDIR") {
          throw new WorldChangedError(
            `${walked} is no longer a folder (a symlink or file was put there); nothing was written`
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
    if (now !== (walked === "" ? "/" : walked))
      throw new WorldChangedError(`${walked} moved to ${now} while it was opened`);
    return directory;
  } catch (error) {
    await current.close().catch(() => void 0);
    throw error;
  }
}
async function openPathDirectory(realDirectory, create) {
  let walked = "";
  for (const component of realDirectory.split("/").filter((part) => part !== "")) {
    if (component === "." || component === "..")
      throw new WorldChangedError(`${realDirectory} is not a resolved path`);
    walked += `/${component}`;
    let info = await lstat(walked).catch((error) => {
      if (errorCode(error) === "ENOENT") return null;
      throw error;
    });
    if (info === null && create) {
      await mkdir(walked, 493).catch((error) => {
        if (errorCode(error) !== "EEXIST") throw error;
      });
      info = await lstat(walked);
    }
    if (info === null) throw new WorldChangedError(`${walked} no longer exists`);
    if (!info.isDirectory())
      throw new WorldChangedError(
        `${walked} is no longer a folder (a symlink or file was put there); nothing was written`
      );
  }
  const expected = walked === "" ? "/" : walked;
  return {
    inside: (name) => `${expected === "/" ? "" : expected}/${name}`,
    realPath: () => realpath(expected),
    sync: () => syncFolderAt(expected),
    close: () => Promise.resolve()
  };
}
async function syncFolderAt(path) {
  const handle = await open(path, DIRECTORY_FLAGS);
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
async function confirmStillAt(directory, expected, name) {
  const now = await directory.realPath().catch(() => null);
  if (now !== expected)
    throw new WorldChangedError(
      `${expected} was moved or swapped during the operation${now === null ? "" : ` (it now resolves to ${now})`}; check ${now ?? expected}/${name}`
    );
}
async function openOrChanged(inside, walked) {
  try {
    return await open(inside, DIRECTORY_FLAGS);
  } catch (error) {
    const code = errorCode(error);
    if (code === "ELOOP" || code === "ENOTDIR" || code === "ENOENT")
      throw new WorldChangedError(`${walked} changed while it was created; nothing was written`);
    throw error;
  }
}
async function refuseSpecial(directory, name, shown) {
  let info;
  try {
    info = await lstat(directory.inside(name));
  } catch (error) {
    if (errorCode(error) === "ENOENT") return null;
    throw error;
  }
  const special = describeSpecial(info);
  if (special === "symlink")
    throw new WorldChangedError(`${shown} is now a symlink; nothing was read or written`);
  if (special !== null) throw new SpecialFileError(shown, special);
  return info;
}
async function readVerifiedFile(realPath, holding = defaultFolderHolding()) {
  const directory = await openVerifiedDirectory(dirname(realPath), { create: false, holding });
  try {
    const name = basename(realPath);
    await refuseSpecial(directory, name, realPath);
    const handle = await open(
      directory.inside(name),
      constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK
    );
    try {
      const special = describeSpecial(await handle.stat());
      if (special !== null) throw new SpecialFileError(realPath, special);
      const bytes = await handle.readFile();
      if (holding === "path") await confirmStillAt(directory, dirname(realPath), name);
      return bytes;
    } finally {
      await handle.close();
    }
  } finally {
    await directory.close();
  }
}
async function writeVerifiedFile(realPath, content, holding = defaultFolderHolding()) {
  const directory = await openVerifiedDirectory(dirname(realPath), { create: true, holding });
  try {
    const name = basename(realPath);
    const existing = await refuseSpecial(directory, name, realPath);
    await replaceAtomically(directory, name, content, existing === null ? null : existing.mode);
    if (holding === "path") await confirmStillAt(directory, dirname(realPath), name);
    return `${await directory.realPath()}/${name}`;
  } finally {
    await directory.close();
  }
}
function temporaryPrefix(name) {
  return `.${name}.correx-write-`;
}
async function replaceAtomically(directory, name, content, mode) {
  const temporary = `${temporaryPrefix(name)}${process.pid}-${randomBytes(6).toString("hex")}`;
  const handle = await open(
    directory.inside(temporary),
    constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW,
    420
  );
  let renamed = false;
  try {
    try {
      if (mode !== null) await handle.chmod(mode & 4095);
      await handle.writeFile(content);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await faultPoint(FAULT_POINTS.writeContentPending);
    await rename(directory.inside(temporary), directory.inside(name));
    renamed = true;
  } finally {
    if (!renamed) await unlink(directory.inside(temporary)).catch(() => void 0);
  }
  await directory.sync();
  await removeAbandonedTemporaries(directory, name);
}
async function removeAbandonedTemporaries(directory, name) {
  const prefix = temporaryPrefix(name);
  let entries;
  try {
    entries = await readdir(directory.inside("."));
  } catch {
    return;
  }
  for (const entry of entries) {
    if (!entry.startsWith(prefix)) continue;
    const pid = Number(/^(\d+)-[0-9a-f]+$/.exec(entry.slice(prefix.length))?.[1]);
    if (!Number.isInteger(pid) || pid === process.pid || isAlive(pid)) continue;
    await unlink(directory.inside(entry)).catch(() => void 0);
  }
}
function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errorCode(error) === "EPERM";
  }
}
async function moveVerifiedFile(sourceRealPath, destinationRealPath, holding = defaultFolderHolding()) {
  const from = await openVerifiedDirectory(dirname(sourceRealPath), { create: false, holding });
  try {
    const to = await openVerifiedDirectory(dirname(destinationRealPath), {
      create: true,
      holding
    });
    try {
      const sourceName = basename(sourceRealPath);
      const destinationName = basename(destinationRealPath);
      const source = await refuseSpecial(from, sourceName, sourceRealPath);
      if (source === null) throw new WorldChangedError(`${sourceRealPath} no longer exists`);
      await refuseSpecial(to, destinationName, destinationRealPath);
      await rename(from.inside(sourceName), to.inside(destinationName));
      if (holding === "path")
        await confirmStillAt(to, dirname(destinationRealPath), destinationName);
      return `${await to.realPath()}/${destinationName}`;
    } finally {
      await to.close();
    }
  } finally {
    await from.close();
  }
}
async function readRegularFileInside(path, root, holding = defaultFolderHolding()) {
  let handle;
  try {
    handle = await open(path, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch {
    return null;
  }
  try {
    if (!(await handle.stat()).isFile()) return null;
    const real = holding === "descriptor" ? await readlink(`/proc/self/fd/${handle.fd}`) : await realpath(path).catch(() => "");
    if (!real.startsWith(root === "/" ? "/" : `${root}/`)) return null;
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

export {
  defineToolExecutor,
  recheckTarget,
  executeToolCall,
  openVerifiedDirectory,
  readVerifiedFile,
  writeVerifiedFile,
  replaceAtomically,
  moveVerifiedFile,
  readRegularFileInside
};
