import {
  SessionBusyError
} from "./chunk-SWJTFAUB.js";

// src/infrastructure/locks/file-session-locker.ts
import Database from "better-sqlite3";
import { mkdirSync, readFileSync as readFileSync2, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";

// src/infrastructure/system/process-start-time.ts
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
var bootTimeMs;
function processStartTime(pid) {
  if (process.platform === "linux") {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      const ticks = Number(fields[19]);
      bootTimeMs ??= Number(/^btime (\d+)$/m.exec(readFileSync("/proc/stat", "utf8"))?.[1] ?? NaN) * 1e3;
      const started = bootTimeMs + ticks * 10;
      return Number.isFinite(started) ? started : void 0;
    } catch {
      return void 0;
    }
  }
  try {
    const text = execFileSync("ps", ["-o", "lstart=", "-p", String(pid)], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 2e3
    }).trim();
    const started = Date.parse(text);
    return Number.isFinite(started) ? started : void 0;
  } catch {
    return void 0;
  }
}

// src/infrastructure/locks/file-session-locker.ts
function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
}
var START_SLACK_MS = 1500;
function holderAlive(holder, path) {
  if (!alive(holder.pid)) return false;
  const started = processStartTime(holder.pid);
  if (started === void 0) return true;
  if (holder.started !== void 0) return Math.abs(started - holder.started) <= START_SLACK_MS;
  try {
    return started <= statSync(path).mtimeMs + START_SLACK_MS;
  } catch {
    return true;
  }
}
function readHolder(path) {
  try {
    const holder = JSON.parse(readFileSync2(path, "utf8"));
    return typeof holder.pid === "number" && typeof holder.host === "string" ? holder : void 0;
  } catch {
    return void 0;
  }
}
var describeHolder = (holder) => holder === void 0 ? "another process" : `process ${holder.pid} on ${holder.host}`;
function acquireSessionLock(directory, sessionId) {
  mkdirSync(directory, { recursive: true, mode: 448 });
  const name = encodeURIComponent(sessionId);
  const recordPath = join(directory, `${name}.lock`);
  const database = new Database(join(directory, `${name}.lockdb`), { timeout: 0 });
  try {
    database.exec("BEGIN EXCLUSIVE");
  } catch (error) {
    database.close();
    if (error.code === "SQLITE_BUSY")
      throw new SessionBusyError(sessionId, describeHolder(readHolder(recordPath)));
    throw error;
  }
  const started = processStartTime(process.pid);
  const me = {
    pid: process.pid,
    host: hostname(),
    lock: "os",
    ...started === void 0 ? {} : { started }
  };
  const previous = readHolder(recordPath);
  if (previous !== void 0 && previous.lock === void 0 && previous.host === me.host && previous.pid !== me.pid && holderAlive(previous, recordPath)) {
    database.close();
    throw new SessionBusyError(sessionId, describeHolder(previous));
  }
  const temporary = `${recordPath}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(me), { mode: 384 });
  renameSync(temporary, recordPath);
  let released = false;
  const close = () => {
    if (released) return;
    released = true;
    rmSync(recordPath, { force: true });
    database.close();
  };
  return { close, release: async () => close() };
}
function createFileSessionLocker(directory, epochs) {
  const held = /* @__PURE__ */ new Set();
  return {
    acquire: async (sessionId) => {
      const lock = acquireSessionLock(directory, sessionId);
      let epoch;
      try {
        epoch = await epochs?.takeDriverEpoch(sessionId);
      } catch (error) {
        lock.close();
        throw error;
      }
      const tracked = {
        ...epoch === void 0 ? {} : { epoch },
        release: async () => {
          held.delete(tracked);
          await lock.release();
        }
      };
      held.add(tracked);
      return tracked;
    },
    // A closing driver hands back what it still holds, as its exit would.
    close: async () => {
      for (const lock of [...held]) await lock.release();
    }
  };
}

export {
  holderAlive,
  createFileSessionLocker
};
