/**
 * `correx/runtime`: the Node adapters a live session runs with: the built-in tools and their
 * runner, the world probe, the sandbox, the timer and the static-analysis runner.
 */
export {
  createBuiltinToolExecutors,
  type BuiltinToolExecutorOptions,
} from './infrastructure/tools/builtin-tool-executors.js';
export { createBuiltinToolRunner } from './infrastructure/kernel/builtin-tool-runner.js';
export {
  executeToolCall,
  UnknownToolError,
  WorldChangedError,
  type ToolExecutor,
  type ToolExecutionContext,
  type ToolReceipt,
} from './infrastructure/tools/tool-executor.js';
export {
  createDiskWorldProbe,
  type DiskWorldProbeOptions,
} from './infrastructure/world-probe/disk-world-probe.js';
export {
  detectSandbox,
  describeSandbox,
  type SandboxAvailability,
} from './infrastructure/sandbox/sandbox-availability.js';
export type { SandboxSettings } from './infrastructure/sandbox/confined-process.js';
export { scrubbedEnvironment } from './infrastructure/tools/exec-tool.js';
export { createNodeTimer } from './infrastructure/kernel/node-timer.js';
export {
  createProcessStaticAnalysisRunner,
  type ProcessStaticAnalysisRunnerOptions,
} from './infrastructure/kernel/process-static-analysis-runner.js';
export { nodeSha256 } from './infrastructure/system/node-sha256.js';
