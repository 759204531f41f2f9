import { scrubbedEnvironment } from '../tools/exec-tool.js';
import { createOutputBuffer } from '../tools/tool-receipt-builder.js';
import { defaultSearchPath } from '../system/default-search-path.js';
import { runConfinedProcess, type SandboxSettings } from './confined-process.js';

export type WorkspaceCheckResult = {
  readonly passed: boolean;
  /** Exit code, or how the process ended when it did not exit (timed out, killed...). */
  readonly ending: number | string;
  /** What it printed (bounded as a tool's output is), then any error running it. */
  readonly output: string;
};

/**
 * A project's own check (its tests) run on a workspace after a session, with the confinement a
 * command of the session gets, since it runs the code the model wrote: the demo's tests and an
 * eval task's scoring command.
 */
export async function runWorkspaceCheck(
  argv: readonly string[],
  workspace: string,
  homeDirectory: string,
  sandbox: SandboxSettings,
  timeoutMs: number,
): Promise<WorkspaceCheckResult> {
  const output = createOutputBuffer();
  const searchPath = defaultSearchPath();
  const run = await runConfinedProcess(
    {
      argv: [...argv],
      cwd: workspace,
      workspaceRoot: workspace,
      homeDirectory,
      env: scrubbedEnvironment(homeDirectory, searchPath),
      searchPath,
      egressAllowlist: [],
      timeoutMs,
      onOutput: (chunk) => output.push(chunk),
    },
    sandbox,
  );
  return {
    passed: run.ending === 'exited' && run.exitCode === 0,
    ending: run.exitCode ?? run.ending,
    output: output.finish().output + (run.error ?? ''),
  };
}
