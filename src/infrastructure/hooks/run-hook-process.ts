import { programReadablePaths } from '../sandbox/program-readable-paths.js';
import { spawn } from 'node:child_process';
import type { HookDefinition } from '../../core/toolintent/hook-definition.js';
import { buildBubblewrapProfile } from '../sandbox/bubblewrap-profile.js';
import type { SandboxSettings } from '../sandbox/confined-process.js';
import { killProcessGroup } from '../sandbox/process-group.js';

export type HookProcessOptions = {
  readonly workspaceRoot: string;
  readonly homeDirectory: string;
  /** How hooks are confined; absent or `none`: unconfined. */
  readonly sandbox?: SandboxSettings;
  /** The trusted PATH a hook's program resolves on. */
  readonly searchPath: string;
  /** The most answer kept (bytes of stdout); more is garbage. Default 64 KiB. */
  readonly maxAnswerBytes?: number;
};

export type HookProcessRun = {
  readonly ending: 'exited' | 'timed_out' | 'failed_to_start' | 'aborted';
  readonly exitCode: number | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly overflowed: boolean;
  readonly durationMs: number;
};

const STDERR_TAIL = 2000;

/**
 * Runs one hook to its end: the input as JSON on standard input, stdout collected as its
 * answer, inside the sandbox with no network (a hook is the user's program, but it reads
 * model-chosen arguments), killed with its process group at the timeout.
 */
export function runHookProcess(
  hook: HookDefinition,
  input: unknown,
  options: HookProcessOptions,
  signal?: AbortSignal,
): Promise<HookProcessRun> {
  const startedAt = Date.now();
  const maxAnswer = options.maxAnswerBytes ?? 64 * 1024;
  const availability = options.sandbox?.availability;
  let command = hook.command[0]!;
  let args = hook.command.slice(1);
  if (availability?.kind === 'bubblewrap') {
    const built = buildBubblewrapProfile({
      bwrapPath: availability.bwrapPath,
      userNamespace: availability.userNamespace,
      workspaceRoot: options.workspaceRoot,
      cwd: options.workspaceRoot,
      homeDirectory: options.homeDirectory,
      neverWritable: options.sandbox?.neverWritable ?? [],
      hiddenPaths: options.sandbox?.hiddenPaths ?? [],
      readablePaths: [
        ...(options.sandbox?.readablePaths ?? []),
        ...programReadablePaths(command, args, options.homeDirectory),
      ],
      searchPath: options.searchPath,
      proxySocket: null,
      allowedHosts: [],
    });
    command = built.command;
    args = [...built.args, ...hook.command];
  }
  return new Promise((resolve) => {
    const finish = (run: Omit<HookProcessRun, 'durationMs'>) =>
      resolve({ ...run, durationMs: Math.max(0, Date.now() - startedAt) });
    let child;
    try {
      child = spawn(command, args, {
        cwd: options.workspaceRoot,
        env: { PATH: options.searchPath, HOME: options.homeDirectory, LANG: 'C.UTF-8' },
        detached: true,
        stdio: ['pipe', 'pipe', 'pipe'],
      });
    } catch (error) {
      finish({
        ending: 'failed_to_start',
        exitCode: null,
        stdout: '',
        stderr: error instanceof Error ? error.message : String(error),
        overflowed: false,
      });
      return;
    }
    let stdout = '';
    let stderr = '';
    let overflowed = false;
    let ending: 'timed_out' | 'aborted' | null = null;
    child.stdout.on('data', (chunk: Buffer) => {
      if (stdout.length + chunk.length > maxAnswer) overflowed = true;
      else stdout += chunk.toString('utf8');
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr = (stderr + chunk.toString('utf8')).slice(-STDERR_TAIL);
    });
    // A hook that does not read its input must not fail on a closed pipe.
    child.stdin.on('error', () => undefined);
    child.stdin.end(`${JSON.stringify(input)}\n`);
    const stop = (why: 'timed_out' | 'aborted') => {
      ending ??= why;
      killProcessGroup(child.pid);
    };
    const timer = setTimeout(() => stop('timed_out'), hook.timeoutMs);
    const onAbort = () => stop('aborted');
    signal?.addEventListener('abort', onAbort, { once: true });
    let settled = false;
    const settle = (run: Omit<HookProcessRun, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      killProcessGroup(child.pid);
      finish(run);
    };
    child.once('error', (error) =>
      settle({
        ending: 'failed_to_start',
        exitCode: null,
        stdout,
        stderr: error.message,
        overflowed,
      }),
    );
    child.once('close', (code) =>
      settle({
        ending: ending ?? 'exited',
        exitCode: ending === null ? code : null,
        stdout,
        stderr,
        overflowed,
      }),
    );
  });
}
