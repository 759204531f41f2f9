import {
  CHANGE_SCAN_LIMIT,
  buildReceipt,
  createChangeRecorder,
  createOutputBuffer,
  finishReceipt,
  sha256Of
} from "./chunk-3PPHKKT7.js";
import {
  EGRESS_FORWARDER_SCRIPT,
  SANDBOX_PROXY_SOCKET,
  buildBubblewrapProfile,
  findNeverReadableFiles,
  startEgressProxy
} from "./chunk-BF55S3NM.js";
import {
  createDiskWorldProbe
} from "./chunk-MTLPFOPA.js";
import {
  defineToolExecutor,
  executeToolCall,
  moveVerifiedFile,
  readRegularFileInside,
  readVerifiedFile,
  recheckTarget,
  writeVerifiedFile
} from "./chunk-I3NCHX22.js";
import {
  MAX_CONFIG_FILE_BYTES,
  readBoundedFile
} from "./chunk-LOKLPSJE.js";
import {
  DEFAULT_NEVER_READABLE,
  copyFileTool,
  editFileTool,
  execTool,
  globTool,
  grepTool,
  httpFetchTool,
  listDirTool,
  moveFileTool,
  readFileTool,
  writeFileTool
} from "./chunk-OYJRPCLU.js";
import {
  hostAllowed,
  matchGlob,
  parseUrlTarget
} from "./chunk-COPIES7C.js";
import {
  visibleText
} from "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/checks/disk-project-check-detector.ts
import { join } from "node:path";
var PACKAGE_SCRIPTS = ["test", "lint", "typecheck"];
var NPM_PLACEHOLDER = /no test specified/;
function createDiskProjectCheckDetector() {
  return {
    async detect(workspaceRoot) {
      const checks = [];
      const problems = [];
      const read = async (file) => {
        try {
          return (await readBoundedFile(join(workspaceRoot, file), {
            maxBytes: MAX_CONFIG_FILE_BYTES,
            what: "the project file"
          })).toString("utf8");
        } catch (error) {
          const code = error.code;
          if (code !== "ENOENT" && code !== "ENOTDIR")
            problems.push({ file, message: `cannot be read: ${error.message}` });
          return null;
        }
      };
      await packageChecks(read, checks, problems);
      await pythonChecks(read, checks);
      if (await read("go.mod") !== null)
        checks.push({ name: "go-test", command: "go test ./...", source: "go.mod" });
      if (await read("Cargo.toml") !== null)
        checks.push({ name: "cargo-test", command: "cargo test", source: "Cargo.toml" });
      for (const file of ["GNUmakefile", "makefile", "Makefile"]) {
        const text = await read(file);
        if (text === null) continue;
        if (/^test\s*:(?!=)/m.test(text))
          checks.push({ name: "make-test", command: "make test", source: "Makefile" });
        break;
      }
      return { checks, problems };
    }
  };
}
async function packageChecks(read, checks, problems) {
  const text = await read("package.json");
  if (text === null) return;
  let scripts;
  try {
    const parsed = JSON.parse(text);
    scripts = typeof parsed.scripts === "object" && parsed.scripts !== null ? parsed.scripts : {};
  } catch (error) {
    problems.push({
      file: "package.json",
      message: `is not valid JSON: ${error.message}`
    });
    return;
  }
  const runner = await read("pnpm-lock.yaml") !== null ? "pnpm run" : await read("yarn.lock") !== null ? "yarn run" : "npm run";
  for (const name of PACKAGE_SCRIPTS) {
    const script = scripts[name];
    if (typeof script !== "string" || script.trim() === "" || NPM_PLACEHOLDER.test(script))
      continue;
    const command = name === "test" && runner === "npm run" ? "npm test" : `${runner} ${name}`;
    checks.push({ name, command, source: "package.json" });
  }
}
async function pythonChecks(read, checks) {
  const pyproject = await read("pyproject.toml");
  if (pyproject !== null && /^\[tool\.pytest|["'\s]pytest\b/m.test(pyproject)) {
    checks.push({ name: "pytest", command: "python -m pytest", source: "pyproject.toml" });
    return;
  }
  if (await read("pytest.ini") !== null)
    checks.push({ name: "pytest", command: "python -m pytest", source: "pytest.ini" });
}

// src/infrastructure/sandbox/confined-process.ts
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join as join3 } from "node:path";

// src/infrastructure/sandbox/pids-limit.ts
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { mkdir, readFile, rmdir, writeFile } from "node:fs/promises";
import { join as join2 } from "node:path";
var DEFAULT_MAX_PROCESSES = 512;
function mounts() {
  try {
    return readFileSync("/proc/self/mounts", "utf8").split("\n").map((line) => line.split(" ")).filter((fields) => fields.length >= 4).map((fields) => ({
      path: fields[1].replace(/\\040/g, " "),
      type: fields[2],
      options: fields[3].split(",")
    }));
  } catch {
    return [];
  }
}
function ownCgroups() {
  const own = /* @__PURE__ */ new Map();
  try {
    for (const line of readFileSync("/proc/self/cgroup", "utf8").split("\n")) {
      const [, controllers, path] = /^\d+:([^:]*):(.*)$/.exec(line) ?? [];
      if (controllers !== void 0 && path !== void 0) own.set(controllers, path);
    }
  } catch {
  }
  return own;
}
function cgroupParents() {
  const own = ownCgroups();
  const found = [];
  for (const mount of mounts()) {
    if (mount.type === "cgroup2" && own.has("")) {
      const dir = join2(mount.path, own.get(""));
      try {
        const delegated = readFileSync(join2(dir, "cgroup.subtree_control"), "utf8");
        if (delegated.split(/\s+/).includes("pids")) found.push({ mechanism: "cgroup-v2", dir });
      } catch {
      }
    }
  }
  for (const mount of mounts()) {
    if (mount.type === "cgroup" && mount.options.includes("pids")) {
      const path = [...own].find(([controllers]) => controllers.split(",").includes("pids"))?.[1];
      if (path !== void 0) found.push({ mechanism: "cgroup-v1", dir: join2(mount.path, path) });
    }
  }
  return found;
}
async function createCallCgroup(max) {
  for (const parent of cgroupParents()) {
    const dir = join2(parent.dir, `correx-call-${randomUUID()}`);
    try {
      await mkdir(dir);
    } catch {
      continue;
    }
    try {
      await writeFile(join2(dir, "pids.max"), String(max));
      return {
        mechanism: parent.mechanism,
        max,
        procsFile: join2(dir, "cgroup.procs"),
        remove: () => removeCgroup(dir)
      };
    } catch {
      await rmdir(dir).catch(() => void 0);
    }
  }
  return null;
}
async function removeCgroup(dir) {
  for (let attempt = 0; attempt < 50; attempt += 1) {
    try {
      await rmdir(dir);
      return;
    } catch (error) {
      if (error.code === "ENOENT") return;
      const procs = await readFile(join2(dir, "cgroup.procs"), "utf8").catch(() => "");
      for (const pid of procs.split("\n").filter((line) => line !== "")) {
        try {
          process.kill(Number(pid), "SIGKILL");
        } catch {
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
function enrolledArgv(cgroup, argv) {
  return ["/bin/sh", "-c", 'echo $$ > "$0" && exec "$@"', cgroup.procsFile, ...argv];
}
function rlimitArgv(max, argv) {
  return [
    "/bin/sh",
    "-c",
    `{ ulimit -u ${max} || ulimit -p ${max}; } 2>/dev/null && exec "$@"`,
    "sh",
    ...argv
  ];
}

// src/infrastructure/sandbox/process-group.ts
function killProcessGroup(pid) {
  if (pid === void 0) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
  }
}

// src/infrastructure/sandbox/confined-process.ts
async function runConfinedProcess(request, settings) {
  const availability = settings?.availability ?? {
    kind: "none",
    reason: "no sandbox was configured for this runner"
  };
  let proxy = null;
  let proxyDir = null;
  let cgroup = null;
  let command;
  let args;
  let profile;
  try {
    if (availability.kind === "bubblewrap") {
      if (request.egressAllowlist.length > 0) {
        proxyDir = mkdtempSync(join3(tmpdir(), "correx-egress-"));
        proxy = await startEgressProxy({
          socketPath: join3(proxyDir, "proxy.sock"),
          allowlist: request.egressAllowlist,
          ...settings?.resolve === void 0 ? {} : { resolve: settings.resolve }
        });
      }
      const built = buildBubblewrapProfile({
        bwrapPath: availability.bwrapPath,
        userNamespace: availability.userNamespace,
        workspaceRoot: request.workspaceRoot,
        cwd: request.cwd,
        homeDirectory: request.homeDirectory,
        neverWritable: settings?.neverWritable ?? [],
        emptiedFiles: findNeverReadableFiles(request.workspaceRoot, settings?.neverReadable ?? []),
        neverReadable: settings?.neverReadable ?? [],
        ...settings?.systemFolders === void 0 ? {} : { systemFolders: settings.systemFolders },
        hiddenPaths: settings?.hiddenPaths ?? [],
        readablePaths: settings?.readablePaths ?? [],
        searchPath: request.searchPath,
        proxySocket: proxy?.socketPath ?? null,
        allowedHosts: request.egressAllowlist
      });
      const maxProcesses = settings?.maxProcesses ?? DEFAULT_MAX_PROCESSES;
      cgroup = await createCallCgroup(maxProcesses);
      const rlimited = cgroup === null && availability.userNamespace;
      const program = rlimited ? rlimitArgv(maxProcesses, request.argv) : [...request.argv];
      const inside = [
        ...built.args,
        ...proxy === null ? program : [
          process.execPath,
          "-e",
          EGRESS_FORWARDER_SCRIPT,
          "--",
          SANDBOX_PROXY_SOCKET,
          ...program
        ]
      ];
      if (cgroup === null) {
        command = built.command;
        args = inside;
      } else {
        [command = built.command, ...args] = enrolledArgv(cgroup, [built.command, ...inside]);
      }
      const pidsLimit = cgroup !== null ? { max: maxProcesses, mechanism: cgroup.mechanism } : rlimited ? { max: maxProcesses, mechanism: "rlimit-nproc" } : void 0;
      profile = { ...built.profile, ...pidsLimit === void 0 ? {} : { pidsLimit } };
    } else {
      const [program, ...rest] = request.argv;
      command = program;
      args = rest;
      profile = unconfinedProfile(availability.reason);
    }
    const run = await spawnAndWait(command, args, request);
    return {
      ...run,
      profile,
      ...proxy === null ? {} : { egress: proxy.decisions() }
    };
  } finally {
    await cgroup?.remove();
    await proxy?.close();
    if (proxyDir !== null) rmSync(proxyDir, { recursive: true, force: true });
  }
}
function unconfinedProfile(reason) {
  return {
    kind: "none",
    network: "host",
    writable: ["/"],
    readOnly: [],
    hidden: [],
    granted: [],
    allowedHosts: [],
    reason
  };
}
function spawnAndWait(command, args, request) {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(command, args, {
        cwd: request.cwd,
        env: request.env,
        detached: true,
        stdio: ["ignore", "pipe", "pipe"]
      });
    } catch (error) {
      resolve({
        exitCode: null,
        ending: "failed_to_start",
        error: error instanceof Error ? error.message : String(error)
      });
      return;
    }
    let ending = null;
    const stop = (why) => {
      ending ??= why;
      killProcessGroup(child.pid);
    };
    child.stdout.on("data", request.onOutput);
    child.stderr.on("data", request.onOutput);
    child.once("exit", () => killProcessGroup(child.pid));
    const timer = setTimeout(() => stop("timed_out"), request.timeoutMs);
    const onAbort = () => stop("aborted");
    request.signal?.addEventListener("abort", onAbort, { once: true });
    if (request.signal?.aborted === true) onAbort();
    let settled = false;
    const settle = (result) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      resolve(result);
    };
    child.once(
      "error",
      (error) => settle({ exitCode: null, ending: ending ?? "failed_to_start", error: error.message })
    );
    child.once(
      "close",
      (code) => settle({ exitCode: ending === null ? code : null, ending: ending ?? "exited", error: null })
    );
  });
}

// src/infrastructure/tools/exec-tool.ts
import { accessSync, constants as constants2, statSync } from "node:fs";

// src/infrastructure/sandbox/trusted-search-path.ts
import { isAbsolute, relative } from "node:path";
function trustedSearchPath(searchPath, workspaceRoot) {
  const kept = [];
  for (const dir of searchPath.split(":")) {
    if (!isAbsolute(dir) || kept.includes(dir)) continue;
    const rel = relative(workspaceRoot, dir);
    if (rel === "" || !rel.startsWith("..") && !isAbsolute(rel)) continue;
    kept.push(dir);
  }
  return kept.join(":");
}

// src/infrastructure/tools/file-tools.ts
var DEFAULT_FILE_TOOL_TIME_BOUND_MS = 12e4;
var ToolTimeBoundError = class extends CorrexError {
  constructor(name, boundMs) {
    super("tool_time_bound", `${name} did not finish within ${boundMs} ms and was abandoned`);
  }
};
async function withinTimeBound(name, boundMs, work) {
  let timer;
  const bound = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new ToolTimeBoundError(name, boundMs)), boundMs);
  });
  try {
    return await Promise.race([work, bound]);
  } finally {
    clearTimeout(timer);
  }
}
var ToolFailure = class extends CorrexError {
  constructor(message) {
    super("tool_failed", message);
  }
};
function guarded(tool, cap, body, timeBoundMs) {
  const { name } = tool;
  return defineToolExecutor(tool, async (args, context) => {
    const startedAt = performance.now();
    try {
      const work = body(args, context, startedAt);
      return await (timeBoundMs === void 0 ? work : withinTimeBound(name, timeBoundMs, work));
    } catch (error) {
      const code = CorrexError.isInstance(error) ? error.code : void 0;
      const outcome = code === "world_changed" ? "world_changed" : code === "tool_time_bound" ? "timed_out" : code === "unassessed_target" || code === "special_file" ? "refused" : "failed";
      const message = error instanceof Error ? error.message : String(error);
      return buildReceipt({
        outcome,
        text: "",
        error: message,
        startedAt,
        ...cap === void 0 ? {} : { cap }
      });
    }
  });
}
function createReadFileExecutor(options) {
  return guarded(
    readFileTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const { realPath } = await recheckTarget(options.probe, args.path, context);
      const bytes = await readVerifiedFile(realPath);
      const sha = sha256Of(bytes);
      const lines = bytes.toString("utf8").split("\n");
      const start = args.startLine ?? 1;
      const end = args.endLine ?? lines.length;
      if (end < start) throw new ToolFailure(`endLine ${end} is before startLine ${start}`);
      const text = lines.slice(start - 1, end).join("\n");
      return buildReceipt({
        outcome: "succeeded",
        text,
        startedAt,
        files: [{ path: realPath, access: "read", before: sha, after: sha }],
        ...options.maxOutputBytes === void 0 ? {} : { cap: options.maxOutputBytes }
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS
  );
}
function createWriteFileExecutor(options) {
  return guarded(
    writeFileTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const { realPath, observed } = await recheckTarget(options.probe, args.path, context);
      const { content } = args;
      const written = await writeVerifiedFile(realPath, content);
      return buildReceipt({
        outcome: "succeeded",
        text: `wrote ${Buffer.byteLength(content)} bytes`,
        startedAt,
        files: [
          { path: written, access: "write", before: observed.sha256, after: sha256Of(content) }
        ]
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS
  );
}
function createEditFileExecutor(options) {
  return guarded(
    editFileTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const { realPath, observed } = await recheckTarget(options.probe, args.path, context);
      const before = (await readVerifiedFile(realPath)).toString("utf8");
      const { search } = args;
      const first = before.indexOf(search);
      if (first < 0)
        throw new ToolFailure(
          "the search text does not occur in the file; read the file and copy the text exactly"
        );
      const second = before.indexOf(search, first + 1);
      if (second >= 0)
        throw new ToolFailure(
          "the search text occurs more than once; include more surrounding lines so it is unique"
        );
      const after = before.slice(0, first) + args.replace + before.slice(first + search.length);
      const written = await writeVerifiedFile(realPath, after);
      const line = before.slice(0, first).split("\n").length;
      return buildReceipt({
        outcome: "succeeded",
        text: `replaced 1 occurrence at line ${line}`,
        startedAt,
        files: [
          { path: written, access: "write", before: observed.sha256, after: sha256Of(after) }
        ]
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS
  );
}
function createCopyFileExecutor(options) {
  return guarded(
    copyFileTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const source = await recheckTarget(options.probe, args.source, context);
      const destination = await recheckTarget(options.probe, args.destination, context);
      const bytes = await readVerifiedFile(source.realPath);
      const written = await writeVerifiedFile(destination.realPath, bytes);
      const sha = sha256Of(bytes);
      return buildReceipt({
        outcome: "succeeded",
        text: `copied ${bytes.length} bytes`,
        startedAt,
        files: [
          { path: source.realPath, access: "read", before: sha, after: sha },
          { path: written, access: "write", before: destination.observed.sha256, after: sha }
        ]
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS
  );
}
function createMoveFileExecutor(options) {
  return guarded(
    moveFileTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const source = await recheckTarget(options.probe, args.source, context);
      const destination = await recheckTarget(options.probe, args.destination, context);
      if (source.observed.kind !== "file") throw new ToolFailure("move_file moves files only");
      const moved = await moveVerifiedFile(source.realPath, destination.realPath);
      const sha = source.observed.sha256;
      return buildReceipt({
        outcome: "succeeded",
        text: "moved",
        startedAt,
        files: [
          { path: source.realPath, access: "delete", before: source.observed.sha256, after: null },
          { path: moved, access: "write", before: destination.observed.sha256, after: sha }
        ]
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS
  );
}

// src/infrastructure/tools/resolve-executable.ts
import { constants } from "node:fs";
import { access, realpath, stat } from "node:fs/promises";
import { isAbsolute as isAbsolute2, join as join4 } from "node:path";
async function resolveExecutable(argv0, searchPath, cwd) {
  const candidates = argv0.includes("/") ? [isAbsolute2(argv0) ? argv0 : join4(cwd, argv0)] : searchPath.split(":").filter((dir) => isAbsolute2(dir)).map((dir) => join4(dir, argv0));
  for (const candidate of candidates) {
    try {
      if (!(await stat(candidate)).isFile()) continue;
      await access(candidate, constants.X_OK);
      return await realpath(candidate);
    } catch {
    }
  }
  return null;
}

// src/infrastructure/tools/exec-tool.ts
var BASH_PATHS = ["/bin/bash", "/usr/bin/bash", "/usr/local/bin/bash"];
function commandShell(shell, bashPaths = BASH_PATHS) {
  if (shell === "sh") return "/bin/sh";
  const bash = bashPaths.find((path) => isExecutableFile(path));
  if (bash === void 0)
    throw new ToolFailure(
      `this command line runs as \`bash -c\`, but bash is not installed (looked in ${bashPaths.join(", ")}); install bash or give \`argv\` instead`
    );
  return bash;
}
function isExecutableFile(path) {
  try {
    accessSync(path, constants2.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}
function scrubbedEnvironment(home, searchPath) {
  return {
    PATH: searchPath,
    HOME: home,
    LANG: "C.UTF-8",
    LC_ALL: "C.UTF-8",
    TERM: "dumb",
    TMPDIR: "/tmp",
    PAGER: "cat",
    GIT_PAGER: "cat",
    GIT_TERMINAL_PROMPT: "0",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_CONFIG_COUNT: "3",
    GIT_CONFIG_KEY_0: "core.fsmonitor",
    GIT_CONFIG_VALUE_0: "false",
    GIT_CONFIG_KEY_1: "core.hooksPath",
    GIT_CONFIG_VALUE_1: "/dev/null",
    GIT_CONFIG_KEY_2: "core.pager",
    GIT_CONFIG_VALUE_2: "cat"
  };
}
function createExecExecutor(options) {
  const maxTimeoutMs = options.maxTimeoutMs ?? 6e5;
  const recorder = options.changes === false ? null : options.changes ?? createChangeRecorder(
    options.preimages === void 0 ? {} : { preimages: options.preimages }
  );
  return guarded(execTool, options.maxOutputBytes, async (args, context, startedAt) => {
    const cwd = args.cwd === void 0 ? context.roots.workspaceRoot : (await recheckTarget(options.probe, args.cwd, context)).realPath;
    const argv = typeof args.command === "string" ? [commandShell(context.commandShell ?? "sh", options.bashPaths), "-c", args.command] : args.argv;
    if (argv === void 0 || argv.length === 0)
      throw new ToolFailure("exec needs `command` or `argv`");
    const timeoutMs = Math.min(args.timeoutMs ?? options.defaultTimeoutMs ?? 12e4, maxTimeoutMs);
    const searchPath = trustedSearchPath(
      options.searchPath ?? "/usr/local/bin:/usr/bin:/bin",
      context.roots.workspaceRoot
    );
    const executable = await resolveExecutable(argv[0], searchPath, cwd);
    const output = createOutputBuffer(options.maxOutputBytes);
    const baseline = recorder === null ? null : await recorder.before(context.roots.workspaceRoot);
    const run = await runConfinedProcess(
      {
        argv,
        cwd,
        workspaceRoot: context.roots.workspaceRoot,
        homeDirectory: context.roots.homeDirectory,
        env: scrubbedEnvironment(context.roots.homeDirectory, searchPath),
        searchPath,
        egressAllowlist: context.egressAllowlist,
        timeoutMs,
        ...context.signal === void 0 ? {} : { signal: context.signal },
        onOutput: (chunk) => output.push(chunk)
      },
      options.sandbox
    ).catch(async (error2) => {
      if (baseline !== null) await recorder.after(baseline);
      throw error2;
    });
    const outcome = run.ending === "timed_out" || run.ending === "aborted" ? run.ending : run.ending === "exited" && run.exitCode === 0 ? "succeeded" : "failed";
    const error = run.ending === "timed_out" ? `timed out after ${timeoutMs} ms; everything the command started was killed` : run.ending === "aborted" ? "aborted; everything the command started was killed" : run.error !== null ? run.error : run.exitCode === 0 ? null : `exit code ${run.exitCode}`;
    const changes = baseline === null ? null : await recorder.after(baseline);
    return finishReceipt({
      outcome,
      output: output.finish(),
      exitCode: run.exitCode,
      error: changes?.complete === false ? `${error === null ? "" : `${error}; `}the change record is incomplete: the workspace has more than ${CHANGE_SCAN_LIMIT} entries` : error,
      ...changes === null ? {} : { files: changes.files },
      startedAt,
      sandbox: run.profile,
      ...run.egress === void 0 ? {} : { egress: run.egress },
      ...executable === null ? {} : { executable }
    });
  });
}

// src/infrastructure/tools/http-fetch-tool.ts
function createHttpFetchExecutor(options = {}) {
  const doFetch = options.fetch ?? fetch;
  const maxRedirects = options.maxRedirects ?? 5;
  return guarded(
    httpFetchTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      let url = args.url;
      const method = args.method === "HEAD" ? "HEAD" : "GET";
      const hops = [];
      for (let hop = 0; ; hop++) {
        const target = parseUrlTarget(url);
        if (!target.ok) throw new ToolFailure(`refused ${url}: ${target.reason}`);
        if (!hostAllowed(target.host, context.egressAllowlist)) {
          throw new ToolFailure(
            `refused ${target.host}: not on the egress allowlist${hop > 0 ? ` (redirected from ${hops.join(" -> ")})` : ""}`
          );
        }
        hops.push(url);
        const signals = [
          AbortSignal.timeout(options.timeoutMs ?? 3e4),
          ...context.signal ? [context.signal] : []
        ];
        const response = await doFetch(url, {
          method,
          redirect: "manual",
          credentials: "omit",
          signal: AbortSignal.any(signals)
        });
        if (response.status >= 300 && response.status < 400 && response.headers.get("location") !== null) {
          if (hop >= maxRedirects) throw new ToolFailure(`more than ${maxRedirects} redirects`);
          url = new URL(response.headers.get("location"), url).toString();
          await response.body?.cancel();
          continue;
        }
        const output = createOutputBuffer(options.maxOutputBytes);
        output.push(
          `HTTP ${response.status} ${response.statusText}
content-type: ${response.headers.get("content-type") ?? ""}

`
        );
        if (response.body !== null) {
          for await (const chunk of response.body) output.push(Buffer.from(chunk));
        }
        const outcome = response.ok ? "succeeded" : "failed";
        return finishReceipt({
          outcome,
          output: output.finish(),
          exitCode: response.status,
          error: response.ok ? null : `HTTP ${response.status}`,
          startedAt
        });
      }
    }
  );
}

// src/infrastructure/tools/search-tools.ts
import { lstat, readdir } from "node:fs/promises";
import { relative as relative2 } from "node:path";
var MAX_ENTRIES = 5e3;
var MAX_GREP_FILE_BYTES = 4 * 1024 * 1024;
var SKIPPED_DIRECTORIES = /* @__PURE__ */ new Set([".git", "node_modules"]);
async function walk(root, limit) {
  const files = [];
  const pending = [""];
  while (pending.length > 0) {
    const relative3 = pending.shift();
    const entries = await readdir(relative3 === "" ? root : `${root}/${relative3}`, {
      withFileTypes: true
    });
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      const child = relative3 === "" ? entry.name : `${relative3}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRECTORIES.has(entry.name)) pending.push(child);
      } else if (entry.isFile()) {
        files.push(child);
        if (files.length >= limit) return { files, truncated: true };
      }
    }
  }
  return { files, truncated: false };
}
async function directoryOf(options, raw, context) {
  if (raw === void 0) return context.roots.workspaceRoot;
  const { realPath, observed } = await recheckTarget(options.probe, raw, context);
  if (observed.kind !== "directory")
    throw new ToolFailure(`${String(raw ?? ".")} is not a directory`);
  return realPath;
}
function createListDirExecutor(options) {
  return guarded(
    listDirTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const dir = await directoryOf(options, args.path, context);
      const entries = await readdir(dir, { withFileTypes: true });
      const lines = entries.map(
        (entry) => `${visibleText(entry.name)}${entry.isDirectory() ? "/" : entry.isSymbolicLink() ? " -> (symlink)" : ""}`
      ).sort();
      return buildReceipt({
        outcome: "succeeded",
        text: lines.join("\n"),
        startedAt
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS
  );
}
function createGlobExecutor(options) {
  return guarded(
    globTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const dir = await directoryOf(options, args.path, context);
      const { files, truncated } = await walk(dir, MAX_ENTRIES * 10);
      const matches = files.filter((file) => matchGlob(String(args.pattern), file)).slice(0, MAX_ENTRIES);
      const note = truncated ? "\n[walk stopped early: too many files]" : "";
      return buildReceipt({
        outcome: "succeeded",
        text: matches.map(visibleText).join("\n") + note,
        startedAt
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS
  );
}
function createGrepExecutor(options) {
  return guarded(
    grepTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const dir = await directoryOf(options, args.path, context);
      let regex;
      try {
        regex = new RegExp(String(args.pattern), args.ignoreCase === true ? "i" : "");
      } catch (error) {
        throw new ToolFailure(`invalid regular expression: ${error.message}`);
      }
      const maxResults = typeof args.maxResults === "number" ? args.maxResults : 500;
      const { files } = await walk(dir, MAX_ENTRIES * 10);
      const results = [];
      const secret = (file) => {
        const subject = relative2(context.roots.workspaceRoot, `${dir}/${file}`);
        return (options.neverReadable ?? DEFAULT_NEVER_READABLE).some(
          (glob) => !glob.startsWith("~") && !glob.startsWith("/") && matchGlob(glob, subject, { foldCase: true })
        );
      };
      for (const file of files) {
        if (typeof args.glob === "string" && !matchGlob(args.glob, file)) continue;
        if (secret(file)) continue;
        const info = await lstat(`${dir}/${file}`).catch(() => null);
        if (info === null || info.size > MAX_GREP_FILE_BYTES) continue;
        const bytes = await readRegularFileInside(`${dir}/${file}`, dir);
        if (bytes === null) continue;
        if (bytes.subarray(0, 8e3).includes(0)) continue;
        const lines = bytes.toString("utf8").split("\n");
        for (let index = 0; index < lines.length && results.length < maxResults; index++) {
          if (regex.test(lines[index]))
            results.push(`${visibleText(file)}:${index + 1}:${lines[index]}`);
        }
        if (results.length >= maxResults) break;
      }
      return buildReceipt({
        outcome: "succeeded",
        text: results.join("\n"),
        startedAt
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS
  );
}

// src/infrastructure/tools/builtin-tool-executors.ts
function createBuiltinToolExecutors(options = {}) {
  const probe = options.probe ?? createDiskWorldProbe();
  const common = {
    probe,
    ...options.maxOutputBytes === void 0 ? {} : { maxOutputBytes: options.maxOutputBytes },
    ...options.timeBoundMs === void 0 ? {} : { timeBoundMs: options.timeBoundMs }
  };
  const executors = [
    createReadFileExecutor(common),
    createWriteFileExecutor(common),
    createEditFileExecutor(common),
    createListDirExecutor(common),
    createGlobExecutor(common),
    createGrepExecutor(common),
    createExecExecutor({ ...common, ...options.exec }),
    createHttpFetchExecutor({
      ...options.maxOutputBytes === void 0 ? {} : { maxOutputBytes: options.maxOutputBytes },
      ...options.http
    }),
    createCopyFileExecutor(common),
    createMoveFileExecutor(common)
  ];
  return Object.freeze(Object.fromEntries(executors.map((executor) => [executor.name, executor])));
}

// src/infrastructure/kernel/builtin-tool-runner.ts
function createBuiltinToolRunner(options = {}) {
  const executors = options.executors ?? createBuiltinToolExecutors(options);
  return {
    async run(request, signal) {
      const startedAt = Date.now();
      try {
        return await executeToolCall(
          executors,
          request.tool.name,
          { ...request.args },
          {
            callId: request.callId,
            roots: { workspaceRoot: request.workspaceRoot, homeDirectory: request.homeDirectory },
            observations: request.observations,
            egressAllowlist: request.egressAllowlist,
            ...request.commandShell === void 0 ? {} : { commandShell: request.commandShell },
            signal
          }
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          outcome: "failed",
          exitCode: null,
          error: `the ${request.tool.name} executor failed: ${message}`,
          output: "",
          outputBytes: 0,
          outputSha256: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
          truncated: false,
          files: [],
          durationMs: Math.max(0, Date.now() - startedAt)
        };
      }
    }
  };
}

// src/infrastructure/kernel/process-static-analysis-runner.ts
function createProcessStaticAnalysisRunner(options) {
  const timeoutMs = options.timeoutMs ?? 6e5;
  return {
    async run(request, signal) {
      const startedAt = Date.now();
      if (options.refuseUnconfined !== void 0 && !isConfined(options.sandbox))
        return {
          outcome: "failed_to_start",
          exitCode: null,
          output: options.refuseUnconfined,
          outputBytes: Buffer.byteLength(options.refuseUnconfined),
          truncated: false,
          durationMs: 0
        };
      const buffer = createOutputBuffer(options.maxOutputBytes);
      const searchPath = trustedSearchPath(
        options.searchPath ?? process.env.PATH ?? "/usr/local/bin:/usr/bin:/bin",
        request.workspaceRoot
      );
      const run = await runConfinedProcess(
        {
          argv: ["/bin/sh", "-c", request.command],
          cwd: request.workspaceRoot,
          workspaceRoot: request.workspaceRoot,
          homeDirectory: options.homeDirectory,
          env: scrubbedEnvironment(options.homeDirectory, searchPath),
          searchPath,
          egressAllowlist: [],
          timeoutMs,
          signal,
          onOutput: (chunk) => buffer.push(chunk)
        },
        options.sandbox
      );
      if (run.error !== null) buffer.push(run.error);
      const { output, outputBytes, truncated } = buffer.finish();
      return {
        outcome: run.ending === "exited" ? "completed" : run.ending,
        exitCode: run.ending === "exited" ? run.exitCode : null,
        output,
        outputBytes,
        truncated,
        durationMs: Date.now() - startedAt,
        sandbox: run.profile
      };
    }
  };
}
function isConfined(sandbox) {
  return sandbox !== void 0 && sandbox.availability.kind !== "none";
}

export {
  createDiskProjectCheckDetector,
  killProcessGroup,
  runConfinedProcess,
  scrubbedEnvironment,
  createBuiltinToolRunner,
  createProcessStaticAnalysisRunner
};
