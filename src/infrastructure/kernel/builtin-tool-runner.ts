import type { ToolExecution, ToolRunner } from '../../core/kernel/index.js';
import {
  createBuiltinToolExecutors,
  type BuiltinToolExecutorOptions,
} from '../tools/builtin-tool-executors.js';
import { executeToolCall, type ToolExecutor } from '../tools/tool-executor.js';

/**
 * The kernel's ToolRunner port over the built-in tool executors: hands each approved call to its
 * executor with the recorded observations (for the last-moment TOCTOU re-check), the egress
 * allowlist and the abort signal. An executor that throws becomes a `failed` receipt, so the
 * call is closed in the log and the model is told, instead of the session crashing mid-call.
 */
export function createBuiltinToolRunner(
  options: BuiltinToolExecutorOptions & {
    readonly executors?: Readonly<Record<string, ToolExecutor>>;
  } = {},
): ToolRunner {
  const executors = options.executors ?? createBuiltinToolExecutors(options);
  return {
    async run(request, signal): Promise<ToolExecution> {
      const startedAt = Date.now();
      try {
        // The executor says what it did; the envelope (call id, tool, arguments) is the runner's.
        return await executeToolCall(
          executors,
          request.tool.name,
          { ...request.args },
          {
            callId: request.callId,
            roots: { workspaceRoot: request.workspaceRoot, homeDirectory: request.homeDirectory },
            observations: request.observations,
            egressAllowlist: request.egressAllowlist,
            ...(request.commandShell === undefined ? {} : { commandShell: request.commandShell }),
            signal,
          },
        );
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return {
          outcome: 'failed',
          exitCode: null,
          error: `the ${request.tool.name} executor failed: ${message}`,
          output: '',
          outputBytes: 0,
          outputSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
          truncated: false,
          files: [],
          durationMs: Math.max(0, Date.now() - startedAt),
        };
      }
    },
  };
}
