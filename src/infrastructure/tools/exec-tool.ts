import { execTool } from '../../core/tools/builtin-tools.js';
import { accessSync, constants, statSync } from 'node:fs';
import type { WorldProbe } from '../../core/toolintent/world-probe.js';
import { runConfinedProcess, type SandboxSettings } from '../sandbox/confined-process.js';
import { trustedSearchPath } from '../sandbox/trusted-search-path.js';
import type { PreimageStore } from '../sandbox/preimage-store.js';
import {
  CHANGE_SCAN_LIMIT,
  createChangeRecorder,
  type ChangeRecorder,
} from '../sandbox/workspace-changes.js';
import { guardedExecutor, ToolFailure } from './file-tools.js';
import { resolveExecutable } from './resolve-executable.js';
import { recheckTarget, type ToolExecutor } from './tool-executor.js';
import { createOutputBuffer, finishReceipt } from './tool-receipt-builder.js';
import { createLiveOutputTap, type CallOutputObserver } from './live-output-tap.js';

export type ExecToolOptions = {
  readonly probe: WorldProbe;
  readonly maxOutputBytes?: number;
  /** Used when the call names no timeout; calls may ask for less or more, up to `maxTimeoutMs`. */
  readonly defaultTimeoutMs?: number;
  readonly maxTimeoutMs?: number;
  /** The PATH programs are found on; entries inside the workspace are dropped. */
  readonly searchPath?: string;
  /** The confinement commands run under; absent means none, recorded as `sandbox: none`. */
  readonly sandbox?: SandboxSettings;
  /**
   * Compares the workspace before and after each command and lists what it created, modified
   * or deleted in the receipt's `files`; `false` records nothing. Default: one recorder per
   * executor, so hashes are reused between its calls.
   */
  readonly changes?: ChangeRecorder | false;
  /** Where the default recorder keeps pre-images of the files commands change (none: hashes only). */
  readonly preimages?: PreimageStore;
  /** Told what each command prints while it runs (a live view; the receipt is the record). */
  readonly onLiveOutput?: CallOutputObserver;
  /** Where bash is looked for when a command line runs as `bash -c` (default BASH_PATHS). */
  readonly bashPaths?: readonly string[];
};

/** Fixed places, never the PATH (which a workspace could shadow): the first that exists runs bash lines. */
export const BASH_PATHS: readonly string[] = ['/bin/bash', '/usr/bin/bash', '/usr/local/bin/bash'];

/**
 * The program a command line runs under. Bash (flag `exec-bash`) is refused, not replaced by
 * `sh`, when missing: the line was judged as bash, and `sh` would read it differently.
 */
function commandShell(shell: 'bash' | 'sh', bashPaths: readonly string[] = BASH_PATHS): string {
  if (shell === 'sh') return '/bin/sh';
  const bash = bashPaths.find((path) => isExecutableFile(path));
  if (bash === undefined)
    throw new ToolFailure(
      `this command line runs as \`bash -c\`, but bash is not installed (looked in ${bashPaths.join(', ')}); install bash or give \`argv\` instead`,
    );
  return bash;
}

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The only environment a command sees, an allowlist: no inherited variables (so no tokens,
 * keys, LD_PRELOAD, NODE_OPTIONS, GIT_* or proxy settings), a fixed PATH, and git configuration that switches off repository-controlled
 * program execution (fsmonitor, hooks, pagers) in case the repository itself is hostile.
 */
export function scrubbedEnvironment(home: string, searchPath: string): Record<string, string> {
  return {
    PATH: searchPath,
    HOME: home,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'dumb',
    TMPDIR: '/tmp',
    PAGER: 'cat',
    GIT_PAGER: 'cat',
    GIT_TERMINAL_PROMPT: '0',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_COUNT: '3',
    GIT_CONFIG_KEY_0: 'core.fsmonitor',
    GIT_CONFIG_VALUE_0: 'false',
    GIT_CONFIG_KEY_1: 'core.hooksPath',
    GIT_CONFIG_VALUE_1: '/dev/null',
    GIT_CONFIG_KEY_2: 'core.pager',
    GIT_CONFIG_VALUE_2: 'cat',
  };
}

/**
 * `exec`: runs argv directly or a command line through `/bin/sh -c` (`bash -c` when the
 * context says so, flag `exec-bash`), in the workspace or a
 * re-checked `cwd` inside it, under the configured sandbox (see runConfinedProcess): on a
 * timeout or abort everything it started is killed. Output (stdout and stderr interleaved) is
 * capped; the receipt carries the exit code, the bounded output, the digest of all of it, the
 * sandbox profile the command ran under and the egress proxy's decisions.
 */
export function createExecExecutor(options: ExecToolOptions): ToolExecutor {
  const maxTimeoutMs = options.maxTimeoutMs ?? 600_000;
  const recorder =
    options.changes === false
      ? null
      : (options.changes ??
        createChangeRecorder(
          options.preimages === undefined ? {} : { preimages: options.preimages },
        ));
  return guardedExecutor(execTool, options.maxOutputBytes, async (args, context, startedAt) => {
    const cwd =
      args.cwd === undefined
        ? context.roots.workspaceRoot
        : (await recheckTarget(options.probe, args.cwd, context)).realPath;
    const argv =
      typeof args.command === 'string'
        ? [commandShell(context.commandShell ?? 'sh', options.bashPaths), '-c', args.command]
        : args.argv;
    if (argv === undefined || argv.length === 0)
      throw new ToolFailure('exec needs `command` or `argv`');
    const timeoutMs = Math.min(args.timeoutMs ?? options.defaultTimeoutMs ?? 120_000, maxTimeoutMs);
    const searchPath = trustedSearchPath(
      options.searchPath ?? '/usr/local/bin:/usr/bin:/bin',
      context.roots.workspaceRoot,
    );
    const executable = await resolveExecutable(argv[0]!, searchPath, cwd);
    const output = createOutputBuffer(options.maxOutputBytes);
    const live =
      options.onLiveOutput === undefined
        ? undefined
        : createLiveOutputTap(context.callId, options.onLiveOutput);
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
        ...(context.signal === undefined ? {} : { signal: context.signal }),
        onOutput: (chunk) => {
          output.push(chunk);
          live?.push(chunk);
        },
      },
      options.sandbox,
    ).catch(async (error: unknown) => {
      live?.end();
      // The command never ran to an ending: close the record (its journal window) and fail.
      if (baseline !== null) await recorder!.after(baseline);
      throw error;
    });
    live?.end();
    const outcome =
      run.ending === 'timed_out' || run.ending === 'aborted'
        ? run.ending
        : run.ending === 'exited' && run.exitCode === 0
          ? 'succeeded'
          : 'failed';
    const error =
      run.ending === 'timed_out'
        ? `timed out after ${timeoutMs} ms; everything the command started was killed`
        : run.ending === 'aborted'
          ? 'aborted; everything the command started was killed'
          : run.error !== null
            ? run.error
            : run.exitCode === 0
              ? null
              : `exit code ${run.exitCode}`;
    // Compared whatever the ending: a killed command's partial writes are changes too.
    const changes = baseline === null ? null : await recorder!.after(baseline);
    return finishReceipt({
      outcome,
      output: output.finish(),
      exitCode: run.exitCode,
      error:
        changes?.complete === false
          ? `${error === null ? '' : `${error}; `}the change record is incomplete: the workspace has more than ${CHANGE_SCAN_LIMIT} entries`
          : error,
      ...(changes === null ? {} : { files: changes.files }),
      startedAt,
      sandbox: run.profile,
      ...(run.egress === undefined ? {} : { egress: run.egress }),
      ...(executable === null ? {} : { executable }),
    });
  });
}
