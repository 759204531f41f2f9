import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { DiagnosticsRun, LanguageDiagnostics } from '../../core/kernel/index.js';
import type { LanguageDiagnostic } from '../../core/validation/definition-of-done-events.js';
import { buildBubblewrapProfile } from '../sandbox/bubblewrap-profile.js';
import type { SandboxSettings } from '../sandbox/confined-process.js';
import { scrubbedEnvironment } from '../tools/exec-tool.js';
import { LspConnection } from './lsp-connection.js';

export type TypeScriptDiagnosticsOptions = {
  readonly homeDirectory: string;
  /** The trusted PATH the server runs with. */
  readonly searchPath?: string;
  /** The confinement the server runs under (bubblewrap: no network, host read-only). */
  readonly sandbox?: SandboxSettings;
  /**
   * typescript-language-server publishes diagnostics (it has no LSP 3.17 pull); they are taken
   * as complete once every file has some and the server was quiet this long.
   */
  readonly settleMs?: number;
  /** The most one request may take, server start included. */
  readonly timeoutMs?: number;
};

const require = createRequire(import.meta.url);
const serverPackage = dirname(require.resolve('typescript-language-server/package.json'));
const serverVersion = (require('typescript-language-server/package.json') as { version: string })
  .version;
const bundledTypeScript = dirname(require.resolve('typescript/package.json'));

const SEVERITY: Record<number, LanguageDiagnostic['severity']> = {
  1: 'error',
  2: 'warning',
  3: 'information',
  4: 'hint',
};

type LspDiagnostic = {
  range: { start: { line: number; character: number } };
  severity?: number;
  message: string;
  code?: string | number;
};

/** A started server of one workspace, kept for the session's later requests. */
type RunningServer = {
  readonly connection: LspConnection;
  readonly pull: boolean;
  readonly stderr: string[];
  /** Diagnostics published per URI, with when they came (performance.now()). */
  readonly published: Map<string, { readonly at: number; readonly items: LspDiagnostic[] }>;
  /** The version of each document opened so far (a later request sends didChange). */
  readonly versions: Map<string, number>;
  lastPublish: number;
};

/** What a session's language server tells the person while it works (no event: a status line). */
export type DiagnosticsProgress = (line: string) => void;

/** LanguageDiagnostics that owns processes: whoever builds it closes it at the session's end. */
export type ClosableLanguageDiagnostics = LanguageDiagnostics & { close(): Promise<void> };

/** How often a request still running says so. */
const PROGRESS_EVERY_MS = 5_000;

/**
 * Diagnostics from `typescript-language-server` (an npm dependency of correx) over stdio,
 * inside the sandbox. The server is started on a session's first request and kept for its
 * later ones (tsserver loads the project once, issue #37.7); `close()` stops it, as does a
 * request that failed or was aborted (the next one starts it afresh). Uses LSP 3.17
 * `textDocument/diagnostic` when the server offers it, else the diagnostics it publishes after
 * `didOpen`/`didChange`. The workspace's own TypeScript is used when it has one.
 */
export function createTypeScriptLanguageDiagnostics(
  options: TypeScriptDiagnosticsOptions & { readonly onProgress?: DiagnosticsProgress },
): ClosableLanguageDiagnostics {
  const server = `typescript-language-server ${serverVersion}`;
  const running = new Map<string, RunningServer>();
  const progress = options.onProgress ?? (() => {});
  const stop = async (root: string) => {
    const current = running.get(root);
    running.delete(root);
    await current?.connection.close();
  };
  return {
    async diagnose(request, signal) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      const root = request.workspaceRoot;
      const deadline = started + (options.timeoutMs ?? 60_000);
      const fresh = !running.has(root);
      const count = `${request.files.length} file${request.files.length === 1 ? '' : 's'}`;
      progress(
        `… language server: checking ${count} the session changed${fresh ? ` (starting ${server})` : ''}`,
      );
      let reported = 0;
      const heartbeat = setInterval(
        () =>
          progress(
            `… language server: still checking (${reported} of ${request.files.length} reported, ${Math.round(elapsed() / 1000)} s)`,
          ),
        PROGRESS_EVERY_MS,
      );
      const onAbort = () => void stop(root);
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const live = running.get(root) ?? (await startSession(root, options, deadline, running));
        const uris = request.files.map((file) => pathToFileURL(file).href);
        for (const [index, file] of request.files.entries()) {
          const uri = uris[index]!;
          const text = await readFile(file, 'utf8').catch(() => '');
          const version = live.versions.get(uri);
          if (version !== undefined && live.pull)
            live.connection.notify('textDocument/didChange', {
              textDocument: { uri, version: version + 1 },
              contentChanges: [{ text }],
            });
          else {
            if (version !== undefined) {
              // Published diagnostics that did not change are not published again, so an open
              // document is closed and opened afresh. Closing publishes an empty list at once;
              // an answered request after it proves that list arrived before it is dropped.
              live.connection.notify('textDocument/didClose', { textDocument: { uri } });
              await withDeadline(
                live.connection.request('correx/sync', null).catch(() => null),
                deadline,
                live.stderr,
              );
            }
            // Only what is published after this request's change counts as its answer.
            live.published.delete(uri);
            live.connection.notify('textDocument/didOpen', {
              textDocument: {
                uri,
                languageId: languageOf(file),
                version: (version ?? 0) + 1,
                text,
              },
            });
          }
          live.versions.set(uri, (version ?? 0) + 1);
        }
        const byFile = new Map<string, LspDiagnostic[]>();
        if (live.pull) {
          for (const [index, uri] of uris.entries()) {
            const report = (await withDeadline(
              live.connection.request('textDocument/diagnostic', { textDocument: { uri } }),
              deadline,
              live.stderr,
            )) as { items?: LspDiagnostic[] };
            byFile.set(request.files[index]!, report.items ?? []);
            reported += 1;
          }
        } else {
          const settle = options.settleMs ?? 1_500;
          for (;;) {
            if (signal.aborted) throw new Error('aborted');
            reported = uris.filter((uri) => live.published.has(uri)).length;
            if (reported === uris.length && performance.now() - live.lastPublish >= settle) break;
            if (performance.now() > deadline)
              throw new Error(
                `no complete diagnostics within ${options.timeoutMs ?? 60_000} ms (${reported} of ${uris.length} files reported)`,
              );
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          for (const [index, uri] of uris.entries())
            byFile.set(request.files[index]!, live.published.get(uri)?.items ?? []);
        }
        return {
          server,
          method: live.pull ? 'pull' : 'published',
          files: [...byFile].map(([path, diagnostics]) => ({
            path,
            diagnostics: diagnostics.map(toDiagnostic),
          })),
          error: null,
          durationMs: elapsed(),
        } satisfies DiagnosticsRun;
      } catch (error) {
        // A server that failed (or was stopped) is not trusted with the next request.
        await stop(root);
        return {
          server,
          method: 'unavailable',
          files: [],
          error: (error as Error).message,
          durationMs: elapsed(),
        };
      } finally {
        clearInterval(heartbeat);
        signal.removeEventListener('abort', onAbort);
      }
    },
    async close() {
      await Promise.all([...running.keys()].map((root) => stop(root)));
    },
  };
}

/** Starts the server for a workspace and completes `initialize`; registered in `running`. */
async function startSession(
  root: string,
  options: TypeScriptDiagnosticsOptions,
  deadline: number,
  running: Map<string, RunningServer>,
): Promise<RunningServer> {
  const child = startServer(root, options);
  const stderr: string[] = [];
  child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
  const published: RunningServer['published'] = new Map();
  let live: RunningServer | undefined;
  const connection = new LspConnection(child, (method, params) => {
    if (method !== 'textDocument/publishDiagnostics') return;
    const { uri, diagnostics } = params as { uri: string; diagnostics: LspDiagnostic[] };
    const at = performance.now();
    published.set(uri, { at, items: diagnostics });
    if (live !== undefined) live.lastPublish = at;
  });
  try {
    const rootUri = pathToFileURL(root).href;
    // The workspace's own TypeScript is the model's to write: it runs only confined.
    const local = join(root, 'node_modules', 'typescript');
    const sandboxed = options.sandbox?.availability?.kind === 'bubblewrap';
    const initialized = (await withDeadline(
      connection.request('initialize', {
        // Null, not our pid: inside the sandbox's PID namespace our pid names no process, and
        // the server would take its parent for dead and exit. correx stops it itself.
        processId: null,
        rootUri,
        workspaceFolders: [{ uri: rootUri, name: 'workspace' }],
        capabilities: {
          textDocument: {
            publishDiagnostics: { relatedInformation: false },
            diagnostic: { dynamicRegistration: false },
          },
        },
        initializationOptions: {
          tsserver: {
            path: join(sandboxed && existsSync(local) ? local : bundledTypeScript, 'lib'),
          },
        },
      }),
      deadline,
      stderr,
    )) as { capabilities?: { diagnosticProvider?: unknown } };
    connection.notify('initialized', {});
    live = {
      connection,
      pull: initialized.capabilities?.diagnosticProvider !== undefined,
      stderr,
      published,
      versions: new Map(),
      lastPublish: 0,
    };
    running.set(root, live);
    return live;
  } catch (error) {
    await connection.close();
    throw error;
  }
}

function startServer(
  workspaceRoot: string,
  options: TypeScriptDiagnosticsOptions,
): ChildProcessWithoutNullStreams {
  const searchPath = options.searchPath ?? '/usr/local/bin:/usr/bin:/bin';
  const argv = [process.execPath, join(serverPackage, 'lib', 'cli.mjs'), '--stdio'];
  const env = scrubbedEnvironment(options.homeDirectory, searchPath);
  const availability = options.sandbox?.availability;
  if (availability?.kind !== 'bubblewrap')
    return spawn(argv[0]!, argv.slice(1), { cwd: workspaceRoot, env, stdio: 'pipe' });
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
      ...(options.sandbox?.readablePaths ?? []),
      serverPackage,
      bundledTypeScript,
      dirname(process.execPath),
    ],
    searchPath,
    proxySocket: null,
    allowedHosts: [],
  });
  return spawn(profile.command, [...profile.args, ...argv], {
    cwd: workspaceRoot,
    env,
    stdio: 'pipe',
  });
}

function toDiagnostic(diagnostic: LspDiagnostic): LanguageDiagnostic {
  return {
    line: diagnostic.range.start.line + 1,
    column: diagnostic.range.start.character + 1,
    severity: SEVERITY[diagnostic.severity ?? 1] ?? 'error',
    message: diagnostic.message,
    code: diagnostic.code === undefined ? null : String(diagnostic.code),
  };
}

function languageOf(file: string): string {
  if (/\.tsx$/.test(file)) return 'typescriptreact';
  if (/\.jsx$/.test(file)) return 'javascriptreact';
  if (/\.[cm]?ts$/.test(file)) return 'typescript';
  return 'javascript';
}

async function withDeadline<T>(
  promise: Promise<T>,
  deadline: number,
  stderr: string[],
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new Error(
            `the language server did not answer in time${stderr.length > 0 ? `: ${stderr.join('').slice(-500)}` : ''}`,
          ),
        ),
      Math.max(deadline - performance.now(), 0),
    );
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}
