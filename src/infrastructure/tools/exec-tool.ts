import { spawn } from 'node:child_process';
import type { WorldProbe } from '../../core/toolintent/world-probe.js';
import { guardedExecutor, ToolFailure } from './file-tools.js';
import { recheckTarget, type ToolExecutor } from './tool-executor.js';
import { createOutputBuffer, finishReceipt } from './tool-receipt-builder.js';

export type ExecToolOptions = {
  readonly probe: WorldProbe;
  readonly maxOutputBytes?: number;
  /** Used when the call names no timeout; calls may ask for less or more, up to `maxTimeoutMs`. */
  readonly defaultTimeoutMs?: number;
  readonly maxTimeoutMs?: number;
  /** The PATH programs are found on; never the workspace. */
  readonly searchPath?: string;
};

/**
 * The only environment a command sees: no inherited variables (so no tokens, keys or proxy
 * settings), a fixed PATH, and git configuration that switches off repository-controlled
 * program execution (fsmonitor, hooks, pagers) in case the repository itself is hostile.
 */
export function scrubbedEnvironment(home: string, searchPath: string): Record<string, string> {
  return {
    PATH: searchPath,
    HOME: home,
    LANG: 'C.UTF-8',
    LC_ALL: 'C.UTF-8',
    TERM: 'dumb',
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
 * `exec`: runs argv directly or a command line through `/bin/sh -c`, in the workspace or a
 * re-checked `cwd` inside it, as the leader of a new process group so the whole group is
 * killed on timeout or abort. Output (stdout and stderr interleaved) is capped; the receipt
 * carries the exit code, the bounded output and the digest of all of it.
 */
export function createExecExecutor(options: ExecToolOptions): ToolExecutor {
  const maxTimeoutMs = options.maxTimeoutMs ?? 600_000;
  const searchPath = options.searchPath ?? '/usr/local/bin:/usr/bin:/bin';
  return guardedExecutor('exec', options.maxOutputBytes, async (args, context, startedAt) => {
    const cwd =
      args.cwd === undefined
        ? context.roots.workspaceRoot
        : (await recheckTarget(options.probe, args.cwd, context)).realPath;
    const argv =
      typeof args.command === 'string'
        ? ['/bin/sh', '-c', args.command]
        : (args.argv as string[] | undefined);
    if (argv === undefined || argv.length === 0)
      throw new ToolFailure('exec needs `command` or `argv`');
    const timeoutMs = Math.min(
      typeof args.timeoutMs === 'number' ? args.timeoutMs : (options.defaultTimeoutMs ?? 120_000),
      maxTimeoutMs,
    );
    const output = createOutputBuffer(options.maxOutputBytes);
    const child = spawn(argv[0]!, argv.slice(1), {
      cwd,
      env: scrubbedEnvironment(context.roots.homeDirectory, searchPath),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    let ending: 'timed_out' | 'aborted' | null = null;
    const killGroup = (why: 'timed_out' | 'aborted') => {
      ending ??= why;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    // When the leader exits, anything it left running in its group (a `cmd &`) is killed too.
    child.once('exit', () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already empty
      }
    });
    const timer = setTimeout(() => killGroup('timed_out'), timeoutMs);
    const onAbort = () => killGroup('aborted');
    context.signal?.addEventListener('abort', onAbort, { once: true });
    if (context.signal?.aborted === true) onAbort();
    const exit = await new Promise<{ code: number | null; error?: Error }>((resolve) => {
      child.once('error', (error) => resolve({ code: null, error }));
      child.once('close', (code) => resolve({ code }));
    });
    clearTimeout(timer);
    context.signal?.removeEventListener('abort', onAbort);
    const outcome =
      ending ?? (exit.error !== undefined ? 'failed' : exit.code === 0 ? 'succeeded' : 'failed');
    const error =
      ending === 'timed_out'
        ? `timed out after ${timeoutMs} ms; the process group was killed`
        : ending === 'aborted'
          ? 'aborted; the process group was killed'
          : exit.error !== undefined
            ? exit.error.message
            : exit.code === 0
              ? null
              : `exit code ${exit.code}`;
    return finishReceipt({
      callId: context.callId,
      tool: 'exec',
      args,
      outcome,
      output: output.finish(),
      exitCode: exit.code,
      error,
      startedAt,
    });
  });
}
