import { existsSync, mkdirSync } from 'node:fs';
import { userInfo } from 'node:os';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { isatty } from 'node:tty';
import { setFlagsFromString } from 'node:v8';
import { runCli } from '../interfaces/cli/program.js';
import { CorrexError } from '../core/base/correx-error.js';
import { pipeSafe, terminalSafe } from '../interfaces/cli/terminal-safe.js';
import { systemClock } from '../infrastructure/system/system-clock.js';
import { createUuidV7IdSource } from '../infrastructure/system/uuid-v7-id-source.js';
import { endQuietlyOnClosedPipe } from './closed-pipe.js';
import { correxHome, defaultStoreLocation } from './store-location.js';
import { createTerminal } from './terminal.js';
import { fileLockHolder, fileSessionDriver } from './session-driver.js';

/** The composition root of the `correx` executable: real stores, real output, the process's arguments. */
const { version } = createRequire(import.meta.url)('../../package.json') as { version: string };

// The AI SDK prints its own warnings (an unsupported response format...) into the terminal;
// correx records what matters about a model call in the log instead.
(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

// A long replay or run allocates steadily over a small live set, and V8 by default lets the heap
// grow to several times that set between full collections, more the longer it runs. Growing it
// by 20% past the live set keeps a 1M-event replay's peak memory near a 10k one's, at the same
// speed (docs/kernel.md, "Numbers").
setFlagsFromString('--heap-growing-percent=20');

const ids = createUuidV7IdSource();

/** `dist/web` of this install, seen from `dist/main` (built) or `src/main` (run from source). */
function builtWebPage(): string | undefined {
  return ['../web/', '../../dist/web/']
    .map((relative) => fileURLToPath(new URL(relative, import.meta.url)))
    .find((dir) => existsSync(`${dir}index.html`));
}
const terminal = createTerminal();
endQuietlyOnClosedPipe(process.stdout, process.stderr);

/** The OS account's name when the environment names no user (a service, `env -i`). */
function osUserName(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}
// What reaches a terminal never carries an escape correx did not write. A pipe or file is read
// by a terminal later as often as not, so it is guarded too, in JSON's escapes (`--json` keeps
// its exact values); the text views escape recorded text themselves before either guard.
const toStdout = process.stdout.isTTY ? terminalSafe : pipeSafe;
const toStderr = process.stderr.isTTY ? terminalSafe : pipeSafe;

process.exitCode = await runCli(
  {
    version,
    correxHome: correxHome(),
    clock: systemClock,
    ids,
    user: process.env.USER || process.env.USERNAME || osUserName(),
    defaultStore: defaultStoreLocation(),
    async openStores(location, options = {}) {
      // Loaded on first use, so `--help` and usage errors do not pay for database drivers.
      const { openStores, parseStoreLocation } = await import('../infrastructure/open-store.js');
      const parsed = parseStoreLocation(location);
      if (parsed.kind === 'sqlite' && parsed.path !== ':memory:') {
        // A command that starts sessions creates the store ($CORREX_HOME on first use); any
        // other needs one that exists, so a mistyped --store creates no folder and no database.
        if (options.create === true) mkdirSync(dirname(parsed.path), { recursive: true });
        else if (!existsSync(parsed.path))
          throw new CorrexError(
            'store_not_found',
            `no store at ${parsed.path}: nothing was recorded there (check --store, or $CORREX_STORE)`,
          );
      }
      return openStores(location);
    },
    async migrateStore(location, options) {
      const { migrateStore } = await import('../infrastructure/migrate-store.js');
      return migrateStore(location, options);
    },
    async createSessionHost({ store, location, onEvent, drive, attend }) {
      const { parseStoreLocation } = await import('../infrastructure/open-store.js');
      const { composeSessionHost } = await import('./compose-host.js');
      const { driverName } = await import('./compose-worker.js');
      const parsed = parseStoreLocation(location);
      const name = driverName(drive === false ? 'serve' : 'run');
      const locker =
        parsed.kind === 'sqlite'
          ? (
              await import('../infrastructure/locks/file-session-locker.js')
            ).createFileSessionLocker(join(correxHome(), 'locks'), store)
          : (
              await import('../infrastructure/postgres/postgres-session-locker.js')
            ).openPostgresSessionLocker(
              parsed.url,
              (await import('../infrastructure/postgres/postgres-connection.js'))
                .DEFAULT_POSTGRES_SCHEMA,
              { driver: name, ...leaseOption(process.env) },
            );
      // A shared store knows who drives each session, whichever process it is.
      const runnable =
        parsed.kind === 'postgres'
          ? (
              await import('../infrastructure/postgres/postgres-runnable-sessions.js')
            ).openRunnableSessions(parsed.url, name)
          : undefined;
      return composeSessionHost({
        store,
        locker,
        ...(drive === false ? { recordOnly: true } : {}),
        ...(attend === true ? { attendWaiting: true } : {}),
        // A SQLite store's drivers are the live holders of its lock files (a `correx run` in a
        // terminal, this server while it attends a session).
        ...(parsed.kind === 'sqlite'
          ? {
              lockHolder: (sessionId: string) =>
                fileLockHolder(join(correxHome(), 'locks'), sessionId),
            }
          : {}),
        ...(runnable === undefined
          ? {}
          : {
              drivers: async () =>
                new Map((await runnable.sessions.drivers()).map((row) => [row.sessionId, row])),
              driverTakes: (sessionId: string) => runnable.sessions.driverRecords(sessionId),
            }),
        correxHome: correxHome(),
        protectedPaths: parsed.kind === 'sqlite' ? [dirname(resolve(parsed.path))] : [],
        clock: systemClock,
        ids,
        env: process.env,
        ...(onEvent === undefined ? {} : { onEvent }),
        notice: (line, warning) => {
          if (!warning) return;
          terminal.clearStatus();
          process.stderr.write(`correx: ${line}\n`);
        },
        // A check that records nothing until it ends (the language server) says it is at work.
        progress: (line) => {
          terminal.clearStatus();
          process.stderr.write(`  ${toStderr(line)}\n`);
        },
        // What went wrong beside a session's run (a stage commit refused): said, never silent.
        onError: (sessionId, error) => {
          terminal.clearStatus();
          process.stderr.write(
            `correx: session ${sessionId}: ${error instanceof Error ? error.message : String(error)}\n`,
          );
        },
      });
    },
    async sessionDriver(location, sessionId) {
      const { parseStoreLocation } = await import('../infrastructure/open-store.js');
      // Locks of a SQLite store are files in $CORREX_HOME/locks; PostgreSQL's are advisory
      // locks this read-only view does not probe.
      if (parseStoreLocation(location).kind !== 'sqlite') return undefined;
      return fileSessionDriver(join(correxHome(), 'locks'), sessionId);
    },
    async attendSession(location, sessionId) {
      const { parseStoreLocation } = await import('../infrastructure/open-store.js');
      if (parseStoreLocation(location).kind !== 'sqlite') return { release: async () => {} };
      const { createFileSessionLocker } =
        await import('../infrastructure/locks/file-session-locker.js');
      return createFileSessionLocker(join(correxHome(), 'locks')).acquire(sessionId);
    },
    async sessionDrivers(location) {
      const { parseStoreLocation } = await import('../infrastructure/open-store.js');
      const parsed = parseStoreLocation(location);
      if (parsed.kind !== 'postgres') return null;
      const { openRunnableSessions } =
        await import('../infrastructure/postgres/postgres-runnable-sessions.js');
      const runnable = openRunnableSessions(parsed.url, 'correx sessions');
      try {
        const rows = await runnable.sessions.drivers();
        return new Map(rows.map((row) => [row.sessionId, row]));
      } finally {
        await runnable.close();
      }
    },
    async startWorker(options) {
      const { composeWorker } = await import('./compose-worker.js');
      return composeWorker({
        ...leaseOption(process.env),
        ...options,
        correxHome: correxHome(),
        clock: systemClock,
        ids,
        env: process.env,
        notice: (line, unsandboxed) => {
          if (unsandboxed) process.stderr.write(`correx: ${line}\n`);
        },
      });
    },
    async createRouter(store) {
      const { composeRouter } = await import('./compose-router.js');
      return composeRouter({
        store,
        correxHome: correxHome(),
        env: process.env,
        clock: systemClock,
        ids,
      });
    },
    async runDoctor({ store, workspace, probeTimeoutMs }) {
      const { runDoctor } = await import('../infrastructure/doctor/run-doctor.js');
      return runDoctor({
        correxHome: correxHome(),
        store,
        workspace,
        env: process.env,
        ...(probeTimeoutMs === undefined ? {} : { callTimeoutMs: probeTimeoutMs }),
      });
    },
    ...(process.env.OPENAI_BASE_URL
      ? {
          environmentModel: {
            baseUrl: process.env.OPENAI_BASE_URL,
            model: process.env.CORREX_MODEL || process.env.OPENAI_MODEL || undefined,
            apiKeyEnv: process.env.OPENAI_API_KEY ? 'OPENAI_API_KEY' : undefined,
          },
        }
      : {}),
    async telemetry() {
      const { withTelemetry } = await import('./telemetry-hook.js');
      return withTelemetry(undefined, process.env, (line) =>
        process.stderr.write(`correx: ${line}\n`),
      );
    },
    async listMcpServers(workspace) {
      const { listConfiguredMcpServers } = await import('./list-configured-mcp-servers.js');
      return listConfiguredMcpServers({ correxHome: correxHome(), workspace, env: process.env });
    },
    async exportTrace(rootSessionId, eventsBySession, options) {
      const { sessionSpans } = await import('../infrastructure/telemetry/session-spans.js');
      const { exportSessionTrace } =
        await import('../infrastructure/telemetry/otel-trace-export.js');
      const spans = sessionSpans(rootSessionId, (id) => eventsBySession.get(id) ?? []);
      await exportSessionTrace(spans, {
        serviceName: process.env.OTEL_SERVICE_NAME ?? 'correx',
        ...(options.endpoint === undefined
          ? {}
          : { url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` }),
      });
      return { spans: spans.length };
    },
    async *lines(signal) {
      if (signal?.aborted === true) return;
      const reader = createInterface({ input: process.stdin, crlfDelay: Infinity });
      // Closing the reader ends the iteration at once: a Ctrl-C at a prompt needs no Enter.
      const stop = () => reader.close();
      signal?.addEventListener('abort', stop, { once: true });
      try {
        yield* reader;
      } finally {
        signal?.removeEventListener('abort', stop);
        // Stopped early (`/quit` in chat): stdin on a terminal never ends by itself, and a
        // stream still read keeps the process alive.
        reader.close();
        process.stdin.pause();
        process.stdin.unref?.();
      }
    },
    // A service manager stops correx with SIGTERM: the same clean stop as Ctrl-C.
    onInterrupt(handler) {
      process.on('SIGINT', handler);
      process.on('SIGTERM', handler);
      return () => {
        process.off('SIGINT', handler);
        process.off('SIGTERM', handler);
      };
    },
    serverToken: process.env.CORREX_SERVER_TOKEN,
    // Read on use: `process.stdin` sets up a stream (a terminal's, a pipe's) a command that
    // reads nothing from it should not pay for.
    get protocolStreams() {
      return { input: process.stdin, output: process.stdout };
    },
    cwd: process.cwd(),
    webRoot: builtWebPage(),
    ...(isatty(0) ? { ask: terminal.ask } : {}),
    terminal: terminal.isTerminal,
    status: terminal.status,
    out: (text) => {
      terminal.clearStatus();
      process.stdout.write(`${toStdout(text)}\n`);
    },
    err: (text) => {
      terminal.clearStatus();
      process.stderr.write(`${toStderr(text)}\n`);
    },
  },
  process.argv.slice(2),
);

/** The driver lease length `$CORREX_LEASE_MS` asks for (docs/postgres.md), when it is a number. */
function leaseOption(env: NodeJS.ProcessEnv): { leaseMs?: number } {
  const leaseMs = Number(env.CORREX_LEASE_MS);
  return Number.isInteger(leaseMs) && leaseMs > 0 ? { leaseMs } : {};
}
