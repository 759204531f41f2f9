import { spawn } from 'node:child_process';
import type { AnalysisRun, StaticAnalysisRunner } from '../../core/kernel/kernel-ports.js';
import { scrubbedEnvironment } from '../tools/exec-tool.js';
import { createOutputBuffer } from '../tools/tool-receipt-builder.js';

export type ProcessStaticAnalysisRunnerOptions = {
  /** Past this the check's process group is killed and the check is `timed_out`. Default 10 minutes. */
  readonly timeoutMs?: number;
  /** Output kept for the record (the tail matters most for diagnostics). Default 64 KiB. */
  readonly maxOutputBytes?: number;
  /** The PATH checks run with (the environment is otherwise scrubbed). */
  readonly searchPath?: string;
  readonly homeDirectory: string;
};

/**
 * Runs definition-of-done checks as `/bin/sh -c <command>` in the workspace, as the leader of a
 * new process group with the same scrubbed environment as the exec tool, so a timeout or an
 * abort kills everything the check started.
 */
export function createProcessStaticAnalysisRunner(
  options: ProcessStaticAnalysisRunnerOptions,
): StaticAnalysisRunner {
  const timeoutMs = options.timeoutMs ?? 600_000;
  const searchPath = options.searchPath ?? process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin';
  return {
    run(request, signal) {
      const startedAt = Date.now();
      const buffer = createOutputBuffer(options.maxOutputBytes);
      return new Promise<AnalysisRun>((resolve) => {
        let settled = false;
        const finish = (outcome: AnalysisRun['outcome'], exitCode: number | null) => {
          if (settled) return;
          settled = true;
          const { output, outputBytes, truncated } = buffer.finish();
          resolve({
            outcome,
            exitCode,
            output,
            outputBytes,
            truncated,
            durationMs: Date.now() - startedAt,
          });
        };
        let child;
        try {
          child = spawn('/bin/sh', ['-c', request.command], {
            cwd: request.workspaceRoot,
            env: scrubbedEnvironment(options.homeDirectory, searchPath),
            detached: true,
            stdio: ['ignore', 'pipe', 'pipe'],
          });
        } catch (error) {
          buffer.push(error instanceof Error ? error.message : String(error));
          finish('failed_to_start', null);
          return;
        }
        let ending: 'timed_out' | 'aborted' | null = null;
        const kill = (why: 'timed_out' | 'aborted') => {
          ending ??= why;
          try {
            if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
          } catch {
            // The group is already gone.
          }
        };
        const timer = setTimeout(() => kill('timed_out'), timeoutMs);
        const onAbort = () => kill('aborted');
        signal.addEventListener('abort', onAbort, { once: true });
        if (signal.aborted) onAbort();
        child.stdout.on('data', (chunk: Buffer) => buffer.push(chunk));
        child.stderr.on('data', (chunk: Buffer) => buffer.push(chunk));
        child.on('error', (error) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          buffer.push(error.message);
          finish('failed_to_start', null);
        });
        child.on('close', (code) => {
          clearTimeout(timer);
          signal.removeEventListener('abort', onAbort);
          finish(ending ?? 'completed', ending === null ? code : null);
        });
      });
    },
  };
}
