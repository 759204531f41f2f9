import {
  MAX_PREIMAGE_BYTES
} from "./chunk-76ZWS4BR.js";

// src/infrastructure/tools/tool-receipt-builder.ts
import { createHash } from "node:crypto";
var DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;
function createOutputBuffer(cap = DEFAULT_MAX_OUTPUT_BYTES) {
  const hash = createHash("sha256");
  const kept = [];
  let keptBytes = 0;
  let total = 0;
  return {
    push(chunk) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      hash.update(bytes);
      total += bytes.length;
      if (keptBytes < cap) {
        const slice = bytes.subarray(0, cap - keptBytes);
        kept.push(slice);
        keptBytes += slice.length;
      }
    },
    finish() {
      const truncated = total > keptBytes;
      let output = Buffer.concat(kept).toString("utf8");
      if (truncated)
        output += `
[\u2026 ${total - keptBytes} of ${total} bytes truncated; sha256 covers the full output \u2026]`;
      return { output, outputBytes: total, outputSha256: hash.digest("hex"), truncated };
    }
  };
}
function sha256Of(content) {
  return createHash("sha256").update(content).digest("hex");
}
function buildReceipt(fields) {
  const buffer = createOutputBuffer(fields.cap);
  buffer.push(fields.text);
  return finishReceipt({ ...fields, output: buffer.finish() });
}
function finishReceipt(fields) {
  return {
    outcome: fields.outcome,
    exitCode: fields.exitCode ?? null,
    error: fields.error ?? null,
    ...fields.output,
    files: fields.files ?? [],
    durationMs: Math.max(0, Math.round(performance.now() - fields.startedAt)),
    ...fields.sandbox === void 0 ? {} : { sandbox: fields.sandbox },
    ...fields.egress === void 0 ? {} : { egress: fields.egress },
    ...fields.executable === void 0 ? {} : { executable: fields.executable }
  };
}

// src/infrastructure/system/default-search-path.ts
import { dirname } from "node:path";
function defaultSearchPath() {
  return [dirname(process.execPath), "/usr/local/bin", "/usr/bin", "/bin"].join(":");
}

// src/infrastructure/sandbox/workspace-changes.ts
import { createHash as createHash2 } from "node:crypto";
import { closeSync, lstatSync as lstatSync2, openSync, readFileSync as readFileSync2, readlinkSync, readSync } from "node:fs";

// src/infrastructure/sandbox/watched-tree.ts
import { lstatSync, readdirSync, watch } from "node:fs";
import { basename, join } from "node:path";

// src/infrastructure/sandbox/inotify-support.ts
import { readFileSync, statfsSync } from "node:fs";
var LOCAL_FILE_SYSTEMS = /* @__PURE__ */ new Set([
  61267,
  // ext2/3/4
  1481003842,
  // xfs
  2435016766,
  // btrfs
  16914836,
  // tmpfs
  2035054128,
  // overlayfs
  801189825,
  // zfs
  4076150800
  // f2fs
]);
function inotifyIsComplete(root) {
  if (process.platform !== "linux") return false;
  try {
    return LOCAL_FILE_SYSTEMS.has(statfsSync(root).type);
  } catch {
    return false;
  }
}
function drainEvents() {
  return new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
}
function inotifyQueueLength() {
  try {
    const value = Number(readFileSync("/proc/sys/fs/inotify/max_queued_events", "utf8").trim());
    return Number.isInteger(value) && value > 0 ? value : 16384;
  } catch {
    return 16384;
  }
}

// src/infrastructure/sandbox/watched-tree.ts
var SKIPPED = /* @__PURE__ */ new Set([".git", "node_modules"]);
var MAX_WATCHED_DIRECTORIES = 5e4;
function createWatchedTree(root, options) {
  const overflowSuspect = Math.floor(inotifyQueueLength() / 2);
  const files = /* @__PURE__ */ new Map();
  const multiLinked = /* @__PURE__ */ new Set();
  let directories = /* @__PURE__ */ new Map();
  let dirty = /* @__PURE__ */ new Map();
  let events = 0;
  let watching = inotifyIsComplete(root);
  let trusted = false;
  let complete = true;
  const noteEvent = (directory) => (kind, name) => {
    events++;
    const names = dirty.get(directory) ?? /* @__PURE__ */ new Set();
    dirty.set(directory, names);
    if (name === null)
      trusted = false;
    else if (kind === "rename") names.add(name);
  };
  const stopWatching = () => {
    watching = false;
    trusted = false;
    for (const directory of directories.values()) directory.watcher?.close();
  };
  const watchDirectory = (path) => {
    if (!watching) return null;
    try {
      const watcher = watch(path, { persistent: false }, noteEvent(path));
      watcher.on("error", () => {
        trusted = false;
      });
      return watcher;
    } catch (error) {
      const code = error.code;
      if (code !== "ENOENT" && code !== "ENOTDIR") stopWatching();
      return null;
    }
  };
  const setEntry = (path, is, changes) => {
    const was = files.get(path);
    if (was?.key === is?.key && was?.mode === is?.mode) return;
    changes.push({ path, was, is });
    if (is === void 0) files.delete(path);
    else files.set(path, is);
    if (is !== void 0 && is.links > 1) multiLinked.add(path);
    else multiLinked.delete(path);
  };
  const restat = (path, changes) => {
    const entry = entryOf(path);
    setEntry(path, entry === "directory" ? void 0 : entry, changes);
  };
  const forget = (path, changes) => {
    const directory = directories.get(path);
    if (directory === void 0) return;
    directory.watcher?.close();
    directories.delete(path);
    for (const file of directory.files) setEntry(file, void 0, changes);
    for (const subdirectory of directory.subdirectories) forget(subdirectory, changes);
  };
  const adopt = (path, ino, changes) => {
    const watcher = watchDirectory(path);
    const directory = { ino, watcher, files: /* @__PURE__ */ new Set(), subdirectories: /* @__PURE__ */ new Set() };
    directories.set(path, directory);
    read(path, directory, /* @__PURE__ */ new Set(), changes);
  };
  const read = (path, directory, renamed, changes) => {
    let listing;
    try {
      listing = readdirSync(path, { withFileTypes: true });
    } catch {
      listing = [];
    }
    const seenFiles = /* @__PURE__ */ new Set();
    const seenDirectories = /* @__PURE__ */ new Set();
    for (const child of listing) {
      const childPath = join(path, child.name);
      if (child.isDirectory()) {
        if (SKIPPED.has(child.name)) continue;
        const ino = inodeOf(childPath);
        if (ino === null) continue;
        seenDirectories.add(childPath);
        const known = directories.get(childPath);
        if (known !== void 0 && known.ino === ino && !renamed.has(child.name) && (known.watcher !== null || !watching))
          continue;
        forget(childPath, changes);
        adopt(childPath, ino, changes);
      } else if (child.isFile() || child.isSymbolicLink()) {
        seenFiles.add(childPath);
        restat(childPath, changes);
      }
    }
    for (const file of directory.files)
      if (!seenFiles.has(file)) setEntry(file, void 0, changes);
    for (const subdirectory of directory.subdirectories)
      if (!seenDirectories.has(subdirectory)) forget(subdirectory, changes);
    directory.files = seenFiles;
    directory.subdirectories = seenDirectories;
  };
  const walk = () => {
    const changes = [];
    const old = directories;
    directories = /* @__PURE__ */ new Map();
    dirty = /* @__PURE__ */ new Map();
    const seen = /* @__PURE__ */ new Set();
    let count = 0;
    complete = true;
    const pending = [root];
    while (pending.length > 0) {
      const path = pending.pop();
      const ino = inodeOf(path);
      if (ino === null) continue;
      const watcher = watchDirectory(path);
      const directory = { ino, watcher, files: /* @__PURE__ */ new Set(), subdirectories: /* @__PURE__ */ new Set() };
      directories.set(path, directory);
      let listing;
      try {
        listing = readdirSync(path, { withFileTypes: true });
      } catch {
        continue;
      }
      for (const child of listing) {
        if (++count > options.limit) {
          complete = false;
          break;
        }
        const childPath = join(path, child.name);
        if (child.isDirectory()) {
          if (SKIPPED.has(child.name)) continue;
          directory.subdirectories.add(childPath);
          pending.push(childPath);
        } else if (child.isFile() || child.isSymbolicLink()) {
          directory.files.add(childPath);
          seen.add(childPath);
          restat(childPath, changes);
        }
      }
      if (!complete) break;
    }
    for (const directory of old.values()) directory.watcher?.close();
    for (const path of [...files.keys()]) if (!seen.has(path)) setEntry(path, void 0, changes);
    if (!complete || directories.size > MAX_WATCHED_DIRECTORIES) stopWatching();
    trusted = watching;
    return { changes, complete };
  };
  return {
    async sync() {
      await drainEvents();
      const counted = events;
      events = 0;
      const rootNow = inodeOf(root);
      if (!trusted || counted >= overflowSuspect || rootNow === null || rootNow !== directories.get(root)?.ino || // The root's own deletion or move is reported under its name (a child of that name looks the same).
      dirty.get(root)?.has(basename(root)) === true)
        return walk();
      const changes = [];
      const toRead = [...dirty].sort(([a], [b]) => a.length - b.length);
      dirty = /* @__PURE__ */ new Map();
      for (const [path, renamed] of toRead) {
        const directory = directories.get(path);
        if (directory === void 0) continue;
        if (inodeOf(path) !== directory.ino) {
          trusted = false;
          break;
        }
        read(path, directory, renamed, changes);
      }
      for (const path of [...multiLinked]) restat(path, changes);
      if (directories.size > MAX_WATCHED_DIRECTORIES || files.size > options.limit) stopWatching();
      if (!trusted) {
        const rest = walk();
        return { changes: [...changes, ...rest.changes], complete: rest.complete };
      }
      return { changes, complete };
    },
    close() {
      stopWatching();
    }
  };
}
function inodeOf(path) {
  try {
    const stat = lstatSync(path, { bigint: true });
    return stat.isDirectory() ? stat.ino : null;
  } catch {
    return null;
  }
}
function entryOf(path) {
  let stat;
  try {
    stat = lstatSync(path, { bigint: true });
  } catch {
    return void 0;
  }
  if (stat.isDirectory()) return "directory";
  if (!stat.isFile() && !stat.isSymbolicLink()) return void 0;
  const kind = stat.isFile() ? "f" : "l";
  return {
    key: `${kind}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`,
    mode: Number(stat.mode & 0o7777n),
    links: Number(stat.nlink)
  };
}

// src/infrastructure/sandbox/workspace-changes.ts
var CHANGE_SCAN_LIMIT = 2e5;
var MAX_WATCHED_ROOTS = 16;
function createChangeRecorder(options = {}) {
  const limit = options.limit ?? CHANGE_SCAN_LIMIT;
  const trees = /* @__PURE__ */ new Map();
  const hashes = /* @__PURE__ */ new Map();
  const journal = [];
  let journalStart = 0;
  const open = /* @__PURE__ */ new Map();
  const hashOf = (path, entry) => {
    const cached = hashes.get(path);
    if (cached?.key === entry.key) return cached.sha256;
    const sha256 = hashFile(path, options.preimages);
    if (sha256 !== null) hashes.set(path, { key: entry.key, sha256 });
    return sha256;
  };
  const treeOf = (root) => {
    let tree = trees.get(root);
    if (tree !== void 0)
      trees.delete(root);
    else tree = createWatchedTree(root, { limit });
    trees.set(root, tree);
    if (trees.size > MAX_WATCHED_ROOTS) {
      const [oldest, evicted] = trees.entries().next().value;
      evicted.close();
      trees.delete(oldest);
    }
    return tree;
  };
  const sync = async (root) => {
    const result = await treeOf(root).sync();
    for (const { path, was, is } of result.changes) {
      const before = was === void 0 ? null : hashes.get(path)?.sha256 ?? null;
      const after = is === void 0 ? null : hashOf(path, is);
      if (is === void 0) hashes.delete(path);
      journal.push({
        root,
        path,
        before,
        after,
        modeBefore: was?.mode ?? null,
        modeAfter: is?.mode ?? null,
        present: is !== void 0
      });
    }
    if (open.size === 0) {
      journalStart += journal.length;
      journal.length = 0;
    }
    return result.complete;
  };
  const release = (position) => {
    const holders = (open.get(position) ?? 1) - 1;
    if (holders > 0) open.set(position, holders);
    else open.delete(position);
    const oldest = Math.min(...open.keys(), journalStart + journal.length);
    journal.splice(0, oldest - journalStart);
    journalStart = oldest;
  };
  return {
    async before(root) {
      const complete = await sync(root);
      const position = journalStart + journal.length;
      open.set(position, (open.get(position) ?? 0) + 1);
      return { root, position, complete };
    },
    async after(baseline) {
      let complete;
      try {
        complete = await sync(baseline.root) && baseline.complete;
      } catch (error) {
        release(baseline.position);
        throw error;
      }
      const folded = /* @__PURE__ */ new Map();
      for (const entry of journal.slice(baseline.position - journalStart)) {
        if (entry.root !== baseline.root) continue;
        const seen = folded.get(entry.path);
        folded.set(entry.path, { first: seen?.first ?? entry, last: entry });
      }
      release(baseline.position);
      const files = [];
      for (const path of [...folded.keys()].sort()) {
        const { first, last } = folded.get(path);
        if (first.before === last.after && first.modeBefore === last.modeAfter) continue;
        files.push({
          path,
          access: last.present ? "write" : "delete",
          before: first.before,
          after: last.after,
          modeBefore: first.modeBefore,
          modeAfter: last.modeAfter
        });
      }
      return { files, complete };
    },
    close() {
      for (const tree of trees.values()) tree.close();
      trees.clear();
    }
  };
}
function hashFile(path, preimages) {
  const hash = createHash2("sha256");
  try {
    const stat = lstatSync2(path);
    if (stat.isSymbolicLink()) return hash.update(`symlink:${readlinkSync(path)}`).digest("hex");
    if (preimages !== void 0 && stat.size <= MAX_PREIMAGE_BYTES) {
      const bytes = readFileSync2(path);
      return preimages.put(bytes);
    }
    const fd = openSync(path, "r");
    try {
      const buffer = Buffer.allocUnsafe(1 << 16);
      for (; ; ) {
        const read = readSync(fd, buffer, 0, buffer.length, null);
        if (read === 0) break;
        hash.update(buffer.subarray(0, read));
      }
    } finally {
      closeSync(fd);
    }
    return hash.digest("hex");
  } catch {
    return null;
  }
}

export {
  CHANGE_SCAN_LIMIT,
  createChangeRecorder,
  createOutputBuffer,
  sha256Of,
  buildReceipt,
  finishReceipt,
  defaultSearchPath
};
