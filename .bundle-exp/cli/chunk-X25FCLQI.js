import {
  SessionSetupError,
  prepareSession,
  resolveWorkspace
} from "./chunk-4XOSVEIW.js";
import {
  createProviders,
  environmentModel
} from "./chunk-CRPBL2XJ.js";
import {
  createMcpToolSource,
  createRoutingToolRunner
} from "./chunk-KLZQSOCM.js";
import {
  programReadablePaths
} from "./chunk-NPIZSOGE.js";
import {
  withTelemetry
} from "./chunk-COF34Z7E.js";
import {
  addSessionWorktree,
  commitStage,
  derivedSessionWorktree,
  removeSessionWorktree
} from "./chunk-Y6YTVGPA.js";
import {
  DriverLeaseLostError
} from "./chunk-SWJTFAUB.js";
import {
  createBuiltinToolRunner,
  createDiskProjectCheckDetector,
  createProcessStaticAnalysisRunner,
  killProcessGroup,
  scrubbedEnvironment
} from "./chunk-W4KNPWTK.js";
import {
  defaultSearchPath
} from "./chunk-3PPHKKT7.js";
import {
  buildBubblewrapProfile
} from "./chunk-BF55S3NM.js";
import {
  describeSandbox,
  detectSandbox
} from "./chunk-32WDO2ZJ.js";
import {
  createDiskWorldProbe
} from "./chunk-MTLPFOPA.js";
import {
  createPreimageStore,
  preimageDirectory
} from "./chunk-76ZWS4BR.js";
import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
import {
  loadHarnessConfig
} from "./chunk-H6KIDXDK.js";
import {
  DEFAULT_NEVER_READABLE,
  DEFAULT_UNSANDBOXED_EXEC_TIER,
  answerTextOf,
  hookAppliesTo,
  recordCommand,
  recordStart,
  recordedKernelConfig,
  replay,
  replaySession,
  sessionProjection,
  startSession
} from "./chunk-OYJRPCLU.js";
import {
  ApprovalTierSchema,
  isFinalStatus,
  readRecordedWorktree
} from "./chunk-IRD534JB.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/main/compose-host.ts
import { realpathSync } from "node:fs";
import { homedir } from "node:os";

// src/infrastructure/kernel/node-timer.ts
function createNodeTimer() {
  return {
    sleep(ms, signal) {
      return new Promise((resolve) => {
        if (signal.aborted) return resolve();
        const done = () => {
          clearTimeout(handle);
          signal.removeEventListener("abort", done);
          resolve();
        };
        const handle = setTimeout(done, ms);
        signal.addEventListener("abort", done, { once: true });
      });
    }
  };
}

// src/infrastructure/lsp/typescript-language-diagnostics.ts
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";

// src/infrastructure/lsp/lsp-connection.ts
var LanguageServerError = class extends CorrexError {
  constructor(message) {
    super("language_server", message);
  }
};
var LspConnection = class {
  constructor(process2, onNotification) {
    this.process = process2;
    this.onNotification = onNotification;
    process2.stdout.on("data", (chunk) => this.receive(chunk));
    const end = (why) => this.fail(new LanguageServerError(why));
    process2.on("error", (error) => end(`the language server could not run: ${error.message}`));
    process2.on(
      "exit",
      (code, signal) => end(`the language server exited (${signal ?? `code ${code ?? "none"}`})`)
    );
  }
  process;
  onNotification;
  nextId = 1;
  pending = /* @__PURE__ */ new Map();
  buffer = Buffer.alloc(0);
  closed = null;
  request(method, params) {
    if (this.closed !== null) return Promise.reject(this.closed);
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.send({ jsonrpc: "2.0", id, method, params });
    });
  }
  notify(method, params) {
    if (this.closed === null) this.send({ jsonrpc: "2.0", method, params });
  }
  /** `shutdown` then `exit`; the process is killed if it does not go by itself. */
  async close() {
    if (this.closed === null) {
      try {
        await this.request("shutdown", null);
        this.notify("exit", null);
      } catch {
      }
    }
    this.process.kill("SIGKILL");
  }
  send(message) {
    const body = Buffer.from(JSON.stringify(message), "utf8");
    this.process.stdin.write(`Content-Length: ${body.length}\r
\r
`);
    this.process.stdin.write(body);
  }
  receive(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (; ; ) {
      const headerEnd = this.buffer.indexOf("\r\n\r\n");
      if (headerEnd < 0) return;
      const header = this.buffer.subarray(0, headerEnd).toString("ascii");
      const length = /Content-Length:\s*(\d+)/i.exec(header)?.[1];
      if (length === void 0) {
        this.fail(new LanguageServerError(`a message without Content-Length: ${header}`));
        return;
      }
      const start = headerEnd + 4;
      const end = start + Number(length);
      if (this.buffer.length < end) return;
      const body = this.buffer.subarray(start, end).toString("utf8");
      this.buffer = this.buffer.subarray(end);
      this.dispatch(JSON.parse(body));
    }
  }
  dispatch(message) {
    if (message.id !== void 0 && message.method !== void 0) {
      this.send({ jsonrpc: "2.0", id: message.id, result: null });
      return;
    }
    if (message.id !== void 0) {
      const pending = this.pending.get(Number(message.id));
      if (pending === void 0) return;
      this.pending.delete(Number(message.id));
      if (message.error !== void 0)
        pending.reject(new LanguageServerError(`${message.error.message} (${message.error.code})`));
      else pending.resolve(message.result);
      return;
    }
    if (message.method !== void 0) this.onNotification(message.method, message.params);
  }
  fail(error) {
    if (this.closed !== null) return;
    this.closed = error;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
};

// src/infrastructure/lsp/typescript-language-diagnostics.ts
var require2 = createRequire(import.meta.url);
var serverPackage = dirname(require2.resolve("typescript-language-server/package.json"));
var serverVersion = require2("typescript-language-server/package.json").version;
var bundledTypeScript = dirname(require2.resolve("typescript/package.json"));
var SEVERITY = {
  1: "error",
  2: "warning",
  3: "information",
  4: "hint"
};
var PROGRESS_EVERY_MS = 5e3;
function createTypeScriptLanguageDiagnostics(options) {
  const server = `typescript-language-server ${serverVersion}`;
  const running = /* @__PURE__ */ new Map();
  const progress = options.onProgress ?? (() => {
  });
  const stop = async (root) => {
    const current = running.get(root);
    running.delete(root);
    await current?.connection.close();
  };
  return {
    async diagnose(request, signal) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const root = request.workspaceRoot;
      const deadline = started + (options.timeoutMs ?? 6e4);
      const fresh = !running.has(root);
      const count = `${request.files.length} file${request.files.length === 1 ? "" : "s"}`;
      progress(
        `\u2026 language server: checking ${count} the session changed${fresh ? ` (starting ${server})` : ""}`
      );
      let reported = 0;
      const heartbeat = setInterval(
        () => progress(
          `\u2026 language server: still checking (${reported} of ${request.files.length} reported, ${Math.round(elapsed() / 1e3)} s)`
        ),
        PROGRESS_EVERY_MS
      );
      const onAbort = () => void stop(root);
      signal.addEventListener("abort", onAbort, { once: true });
      try {
        const live = running.get(root) ?? await startSession2(root, options, deadline, running);
        const uris = request.files.map((file) => pathToFileURL(file).href);
        for (const [index, file] of request.files.entries()) {
          const uri = uris[index];
          const text = await readFile(file, "utf8").catch(() => "");
          const version = live.versions.get(uri);
          if (version !== void 0 && live.pull)
            live.connection.notify("textDocument/didChange", {
              textDocument: { uri, version: version + 1 },
              contentChanges: [{ text }]
            });
          else {
            if (version !== void 0) {
              live.connection.notify("textDocument/didClose", { textDocument: { uri } });
              await withDeadline(
                live.connection.request("correx/sync", null).catch(() => null),
                deadline,
                live.stderr
              );
            }
            live.published.delete(uri);
            live.connection.notify("textDocument/didOpen", {
              textDocument: {
                uri,
                languageId: languageOf(file),
                version: (version ?? 0) + 1,
                text
              }
            });
          }
          live.versions.set(uri, (version ?? 0) + 1);
        }
        const byFile = /* @__PURE__ */ new Map();
        if (live.pull) {
          for (const [index, uri] of uris.entries()) {
            const report = await withDeadline(
              live.connection.request("textDocument/diagnostic", { textDocument: { uri } }),
              deadline,
              live.stderr
            );
            byFile.set(request.files[index], report.items ?? []);
            reported += 1;
          }
        } else {
          const settle = options.settleMs ?? 1500;
          for (; ; ) {
            if (signal.aborted) throw new Error("aborted");
            reported = uris.filter((uri) => live.published.has(uri)).length;
            if (reported === uris.length && performance.now() - live.lastPublish >= settle) break;
            if (performance.now() > deadline)
              throw new Error(
                `no complete diagnostics within ${options.timeoutMs ?? 6e4} ms (${reported} of ${uris.length} files reported)`
              );
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          for (const [index, uri] of uris.entries())
            byFile.set(request.files[index], live.published.get(uri)?.items ?? []);
        }
        return {
          server,
          method: live.pull ? "pull" : "published",
          files: [...byFile].map(([path, diagnostics]) => ({
            path,
            diagnostics: diagnostics.map(toDiagnostic)
          })),
          error: null,
          durationMs: elapsed()
        };
      } catch (error) {
        await stop(root);
        return {
          server,
          method: "unavailable",
          files: [],
          error: error.message,
          durationMs: elapsed()
        };
      } finally {
        clearInterval(heartbeat);
        signal.removeEventListener("abort", onAbort);
      }
    },
    async close() {
      await Promise.all([...running.keys()].map((root) => stop(root)));
    }
  };
}
async function startSession2(root, options, deadline, running) {
  const child = startServer(root, options);
  const stderr = [];
  child.stderr.on("data", (chunk) => stderr.push(chunk.toString("utf8")));
  const published = /* @__PURE__ */ new Map();
  let live;
  const connection = new LspConnection(child, (method, params) => {
    if (method !== "textDocument/publishDiagnostics") return;
    const { uri, diagnostics } = params;
    const at = performance.now();
    published.set(uri, { at, items: diagnostics });
    if (live !== void 0) live.lastPublish = at;
  });
  try {
    const rootUri = pathToFileURL(root).href;
    const local = join(root, "node_modules", "typescript");
    const sandboxed = options.sandbox?.availability?.kind === "bubblewrap";
    const initialized = await withDeadline(
      connection.request("initialize", {
        // Null, not our pid: inside the sandbox's PID namespace our pid names no process, and
        // the server would take its parent for dead and exit. correx stops it itself.
        processId: null,
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: "workspace" }],
        capabilities: {
          textDocument: {
            publishDiagnostics: { relatedInformation: false },
            diagnostic: { dynamicRegistration: false }
          }
        },
        initializationOptions: {
          tsserver: {
            path: join(sandboxed && existsSync(local) ? local : bundledTypeScript, "lib")
          }
        }
      }),
      deadline,
      stderr
    );
    connection.notify("initialized", {});
    live = {
      connection,
      pull: initialized.capabilities?.diagnosticProvider !== void 0,
      stderr,
      published,
      versions: /* @__PURE__ */ new Map(),
      lastPublish: 0
    };
    running.set(root, live);
    return live;
  } catch (error) {
    await connection.close();
    throw error;
  }
}
function startServer(workspaceRoot, options) {
  const searchPath = options.searchPath ?? "/usr/local/bin:/usr/bin:/bin";
  const argv = [process.execPath, join(serverPackage, "lib", "cli.mjs"), "--stdio"];
  const env = scrubbedEnvironment(options.homeDirectory, searchPath);
  const availability = options.sandbox?.availability;
  if (availability?.kind !== "bubblewrap")
    return spawn(argv[0], argv.slice(1), { cwd: workspaceRoot, env, stdio: "pipe" });
  const profile = buildBubblewrapProfile({
    bwrapPath: availability.bwrapPath,
    userNamespace: availability.userNamespace,
    workspaceRoot,
    cwd: workspaceRoot,
    homeDirectory: options.homeDirectory,
    neverWritable: options.sandbox?.neverWritable ?? [],
    hiddenPaths: options.sandbox?.hiddenPaths ?? [],
    // The server and its TypeScript stay readable even when correx lives under a hidden home.
    readablePaths: [
      ...options.sandbox?.readablePaths ?? [],
      serverPackage,
      bundledTypeScript,
      dirname(process.execPath)
    ],
    searchPath,
    proxySocket: null,
    allowedHosts: []
  });
  return spawn(profile.command, [...profile.args, ...argv], {
    cwd: workspaceRoot,
    env,
    stdio: "pipe"
  });
}
function toDiagnostic(diagnostic) {
  return {
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    severity: SEVERITY[diagnostic.severity ?? 1] ?? "error",
    message: diagnostic.message,
    code: diagnostic.code === void 0 ? null : String(diagnostic.code)
  };
}
function languageOf(file) {
  if (/\.tsx$/.test(file)) return "typescriptreact";
  if (/\.jsx$/.test(file)) return "javascriptreact";
  if (/\.[cm]?ts$/.test(file)) return "typescript";
  return "javascript";
}
async function withDeadline(promise, deadline, stderr) {
  let timer;
  const late = new Promise((_resolve, reject) => {
    timer = setTimeout(
      () => reject(
        new Error(
          `the language server did not answer in time${stderr.length > 0 ? `: ${stderr.join("").slice(-500)}` : ""}`
        )
      ),
      Math.max(deadline - performance.now(), 0)
    );
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

// src/infrastructure/hooks/run-hook-process.ts
import { spawn as spawn2 } from "node:child_process";
var STDERR_TAIL = 2e3;
function runHookProcess(hook, input, options, signal) {
  const startedAt = Date.now();
  const maxAnswer = options.maxAnswerBytes ?? 64 * 1024;
  const availability = options.sandbox?.availability;
  let command = hook.command[0];
  let args = hook.command.slice(1);
  if (availability?.kind === "bubblewrap") {
    const built = buildBubblewrapProfile({
      bwrapPath: availability.bwrapPath,
      userNamespace: availability.userNamespace,
      workspaceRoot: options.workspaceRoot,
      cwd: options.workspaceRoot,
      homeDirectory: options.homeDirectory,
      neverWritable: options.sandbox?.neverWritable ?? [],
      hiddenPaths: options.sandbox?.hiddenPaths ?? [],
      readablePaths: [
        ...options.sandbox?.readablePaths ?? [],
        ...programReadablePaths(command, args, options.homeDirectory)
      ],
      searchPath: options.searchPath,
      proxySocket: null,
      allowedHosts: []
    });
    command = built.command;
    args = [...built.args, ...hook.command];
  }
  return new Promise((resolve) => {
    const finish = (run) => resolve({ ...run, durationMs: Math.max(0, Date.now() - startedAt) });
    let child;
    try {
      child = spawn2(command, args, {
        cwd: options.workspaceRoot,
        env: { PATH: options.searchPath, HOME: options.homeDirectory, LANG: "C.UTF-8" },
        detached: true,
        stdio: ["pipe", "pipe", "pipe"]
      });
    } catch (error) {
      finish({
        ending: "failed_to_start",
        exitCode: null,
        stdout: "",
        stderr: error instanceof Error ? error.message : String(error),
        overflowed: false
      });
      return;
    }
    let stdout = "";
    let stderr = "";
    let overflowed = false;
    let ending = null;
    child.stdout.on("data", (chunk) => {
      if (stdout.length + chunk.length > maxAnswer) overflowed = true;
      else stdout += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk) => {
      stderr = (stderr + chunk.toString("utf8")).slice(-STDERR_TAIL);
    });
    child.stdin.on("error", () => void 0);
    child.stdin.end(`${JSON.stringify(input)}
`);
    const stop = (why) => {
      ending ??= why;
      killProcessGroup(child.pid);
    };
    const timer = setTimeout(() => stop("timed_out"), hook.timeoutMs);
    const onAbort = () => stop("aborted");
    signal?.addEventListener("abort", onAbort, { once: true });
    let settled = false;
    const settle = (run) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      killProcessGroup(child.pid);
      finish(run);
    };
    child.once(
      "error",
      (error) => settle({
        ending: "failed_to_start",
        exitCode: null,
        stdout,
        stderr: error.message,
        overflowed
      })
    );
    child.once(
      "close",
      (code) => settle({
        ending: ending ?? "exited",
        exitCode: ending === null ? code : null,
        stdout,
        stderr,
        overflowed
      })
    );
  });
}

// src/infrastructure/hooks/hook-notifier.ts
var SESSION_ENDINGS = /* @__PURE__ */ new Set(["workflow_completed", "workflow_failed", "workflow_cancelled"]);
function createHookNotifier(hooks, options) {
  const running = [];
  let previous = Promise.resolve();
  const start = (event, list, input) => {
    for (const hook of list) {
      const next = previous.then(
        () => runHookProcess(hook, { event, ...input }, options).then((run) => ({
          hook: hook.name,
          event,
          run
        }))
      );
      previous = next;
      running.push(next);
    }
  };
  return {
    observe(event) {
      const payload = event.payload;
      const base = { sessionId: event.sessionId, sequence: event.sequence };
      if (payload.type === "tool_receipt") {
        const list = hooks.post_tool_use.filter((hook) => hookAppliesTo(hook, payload.tool));
        start("post_tool_use", list, { ...base, receipt: payload });
      } else if (payload.type === "stage_completed" || payload.type === "stage_failed") {
        start("stage_end", hooks.stage_end, { ...base, stage: payload });
      } else if (SESSION_ENDINGS.has(payload.type)) {
        start("session_end", hooks.session_end, { ...base, ending: payload });
      }
    },
    settled: () => Promise.all(running)
  };
}

// src/infrastructure/hooks/process-hook-runner.ts
import { z } from "zod";
var PreToolUseAnswerSchema = z.strictObject({
  decision: z.enum(["allow", "block", "raise"]),
  tier: ApprovalTierSchema.optional(),
  reason: z.string().max(2e3).optional()
});
function createProcessHookRunner(options) {
  return {
    async runPreToolUse(request, signal) {
      const results = [];
      for (const hook of request.hooks) {
        const run = await runHookProcess(
          hook,
          request.input,
          { ...options, workspaceRoot: request.workspaceRoot },
          signal
        );
        results.push(preToolUseResult(hook, run));
        if (signal.aborted) break;
      }
      return results;
    }
  };
}
function preToolUseResult(hook, run) {
  const failed = (outcome, reason2) => ({
    hook: hook.name,
    outcome,
    decision: "block",
    tier: null,
    reason: reason2,
    durationMs: run.durationMs
  });
  const stderr = run.stderr.trim() === "" ? "" : ` (stderr: ${run.stderr.trim().slice(-500)})`;
  if (run.ending === "failed_to_start") return failed("failed_to_start", `${run.stderr}`);
  if (run.ending === "timed_out" || run.ending === "aborted")
    return failed("timed_out", `no answer within ${hook.timeoutMs} ms`);
  if (run.exitCode !== 0) return failed("crashed", `it exited with code ${run.exitCode}${stderr}`);
  if (run.overflowed) return failed("garbage", "its answer is larger than the limit");
  let answer;
  try {
    answer = JSON.parse(run.stdout);
  } catch {
    return failed("garbage", `its answer is not JSON: ${JSON.stringify(run.stdout.slice(0, 200))}`);
  }
  const parsed = PreToolUseAnswerSchema.safeParse(answer);
  if (!parsed.success)
    return failed(
      "garbage",
      `its answer is not a verdict ({"decision":"allow"|"block"|"raise","tier"?,"reason"?}): ${parsed.error.issues[0]?.message ?? "invalid"}`
    );
  const { decision, tier, reason } = parsed.data;
  if (decision === "raise" && tier === void 0)
    return failed("garbage", 'a "raise" answer must name the tier');
  return {
    hook: hook.name,
    outcome: "answered",
    decision,
    tier: decision === "raise" ? tier ?? null : null,
    reason: reason ?? "",
    durationMs: run.durationMs
  };
}

// src/main/live-ports.ts
var UNCONFINED_CHECKS_REFUSED = "not run: no sandbox is available, and a check runs the workspace's own scripts (which the model can write) on the host; install bubblewrap, or set policy.unsandboxedExecTier to T2 in your harness.yaml to accept unconfined checks";
function unconfinedChecksRule(unsandboxedExecTier) {
  return (unsandboxedExecTier ?? DEFAULT_UNSANDBOXED_EXEC_TIER) === "T3" ? { refuseUnconfined: UNCONFINED_CHECKS_REFUSED } : {};
}
function createLivePorts(options) {
  const preimages = options.preimageDirectory === void 0 ? void 0 : createPreimageStore(options.preimageDirectory);
  const mcp = createMcpToolSource({
    ...options,
    env: options.env ?? {},
    ...preimages === void 0 ? {} : { preimages }
  });
  return ({ workspace, providers, config, mcpServers }) => {
    const policy = config.policy.policy;
    const sandbox = {
      availability: options.availability,
      neverWritable: policy.neverWritable,
      neverReadable: policy.neverReadable ?? DEFAULT_NEVER_READABLE,
      hiddenPaths: options.hiddenPaths,
      readablePaths: policy.sandboxReadablePaths ?? []
    };
    const builtin = createBuiltinToolRunner({
      exec: {
        searchPath: options.searchPath,
        sandbox,
        ...preimages === void 0 ? {} : { preimages }
      }
    });
    const usesMcp = [...config.tools.values()].some((tool) => tool.source?.kind === "mcp");
    const mcpRunner = usesMcp && mcpServers !== void 0 ? mcp.runner(mcpServers, workspace, policy) : void 0;
    const hookOptions = {
      homeDirectory: options.homeDirectory,
      sandbox,
      searchPath: options.searchPath
    };
    const diagnostics = createTypeScriptLanguageDiagnostics({
      homeDirectory: options.homeDirectory,
      searchPath: options.searchPath,
      sandbox,
      ...options.progress === void 0 ? {} : { onProgress: options.progress }
    });
    const notifier = config.hooks === void 0 ? void 0 : createHookNotifier(config.hooks, { ...hookOptions, workspaceRoot: workspace });
    return {
      providers,
      tools: mcpRunner === void 0 ? builtin : createRoutingToolRunner(builtin, mcpRunner),
      hooks: createProcessHookRunner(hookOptions),
      ...notifier === void 0 ? {} : { observe: (event) => notifier.observe(event) },
      close: async () => {
        await mcpRunner?.close();
        await diagnostics.close();
        await notifier?.settled();
      },
      probe: createDiskWorldProbe({ hashOnlyUnder: [workspace] }),
      checks: createDiskProjectCheckDetector(),
      // A provider's rate limit (retryAfterMs) is waited out on the real clock.
      timer: createNodeTimer(),
      diagnostics,
      analysis: createProcessStaticAnalysisRunner({
        homeDirectory: options.homeDirectory,
        searchPath: options.searchPath,
        sandbox,
        ...unconfinedChecksRule(policy.unsandboxedExecTier)
      })
    };
  };
}

// src/infrastructure/locks/driver-store.ts
function driverStore(store, sessionId, lock) {
  if (lock === void 0 || lock.epoch === void 0 && lock.lost === void 0) return store;
  const fence = (target) => {
    if (target !== sessionId) return void 0;
    if (lock.lost?.aborted === true)
      throw new DriverLeaseLostError(sessionId, describeLoss(lock.lost.reason));
    return lock.epoch;
  };
  return new Proxy(store, {
    get(target, property, receiver) {
      if (property === "appendAll")
        return async (...[events, options]) => {
          const epoch = fence(events[0]?.sessionId ?? "");
          return target.appendAll(
            events,
            epoch === void 0 ? options : { ...options, driverEpoch: epoch }
          );
        };
      if (property === "append")
        return async (...[event, options]) => {
          const epoch = fence(event.sessionId);
          return target.append(
            event,
            epoch === void 0 ? options : { ...options, driverEpoch: epoch }
          );
        };
      const value = Reflect.get(target, property, receiver);
      return typeof value === "function" ? value.bind(target) : value;
    }
  });
}
function describeLoss(reason) {
  if (reason instanceof DriverLeaseLostError) return reason.reason;
  return reason instanceof Error ? reason.message : String(reason ?? "the lease ended");
}

// src/main/session-worktree.ts
function isolate(request, sessionId, options) {
  const workspace = resolveWorkspace(request.workspace, options);
  const worktree = addSessionWorktree(workspace, sessionId);
  const path = worktree.path;
  return {
    worktree,
    request: { ...request, workspace: path },
    options: options.allowedRoots === void 0 ? options : { ...options, allowedRoots: [...options.allowedRoots, path] }
  };
}
function recordWorktree(worktree) {
  const { path, branch, repository, repositoryGitDir, commonDir, gitDir, base } = worktree;
  return { path, branch, repository, repositoryGitDir, commonDir, gitDir, base };
}
function describeWorktree(worktree) {
  return {
    path: worktree.path,
    branch: worktree.branch,
    base: worktree.base,
    uncommitted: worktree.uncommitted
  };
}
function withStageCommits(sessionId, worktree, options) {
  if (worktree === null) return options.onEvent;
  let lastText = null;
  let accepted = null;
  return (event) => {
    const payload = event.payload;
    if (event.sessionId === sessionId) {
      if (payload.type === "inference_completed") lastText = answerTextOf(payload.result);
      else if (payload.type === "artifact_accepted")
        accepted = { kind: payload.kind, hash: payload.hash, text: lastText };
      else if (payload.type === "stage_completed") {
        try {
          commitStage(worktree, stageMessage(payload.stageId, accepted), {
            sessionId,
            sequence: event.sequence
          });
        } catch (error) {
          options.onError?.(sessionId, error);
        }
        accepted = null;
      }
    }
    options.onEvent?.(event);
  };
}
function stageMessage(stageId, artifact) {
  if (artifact === null) return `${stageId}: stage completed`;
  try {
    const { summary } = JSON.parse(artifact.text ?? "");
    if (typeof summary === "string" && summary.trim() !== "")
      return `${stageId}: ${summary.trim()}`;
  } catch {
  }
  return `${stageId}: accepted ${artifact.kind} artifact ${artifact.hash.slice(0, 12)}`;
}

// src/main/attended-sessions.ts
function createAttendedSessions(store) {
  const held = /* @__PURE__ */ new Map();
  const take = (sessionId) => {
    const entry = held.get(sessionId);
    if (entry === void 0) return void 0;
    held.delete(sessionId);
    entry.stop.abort();
    return entry.lock;
  };
  return {
    async hold(sessionId, lastSequence, lock, wake) {
      const tail = await store.read(sessionId, {
        afterSequence: Math.max(0, lastSequence - 1),
        limit: 1
      });
      const stop = new AbortController();
      held.set(sessionId, { lock, stop });
      const watch = async () => {
        for await (const message of store.subscribe({
          afterPosition: tail[0]?.position ?? 0,
          signal: stop.signal
        })) {
          if (message.type !== "event" || message.event.sessionId !== sessionId) continue;
          if (held.get(sessionId)?.stop === stop) wake();
          return;
        }
      };
      void watch().catch(() => void 0);
    },
    take,
    held: () => [...held.keys()],
    async releaseAll() {
      for (const sessionId of [...held.keys()]) await take(sessionId)?.release();
    }
  };
}

// src/main/session-host.ts
var SHUTDOWN_ACTOR = "correx-shutdown";
function createSessionHost(options) {
  const { store, clock, ids } = options;
  const active = /* @__PURE__ */ new Map();
  const resuming = /* @__PURE__ */ new Map();
  const owned = /* @__PURE__ */ new Set();
  const stop = new AbortController();
  let stopping = false;
  const attended = createAttendedSessions(store);
  const drive = async (sessionId, config, workspace, providers, mcpServers, command, held) => {
    let worktree;
    try {
      worktree = command?.type === "start" ? command.worktree ?? null : await readRecordedWorktree(store, sessionId) ?? derivedSessionWorktree(workspace, sessionId);
    } catch (error) {
      await providers.dispose();
      throw error;
    }
    const onEvent = withStageCommits(sessionId, worktree, options);
    let lock = held;
    try {
      lock ??= await options.locker?.acquire(sessionId);
    } catch (error) {
      await providers.dispose();
      throw error;
    }
    owned.add(sessionId);
    const driving = driverStore(store, sessionId, lock);
    const signal = lock?.lost === void 0 ? stop.signal : AbortSignal.any([stop.signal, lock.lost]);
    const current = {};
    const lostSession = (id, error, held2) => {
      const fenced = CorrexError.isInstance(error) && error.code === "driver_fenced";
      const lost = held2?.lost?.aborted === true;
      if (!fenced && !lost) return error;
      const reason = fenced ? `another process took it (driver epoch ${error.epoch} fenced by ${error.currentEpoch})` : describeLoss(held2.lost.reason);
      options.notice?.(`lost the session ${id}: ${reason}; stopped driving it`);
      return lost && !fenced && !CorrexError.isInstance(error) ? new DriverLeaseLostError(id, reason) : error;
    };
    const entry = {
      current,
      config,
      done: (async () => {
        let pending = command;
        const ports = options.ports({
          workspace,
          providers: providers.providers,
          config,
          mcpServers
        });
        let outcome;
        try {
          for (; ; ) {
            const run = startSession(
              {
                store: driving,
                commandStore: store,
                sessionId,
                config,
                ports,
                clock,
                ids,
                signal,
                ...options.artifacts === void 0 ? {} : { artifacts: options.artifacts },
                ...onEvent === void 0 && ports.observe === void 0 ? {} : {
                  onEvent: (event) => {
                    onEvent?.(event);
                    ports.observe?.(event);
                  }
                }
              },
              pending
            );
            pending = void 0;
            current.run = run;
            outcome = await run.done.catch((error) => {
              throw lostSession(sessionId, error, lock);
            });
            if (lock?.lost?.aborted === true && !isFinalStatus(outcome.status))
              throw lostSession(sessionId, lock.lost.reason, lock);
            if (isFinalStatus(outcome.status) || stopping || outcome.waiting?.kind === "stopped")
              return outcome;
            if (await store.lastSequence(sessionId) > outcome.state.session.lastSequence)
              continue;
            if (outcome.waiting?.kind === "approval" && outcome.waiting.deadline !== void 0)
              wakeAt(sessionId, outcome.waiting.deadline);
            return outcome;
          }
        } finally {
          active.delete(sessionId);
          await ports.close?.();
          const waitsForPerson = outcome?.waiting?.kind === "approval" || outcome?.waiting?.kind === "budget";
          if (options.attendWaiting === true && lock !== void 0 && lock.lost?.aborted !== true && outcome !== void 0 && waitsForPerson && !stopping)
            await attended.hold(sessionId, outcome.state.session.lastSequence, lock, () => {
              if (!stopping && !active.has(sessionId)) wake(sessionId);
            });
          else await lock?.release();
          await providers.dispose();
        }
      })()
    };
    active.set(sessionId, entry);
    return { sessionId, done: entry.done };
  };
  const wakes = (sessionId, command, events) => {
    if (options.recordOnly === true) return false;
    if (command.type === "resume")
      return events.some((event) => event.payload.type === "orchestration_resumed");
    if (command.type === "retry")
      return events.some((event) => event.payload.type === "session_retried");
    return owned.has(sessionId) && (command.type === "approve" || command.type === "deny" || command.type === "redirect" || command.type === "raise_budget");
  };
  const wake = (sessionId) => {
    host.resume(sessionId).then(
      (run) => run.done.catch((error) => options.onError?.(sessionId, error)),
      (error) => options.onError?.(sessionId, error)
    );
  };
  const wakeAt = (sessionId, deadline) => {
    const left = Math.max(0, Date.parse(deadline) - Date.parse(clock.now()));
    setTimeout(() => {
      if (!stopping && !active.has(sessionId)) wake(sessionId);
    }, left).unref();
  };
  const attach = async (sessionId) => {
    if (stopping) throw new SessionSetupError("this host is shutting down");
    const kept = attended.take(sessionId);
    if (kept?.lost?.aborted === true) await kept.release();
    const lock = kept !== void 0 && kept.lost?.aborted !== true ? kept : await options.locker?.acquire(sessionId);
    try {
      const config = await recordedKernelConfig(store, sessionId, nodeSha256);
      const { state } = await replay(store, sessionProjection, sessionId);
      if (state.workspace === null)
        throw new SessionSetupError(`session ${sessionId} has no workspace recorded`);
      const harness = await loadHarnessConfig({
        correxHome: options.correxHome,
        workspace: state.workspace
      });
      const fromEnvironment = harness.models.length === 0 ? environmentModel(options.env) : void 0;
      const providers = await createProviders({
        configs: fromEnvironment === void 0 ? harness.providers : { ...harness.providers, [fromEnvironment.providerName]: fromEnvironment.provider },
        names: providerNames(config),
        env: options.env
      });
      return await drive(
        sessionId,
        config,
        state.workspace,
        providers,
        harness.mcpServers,
        void 0,
        lock
      );
    } catch (error) {
      await lock?.release();
      throw error;
    }
  };
  const begin = async (request, sessionId, isolated) => {
    const setup = await prepareSession(isolated?.request ?? request, isolated?.options ?? options);
    request.checkMode?.(setup.mode);
    for (const listing of setup.mcpServers)
      if (!listing.ok)
        options.notice?.(
          `MCP server ${listing.server} offers no tools to this session: ${listing.error}`
        );
    const worktree = isolated === null ? {} : { worktree: describeWorktree(isolated.worktree) };
    const startCommand = {
      type: "start",
      task: request.task,
      workspace: setup.workspace,
      workflowId: setup.config.workflow.id,
      mode: setup.mode,
      ...setup.modelProfile === void 0 ? {} : { modelProfile: setup.modelProfile },
      ...isolated === null ? {} : { worktree: recordWorktree(isolated.worktree) }
    };
    if (options.recordOnly === true) {
      const outcome = await recordStart(
        { clock, ids },
        store,
        sessionId,
        setup.config,
        startCommand
      );
      return { sessionId, done: Promise.resolve(outcome), ...worktree };
    }
    const providers = await createProviders({
      configs: setup.providers,
      names: providerNames(setup.config),
      env: options.env
    });
    const run = await drive(
      sessionId,
      setup.config,
      setup.workspace,
      providers,
      setup.harness.mcpServers,
      startCommand
    );
    let ended = false;
    void run.done.finally(() => ended = true).catch(() => void 0);
    await firstEvent(store, sessionId, () => ended);
    return { ...run, ...worktree };
  };
  const host = {
    async start(request) {
      if (stopping) throw new SessionSetupError("this host is shutting down");
      const sessionId = ids.next();
      const isolated = request.worktree === true ? isolate(request, sessionId, options) : null;
      try {
        return await begin(request, sessionId, isolated);
      } catch (error) {
        if (isolated !== null && await store.lastSequence(sessionId) === 0)
          try {
            removeSessionWorktree(isolated.worktree);
          } catch (cleanup) {
            options.notice?.(
              `the worktree ${isolated.worktree.path} of a session that failed to start could not be removed: ${cleanup.message}`
            );
          }
        throw error;
      }
    },
    async command(sessionId, command) {
      const run = active.get(sessionId)?.current.run;
      if (run !== void 0) return run.command(command);
      const events = await recordCommand({ clock, ids }, store, sessionId, command);
      if (!stopping && events.length > 0 && wakes(sessionId, command, events)) wake(sessionId);
      return events;
    },
    resume(sessionId) {
      if (options.recordOnly === true)
        return Promise.reject(
          new SessionSetupError("this host drives no sessions (--no-drive): a worker resumes them")
        );
      const entry = active.get(sessionId);
      if (entry !== void 0) return Promise.resolve({ sessionId, done: entry.done });
      let waking = resuming.get(sessionId);
      if (waking === void 0) {
        waking = attach(sessionId).finally(() => resuming.delete(sessionId));
        resuming.set(sessionId, waking);
      }
      return waking;
    },
    async options() {
      const harness = await loadHarnessConfig({ correxHome: options.correxHome });
      const models = harness.models.length > 0 ? harness.models.map((profile) => profile.id) : [environmentModel(options.env)?.profile.id].filter((id) => id !== void 0);
      return {
        workflows: [...harness.workflows.keys()],
        defaultWorkflow: harness.defaults.workflow,
        modelProfiles: models,
        defaultModelProfile: harness.defaults.model ?? null,
        defaultMode: harness.mode
      };
    },
    running: () => [...active.keys()],
    attending: () => attended.held(),
    ...options.drivers === void 0 ? {} : { drivers: options.drivers },
    ...options.lockHolder === void 0 ? {} : { lockHolder: options.lockHolder },
    async replayVerify(sessionId) {
      const report = await replaySession(store, sessionId, void 0, { sha256: nodeSha256 });
      const events = await store.lastSequence(sessionId);
      return report.ok ? { ok: true, events } : { ok: false, events, divergence: report.divergence };
    },
    async shutdown() {
      stopping = true;
      await attended.releaseAll();
      const drives = [...active.entries()];
      for (const [sessionId] of drives) {
        const { state } = await replay(store, sessionProjection, sessionId);
        if (state.status !== "running") continue;
        await recordCommand(
          { clock, ids },
          store,
          sessionId,
          {
            type: "pause",
            by: SHUTDOWN_ACTOR,
            reason: "the correx process is shutting down; it resumes the session on its next start"
          },
          (current) => current.session.status === "running"
        ).catch((error) => options.onError?.(sessionId, error));
      }
      const settled = Promise.allSettled(drives.map(([, entry]) => entry.done));
      const grace = new Promise(
        (done) => setTimeout(done, options.shutdownGraceMs ?? 1e4).unref()
      );
      await Promise.race([settled, grace]);
      stop.abort(new Error("correx is shutting down"));
      await settled;
    }
  };
  return host;
}
async function firstEvent(store, sessionId, ended) {
  while (!ended() && await store.lastSequence(sessionId) === 0)
    await new Promise((done) => setTimeout(done, 10));
}
function providerNames(config) {
  return [...new Set(config.router.profiles.map((profile) => profile.provider))];
}

// src/main/compose-host.ts
async function composeSessionHost(options) {
  const availability = await detectSandbox();
  options.notice(describeSandbox(availability), availability.kind === "none");
  const homeDirectory = realpathSync(homedir());
  const onEvent = (await withTelemetry(options.onEvent, options.env, (line) => options.notice(line, true)))?.onEvent;
  return createSessionHost({
    store: options.store,
    correxHome: options.correxHome,
    homeDirectory,
    env: options.env,
    protectedPaths: options.protectedPaths,
    sandbox: availability.kind,
    locker: options.locker,
    notice: (line) => options.notice(line, true),
    clock: options.clock,
    ids: options.ids,
    mcp: createMcpToolSource({
      homeDirectory,
      hiddenPaths: [options.correxHome, ...options.protectedPaths],
      availability,
      searchPath: defaultSearchPath(),
      env: options.env
    }),
    ports: createLivePorts({
      homeDirectory,
      hiddenPaths: [options.correxHome, ...options.protectedPaths],
      availability,
      preimageDirectory: preimageDirectory(options.correxHome),
      searchPath: defaultSearchPath(),
      env: options.env,
      ...options.progress === void 0 ? {} : { progress: options.progress }
    }),
    ...options.allowedRoots === void 0 ? {} : { allowedRoots: options.allowedRoots },
    ...onEvent === void 0 ? {} : { onEvent },
    ...options.onError === void 0 ? {} : { onError: options.onError },
    ...options.recordOnly === void 0 ? {} : { recordOnly: options.recordOnly },
    ...options.attendWaiting === true ? { attendWaiting: true } : {},
    ...options.drivers === void 0 ? {} : { drivers: options.drivers },
    ...options.lockHolder === void 0 ? {} : { lockHolder: options.lockHolder }
  });
}

export {
  SHUTDOWN_ACTOR,
  composeSessionHost
};
