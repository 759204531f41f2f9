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

/**
 * Diagnostics from `typescript-language-server` (an npm dependency of correx) over stdio,
 * started for one request inside the sandbox and stopped after it, so none outlives a session.
 * Uses LSP 3.17 `textDocument/diagnostic` when the server offers it, else the diagnostics it
 * publishes after `didOpen`. The workspace's own TypeScript is used when it has one.
 */
export function createTypeScriptLanguageDiagnostics(
  options: TypeScriptDiagnosticsOptions,
): LanguageDiagnostics {
  const server = `typescript-language-server ${serverVersion}`;
  return {
    async diagnose(request, signal) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      let connection: LspConnection | null = null;
      try {
        const published = new Map<string, LspDiagnostic[]>();
        let lastPublish = 0;
        const child = startServer(request.workspaceRoot, options);
        const stderr: string[] = [];
        child.stderr.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')));
        connection = new LspConnection(child, (method, params) => {
          if (method !== 'textDocument/publishDiagnostics') return;
          const { uri, diagnostics } = params as { uri: string; diagnostics: LspDiagnostic[] };
          published.set(uri, diagnostics);
          lastPublish = performance.now();
        });
        const onAbort = () => void connection?.close();
        signal.addEventListener('abort', onAbort, { once: true });
        const deadline = started + (options.timeoutMs ?? 60_000);
        const rootUri = pathToFileURL(request.workspaceRoot).href;
        // The workspace's own TypeScript is the model's to write: it runs only confined.
        const local = join(request.workspaceRoot, 'node_modules', 'typescript');
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
        const uris = request.files.map((file) => pathToFileURL(file).href);
        for (const [index, file] of request.files.entries()) {
          const text = await readFile(file, 'utf8').catch(() => '');
          connection.notify('textDocument/didOpen', {
            textDocument: { uri: uris[index], languageId: languageOf(file), version: 1, text },
          });
        }
        const pull = initialized.capabilities?.diagnosticProvider !== undefined;
        const byFile = new Map<string, LspDiagnostic[]>();
        if (pull) {
          for (const [index, uri] of uris.entries()) {
            const report = (await withDeadline(
              connection.request('textDocument/diagnostic', { textDocument: { uri } }),
              deadline,
              stderr,
            )) as { items?: LspDiagnostic[] };
            byFile.set(request.files[index]!, report.items ?? []);
          }
        } else {
          const settle = options.settleMs ?? 1_500;
          for (;;) {
            if (signal.aborted) throw new Error('aborted');
            const all = uris.every((uri) => published.has(uri));
            if (all && performance.now() - lastPublish >= settle) break;
            if (performance.now() > deadline)
              throw new Error(
                `no complete diagnostics within ${options.timeoutMs ?? 60_000} ms (${published.size} of ${uris.length} files reported)`,
              );
            await new Promise((resolve) => setTimeout(resolve, 50));
          }
          for (const [index, uri] of uris.entries())
            byFile.set(request.files[index]!, published.get(uri) ?? []);
        }
        signal.removeEventListener('abort', onAbort);
        return {
          server,
          method: pull ? 'pull' : 'published',
          files: [...byFile].map(([path, diagnostics]) => ({
            path,
            diagnostics: diagnostics.map(toDiagnostic),
          })),
          error: null,
          durationMs: elapsed(),
        } satisfies DiagnosticsRun;
      } catch (error) {
        return {
          server,
          method: 'unavailable',
          files: [],
          error: (error as Error).message,
          durationMs: elapsed(),
        };
      } finally {
        await connection?.close();
      }
    },
  };
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
