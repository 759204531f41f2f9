import type { AnalysisRun, StaticAnalysisRunner } from '../../core/kernel/index.js';
import { runConfinedProcess, type SandboxSettings } from '../sandbox/confined-process.js';
import { trustedSearchPath } from '../sandbox/trusted-search-path.js';
import { scrubbedEnvironment } from '../tools/exec-tool.js';
import { createOutputBuffer } from '../tools/tool-receipt-builder.js';

export type ProcessStaticAnalysisRunnerOptions = {
  /** Past this the check's processes are killed and the check is `timed_out`. Default 10 minutes. */
  readonly timeoutMs?: number;
  /** Output kept for the record (the tail matters most for diagnostics). Default 64 KiB. */
  readonly maxOutputBytes?: number;
  /** The PATH checks run with (the environment is otherwise scrubbed); never the workspace. */
  readonly searchPath?: string;
  readonly homeDirectory: string;
  /** The confinement checks run under, as for `exec` but never with network; absent means none. */
  readonly sandbox?: SandboxSettings;
  /**
   * Set when no sandbox confines the checks and the policy wants a person to approve every
   * unconfined command: the checks are then not run, and this says why. A check runs the
   * workspace's own scripts (package.json, a Makefile), which the model can write, so running
   * it unconfined and unapproved would run the model's code on the host.
   */
  readonly refuseUnconfined?: string;
};

/**
 * Runs definition-of-done checks as `/bin/sh -c <command>` in the workspace with the same
 * scrubbed environment and sandbox as the exec tool (no network: a check has no egress
 * allowlist), so a timeout or an abort kills everything the check started.
 */
export function createProcessStaticAnalysisRunner(
  options: ProcessStaticAnalysisRunnerOptions,
): StaticAnalysisRunner {
  const timeoutMs = options.timeoutMs ?? 600_000;
  return {
    async run(request, signal): Promise<AnalysisRun> {
      const startedAt = Date.now();
      if (options.refuseUnconfined !== undefined && !isConfined(options.sandbox))
        return {
          outcome: 'failed_to_start',
          exitCode: null,
          output: options.refuseUnconfined,
          outputBytes: Buffer.byteLength(options.refuseUnconfined),
          truncated: false,
          durationMs: 0,
        };
      const buffer = createOutputBuffer(options.maxOutputBytes);
      const searchPath = trustedSearchPath(
        options.searchPath ?? process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
        request.workspaceRoot,
      );
      const run = await runConfinedProcess(
        {
          argv: ['/bin/sh', '-c', request.command],
          cwd: request.workspaceRoot,
          workspaceRoot: request.workspaceRoot,
          homeDirectory: options.homeDirectory,
          env: scrubbedEnvironment(options.homeDirectory, searchPath),
          searchPath,
          egressAllowlist: [],
          timeoutMs,
          signal,
          onOutput: (chunk) => buffer.push(chunk),
        },
        options.sandbox,
      );
      if (run.error !== null) buffer.push(run.error);
      const { output, outputBytes, truncated } = buffer.finish();
      return {
        outcome: run.ending === 'exited' ? 'completed' : run.ending,
        exitCode: run.ending === 'exited' ? run.exitCode : null,
        output,
        outputBytes,
        truncated,
        durationMs: Date.now() - startedAt,
        sandbox: run.profile,
      };
    },
  };
}

function isConfined(sandbox: SandboxSettings | undefined): boolean {
  return sandbox !== undefined && sandbox.availability.kind !== 'none';
}
