import {
  holderAlive
} from "./chunk-RBOQ53MF.js";
import "./chunk-SWJTFAUB.js";
import {
  createUuidV7IdSource,
  systemClock
} from "./chunk-EZ2TTS6C.js";
import {
  EXIT_CODES,
  exitCodeOf
} from "./chunk-UVXJS6JF.js";
import {
  visibleLines,
  visibleLinesJsonEscaped,
  visibleText
} from "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/main/cli.ts
import { existsSync, mkdirSync } from "node:fs";
import { userInfo } from "node:os";
import { createRequire } from "node:module";
import { dirname, join as join3, resolve } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { setFlagsFromString } from "node:v8";

// src/interfaces/cli/program.ts
import { Command, CommanderError } from "commander";
var COMMAND_MODULES = [
  { names: ["init"], load: async () => (await import("./init-command-DULBZ6ZZ.js")).initCommand },
  {
    names: ["doctor"],
    load: async () => (await import("./doctor-command-6RQMUR7C.js")).doctorCommand
  },
  { names: ["demo"], load: async () => (await import("./demo-command-6IHA4EY6.js")).demoCommand },
  {
    names: ["run", "resume"],
    load: async () => (await import("./run-command-6LHX7USJ.js")).runCommands
  },
  {
    names: ["sessions"],
    load: async () => (await import("./sessions-command-LB4LJJLV.js")).sessionsCommand
  },
  { names: ["show"], load: async () => (await import("./show-command-OIIHUYPA.js")).showCommand },
  {
    names: ["events"],
    load: async () => (await import("./events-command-3MDSKCTY.js")).eventsCommand
  },
  { names: ["tail"], load: async () => (await import("./tail-command-DUOVZ4RL.js")).tailCommand },
  {
    names: ["replay"],
    load: async () => (await import("./replay-command-MHQIMSPD.js")).replayCommand
  },
  {
    names: ["compare"],
    load: async () => (await import("./compare-command-4NQSGBM5.js")).compareCommand
  },
  { names: ["eval"], load: async () => (await import("./eval-command-ATZ2Z4YH.js")).evalCommand },
  { names: ["chat"], load: async () => (await import("./chat-command-H7AXDVRP.js")).chatCommand },
  {
    names: ["serve"],
    load: async () => (await import("./serve-command-LEODGGDM.js")).serveCommand
  },
  {
    names: ["worker"],
    load: async () => (await import("./worker-command-2ZWKE2UW.js")).workerCommand
  },
  {
    names: ["branch", "merge", "discard"],
    load: async () => (await import("./worktree-commands-CJM4PX7F.js")).worktreeCommands
  },
  {
    names: ["verify"],
    load: async () => (await import("./verify-command-PH7CGGF2.js")).verifyCommand
  },
  {
    names: ["policy"],
    load: async () => (await import("./policy-command-FMUL4IP5.js")).policyCommand
  },
  { names: ["diff"], load: async () => (await import("./diff-command-SGANRJHE.js")).diffCommand },
  { names: ["undo"], load: async () => (await import("./undo-command-VUISPIHR.js")).undoCommand },
  {
    names: ["grants", "grant", "revoke"],
    load: async () => (await import("./grants-command-VMRWEBMO.js")).grantsCommands
  },
  {
    names: ["approvals", "approve", "deny", "steer", "redirect", "pause", "cancel"],
    load: async () => (await import("./session-commands-TFMQHZED.js")).sessionCommands
  },
  {
    names: ["migrate"],
    load: async () => (await import("./migrate-command-QZMYLTX2.js")).migrateCommand
  },
  {
    names: ["store"],
    load: async () => (await import("./store-command-QGNUITNU.js")).storeCommand
  },
  { names: ["mcp"], load: async () => (await import("./mcp-command-L5EVWQTO.js")).mcpCommand },
  {
    names: ["export"],
    load: async () => (await import("./export-command-YS56GH6Q.js")).exportCommand
  },
  {
    names: ["keys"],
    load: async () => (await import("./provenance-commands-7IAAKXET.js")).keysCommand
  },
  {
    names: ["attest"],
    load: async () => (await import("./provenance-commands-7IAAKXET.js")).attestCommand
  },
  { names: ["gate"], load: async () => (await import("./gate-command-DREFZQRK.js")).gateCommand },
  {
    names: ["trust"],
    load: async () => (await import("./trust-command-KTZABHY2.js")).trustCommand
  }
];
var VALUED_GLOBAL_OPTIONS = /* @__PURE__ */ new Set(["--store"]);
function namedCommand(argv) {
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index];
    if (arg === "--") return null;
    if (VALUED_GLOBAL_OPTIONS.has(arg)) {
      index += 1;
      continue;
    }
    if (arg.startsWith("-")) continue;
    return arg === "help" ? null : arg;
  }
  return null;
}
async function createProgram(context, argv = []) {
  const name = namedCommand(argv);
  const wanted = COMMAND_MODULES.filter((module) => name !== null && module.names.includes(name));
  const versionOnly = name === null && argv.length > 0 && argv.every((arg) => arg === "--version" || arg === "-V");
  const modules = versionOnly ? [] : wanted.length > 0 ? wanted : COMMAND_MODULES;
  const factories = await Promise.all(modules.map((module) => module.load()));
  const program = new Command("correx").description("Run LLM coding agents as deterministic, event-sourced workflows.").version(context.version).option(
    "--store <location>",
    "SQLite file or postgres:// URL (default: $CORREX_STORE, else $CORREX_HOME/correx.db)"
  ).option("--last", "the newest session, in place of a session id").showHelpAfterError("(correx --help lists the commands)").addHelpText(
    "after",
    "\nExit codes: 0 success, 1 failed (a workflow or a verification), 2 usage or configuration error, 3 store unavailable,\n4 waiting for a person (run/resume: an approval, a pause, a budget; resumable), 5 cancelled."
  ).configureOutput({
    writeOut: (text) => context.out(text.trimEnd()),
    writeErr: (text) => context.err(text.trimEnd())
  }).exitOverride();
  for (const command of factories.flatMap((factory) => factory(context))) {
    program.addCommand(inheritSettings(command, program));
  }
  return program;
}
var HINTS = {
  session_not_found: " (see `correx sessions`)"
};
function inheritSettings(command, parent, path = "correx") {
  command.copyInheritedSettings(parent);
  const name = `${path} ${command.name()}`;
  command.showHelpAfterError(`usage: ${name} ${command.usage()}
(${name} --help for more)`);
  for (const child of command.commands) inheritSettings(child, command, name);
  return command;
}
async function runCli(context, argv) {
  let exitCode = 0;
  const program = await createProgram({ ...context, fail: (code = 1) => exitCode = code }, argv);
  try {
    await program.parseAsync(argv, { from: "user" });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError)
      return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    if (CorrexError.isInstance(error)) {
      context.err(`correx: ${error.message}${HINTS[error.code] ?? ""}`);
      return exitCodeOf(error.code);
    }
    throw error;
  }
}

// src/interfaces/cli/terminal-safe.ts
var OWN_COLOURS = new RegExp(`(${String.fromCharCode(27)}\\[(?:0|2|31|32)m)`);
function terminalSafe(text) {
  return text.split(OWN_COLOURS).map((part, index) => index % 2 === 1 ? part : visibleLines(part)).join("");
}
function pipeSafe(text) {
  return text.split(OWN_COLOURS).map((part, index) => index % 2 === 1 ? part : visibleLinesJsonEscaped(part)).join("");
}

// src/main/closed-pipe.ts
function endQuietlyOnClosedPipe(...streams) {
  for (const stream of streams) {
    stream.on("error", (error) => {
      if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw error;
    });
  }
}

// src/main/store-location.ts
import { homedir } from "node:os";
import { join } from "node:path";
function correxHome(env = process.env) {
  return env.CORREX_HOME || join(homedir(), ".correx");
}
function defaultStoreLocation(env = process.env) {
  return env.CORREX_STORE || join(correxHome(env), "correx.db");
}

// src/main/terminal.ts
import { StringDecoder } from "node:string_decoder";
var CTRL_C = "";
var CTRL_D = "";
var BACKSPACE = /* @__PURE__ */ new Set(["\x7F", "\b"]);
var CTRL_U = "";
var ENTER = /* @__PURE__ */ new Set(["\r", "\n"]);
var ESC = "\x1B";
function createTerminal() {
  const stream = process.stderr;
  const isTerminal = stream.isTTY === true;
  let shown = false;
  const clearStatus = () => {
    if (!shown) return;
    stream.write("\r\x1B[2K");
    shown = false;
  };
  return {
    isTerminal,
    status(text) {
      if (!isTerminal) return;
      clearStatus();
      if (text === "") return;
      const width = Math.max(20, (stream.columns || 80) - 1);
      stream.write(text.length > width ? `${text.slice(0, width - 1)}\u2026` : text);
      shown = true;
    },
    clearStatus,
    ask(question, signal) {
      clearStatus();
      return readLineRaw(question, signal);
    }
  };
}
function readLineRaw(question, signal) {
  const input = process.stdin;
  const output = process.stderr;
  return new Promise((resolve2, reject) => {
    if (signal.aborted) return reject(signal.reason);
    let armed = false;
    let discarded = 0;
    let line = "";
    const decoder = new StringDecoder("utf8");
    const wasRaw = input.isRaw;
    const finish = (settle) => {
      input.off("data", onData);
      signal.removeEventListener("abort", onAbort);
      input.setRawMode(wasRaw);
      input.pause();
      settle();
    };
    const onAbort = () => {
      output.write("\n");
      finish(() => reject(signal.reason));
    };
    const onData = (chunk) => {
      if (!armed) {
        discarded += chunk.length;
        return;
      }
      for (const key of decoder.write(chunk)) {
        if (key === CTRL_C) {
          process.kill(process.pid, "SIGINT");
          return;
        }
        if (key === CTRL_D) {
          output.write("^D\n");
          return finish(() => resolve2(null));
        }
        if (ENTER.has(key)) {
          output.write("\n");
          return finish(() => resolve2(line));
        }
        if (BACKSPACE.has(key)) {
          if (line.length > 0) {
            line = [...line].slice(0, -1).join("");
            output.write("\b \b");
          }
        } else if (key === CTRL_U) {
          output.write("\b \b".repeat([...line].length));
          line = "";
        } else if (key === ESC) {
          return;
        } else if (key >= " ") {
          line += key;
          output.write(visibleText(key));
        }
      }
    };
    signal.addEventListener("abort", onAbort, { once: true });
    input.setRawMode(true);
    input.on("data", onData);
    input.resume();
    setImmediate(
      () => setImmediate(() => {
        if (signal.aborted) return;
        armed = true;
        if (discarded > 0)
          output.write(
            `(ignored ${discarded} key${discarded === 1 ? "" : "s"} typed before this question)
`
          );
        output.write(question);
      })
    );
  });
}

// src/main/session-driver.ts
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join as join2 } from "node:path";
function fileSessionDriver(locksDirectory, sessionId) {
  const path = join2(locksDirectory, `${encodeURIComponent(sessionId)}.lock`);
  let holder;
  try {
    holder = JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
  if (typeof holder.pid !== "number" || typeof holder.host !== "string") return null;
  const driver = { pid: holder.pid, host: holder.host };
  if (driver.host !== hostname()) return driver;
  const started = typeof holder.started === "number" ? { started: holder.started } : {};
  return holderAlive({ ...driver, ...started }, path) ? driver : null;
}
function fileLockHolder(locksDirectory, sessionId) {
  const driver = fileSessionDriver(locksDirectory, sessionId);
  return driver === null ? null : `pid ${driver.pid} on ${driver.host}`;
}

// src/main/cli.ts
var { version } = createRequire(import.meta.url)("../../package.json");
globalThis.AI_SDK_LOG_WARNINGS = false;
setFlagsFromString("--heap-growing-percent=20");
var ids = createUuidV7IdSource();
function builtWebPage() {
  return ["../web/", "../../dist/web/"].map((relative) => fileURLToPath(new URL(relative, import.meta.url))).find((dir) => existsSync(`${dir}index.html`));
}
var terminal = createTerminal();
endQuietlyOnClosedPipe(process.stdout, process.stderr);
function osUserName() {
  try {
    return userInfo().username || "unknown";
  } catch {
    return "unknown";
  }
}
var toStdout = process.stdout.isTTY ? terminalSafe : pipeSafe;
var toStderr = process.stderr.isTTY ? terminalSafe : pipeSafe;
process.exitCode = await runCli(
  {
    version,
    correxHome: correxHome(),
    clock: systemClock,
    ids,
    user: process.env.USER || process.env.USERNAME || osUserName(),
    defaultStore: defaultStoreLocation(),
    async openStores(location, options = {}) {
      const { openStores, parseStoreLocation } = await import("./open-store-H3GO6U7U.js");
      const parsed = parseStoreLocation(location);
      if (parsed.kind === "sqlite" && parsed.path !== ":memory:") {
        if (options.create === true) mkdirSync(dirname(parsed.path), { recursive: true });
        else if (!existsSync(parsed.path))
          throw new CorrexError(
            "store_not_found",
            `no store at ${parsed.path}: nothing was recorded there (check --store, or $CORREX_STORE)`
          );
      }
      return openStores(location);
    },
    async migrateStore(location, options) {
      const { migrateStore } = await import("./migrate-store-B7KJ3YJA.js");
      return migrateStore(location, options);
    },
    async createSessionHost({ store, location, onEvent, drive, attend }) {
      const { parseStoreLocation } = await import("./open-store-H3GO6U7U.js");
      const { composeSessionHost } = await import("./compose-host-L5OE7AUC.js");
      const { driverName } = await import("./compose-worker-LZ5UQBU3.js");
      const parsed = parseStoreLocation(location);
      const name = driverName(drive === false ? "serve" : "run");
      const locker = parsed.kind === "sqlite" ? (await import("./file-session-locker-ZKKZIU65.js")).createFileSessionLocker(join3(correxHome(), "locks"), store) : (await import("./postgres-session-locker-DV25O72A.js")).openPostgresSessionLocker(
        parsed.url,
        (await import("./postgres-connection-I6GZXNJS.js")).DEFAULT_POSTGRES_SCHEMA,
        { driver: name, ...leaseOption(process.env) }
      );
      const runnable = parsed.kind === "postgres" ? (await import("./postgres-runnable-sessions-SOKQX635.js")).openRunnableSessions(parsed.url, name) : void 0;
      return composeSessionHost({
        store,
        locker,
        ...drive === false ? { recordOnly: true } : {},
        ...attend === true ? { attendWaiting: true } : {},
        // A SQLite store's drivers are the live holders of its lock files (a `correx run` in a
        // terminal, this server while it attends a session).
        ...parsed.kind === "sqlite" ? {
          lockHolder: (sessionId) => fileLockHolder(join3(correxHome(), "locks"), sessionId)
        } : {},
        ...runnable === void 0 ? {} : {
          drivers: async () => new Map((await runnable.sessions.drivers()).map((row) => [row.sessionId, row]))
        },
        correxHome: correxHome(),
        protectedPaths: parsed.kind === "sqlite" ? [dirname(resolve(parsed.path))] : [],
        clock: systemClock,
        ids,
        env: process.env,
        ...onEvent === void 0 ? {} : { onEvent },
        notice: (line, warning) => {
          if (!warning) return;
          terminal.clearStatus();
          process.stderr.write(`correx: ${line}
`);
        },
        // A check that records nothing until it ends (the language server) says it is at work.
        progress: (line) => {
          terminal.clearStatus();
          process.stderr.write(`  ${toStderr(line)}
`);
        },
        // What went wrong beside a session's run (a stage commit refused): said, never silent.
        onError: (sessionId, error) => {
          terminal.clearStatus();
          process.stderr.write(
            `correx: session ${sessionId}: ${error instanceof Error ? error.message : String(error)}
`
          );
        }
      });
    },
    async sessionDriver(location, sessionId) {
      const { parseStoreLocation } = await import("./open-store-H3GO6U7U.js");
      if (parseStoreLocation(location).kind !== "sqlite") return void 0;
      return fileSessionDriver(join3(correxHome(), "locks"), sessionId);
    },
    async attendSession(location, sessionId) {
      const { parseStoreLocation } = await import("./open-store-H3GO6U7U.js");
      if (parseStoreLocation(location).kind !== "sqlite") return { release: async () => {
      } };
      const { createFileSessionLocker } = await import("./file-session-locker-ZKKZIU65.js");
      return createFileSessionLocker(join3(correxHome(), "locks")).acquire(sessionId);
    },
    async sessionDrivers(location) {
      const { parseStoreLocation } = await import("./open-store-H3GO6U7U.js");
      const parsed = parseStoreLocation(location);
      if (parsed.kind !== "postgres") return null;
      const { openRunnableSessions } = await import("./postgres-runnable-sessions-SOKQX635.js");
      const runnable = openRunnableSessions(parsed.url, "correx sessions");
      try {
        const rows = await runnable.sessions.drivers();
        return new Map(rows.map((row) => [row.sessionId, row]));
      } finally {
        await runnable.close();
      }
    },
    async startWorker(options) {
      const { composeWorker } = await import("./compose-worker-LZ5UQBU3.js");
      return composeWorker({
        ...leaseOption(process.env),
        ...options,
        correxHome: correxHome(),
        clock: systemClock,
        ids,
        env: process.env,
        notice: (line, unsandboxed) => {
          if (unsandboxed) process.stderr.write(`correx: ${line}
`);
        }
      });
    },
    async createRouter(store) {
      const { composeRouter } = await import("./compose-router-JL5YTR7O.js");
      return composeRouter({
        store,
        correxHome: correxHome(),
        env: process.env,
        clock: systemClock,
        ids
      });
    },
    async runDoctor({ store, workspace, probeTimeoutMs }) {
      const { runDoctor } = await import("./run-doctor-ALQFWHDM.js");
      return runDoctor({
        correxHome: correxHome(),
        store,
        workspace,
        env: process.env,
        ...probeTimeoutMs === void 0 ? {} : { callTimeoutMs: probeTimeoutMs }
      });
    },
    ...process.env.OPENAI_BASE_URL ? {
      environmentModel: {
        baseUrl: process.env.OPENAI_BASE_URL,
        model: process.env.CORREX_MODEL || process.env.OPENAI_MODEL || void 0,
        apiKeyEnv: process.env.OPENAI_API_KEY ? "OPENAI_API_KEY" : void 0
      }
    } : {},
    async telemetry() {
      const { withTelemetry } = await import("./telemetry-hook-I4OQ3XXH.js");
      return withTelemetry(
        void 0,
        process.env,
        (line) => process.stderr.write(`correx: ${line}
`)
      );
    },
    async listMcpServers(workspace) {
      const { listConfiguredMcpServers } = await import("./list-configured-mcp-servers-5I3K4KZZ.js");
      return listConfiguredMcpServers({ correxHome: correxHome(), workspace, env: process.env });
    },
    async exportTrace(rootSessionId, eventsBySession, options) {
      const { sessionSpans } = await import("./session-spans-4RDWQRPN.js");
      const { exportSessionTrace } = await import("./otel-trace-export-JKQRB6TP.js");
      const spans = sessionSpans(rootSessionId, (id) => eventsBySession.get(id) ?? []);
      await exportSessionTrace(spans, {
        serviceName: process.env.OTEL_SERVICE_NAME ?? "correx",
        ...options.endpoint === void 0 ? {} : { url: `${options.endpoint.replace(/\/+$/, "")}/v1/traces` }
      });
      return { spans: spans.length };
    },
    async *lines(signal) {
      if (signal?.aborted === true) return;
      const reader = createInterface({ input: process.stdin, crlfDelay: Infinity });
      const stop = () => reader.close();
      signal?.addEventListener("abort", stop, { once: true });
      try {
        yield* reader;
      } finally {
        signal?.removeEventListener("abort", stop);
        reader.close();
        process.stdin.pause();
        process.stdin.unref?.();
      }
    },
    // A service manager stops correx with SIGTERM: the same clean stop as Ctrl-C.
    onInterrupt(handler) {
      process.on("SIGINT", handler);
      process.on("SIGTERM", handler);
      return () => {
        process.off("SIGINT", handler);
        process.off("SIGTERM", handler);
      };
    },
    serverToken: process.env.CORREX_SERVER_TOKEN,
    protocolStreams: { input: process.stdin, output: process.stdout },
    cwd: process.cwd(),
    webRoot: builtWebPage(),
    ...process.stdin.isTTY ? { ask: terminal.ask } : {},
    terminal: terminal.isTerminal,
    status: terminal.status,
    out: (text) => {
      terminal.clearStatus();
      process.stdout.write(`${toStdout(text)}
`);
    },
    err: (text) => {
      terminal.clearStatus();
      process.stderr.write(`${toStderr(text)}
`);
    }
  },
  process.argv.slice(2)
);
function leaseOption(env) {
  const leaseMs = Number(env.CORREX_LEASE_MS);
  return Number.isInteger(leaseMs) && leaseMs > 0 ? { leaseMs } : {};
}
