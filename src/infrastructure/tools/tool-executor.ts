import { layeredGet, type LayeredRecord } from '../../core/base/layered-record.js';
import { CorrexError } from '../../core/base/correx-error.js';
import type { PayloadOf } from '../../core/events/event-definition.js';
import type { WorldObservation } from '../../core/toolintent/toolintent-events.js';
import type { WorldProbe } from '../../core/toolintent/world-probe.js';
import type { toolReceipt } from '../../core/tools/tool-events.js';
import type { ToolDefinition } from '../../core/tools/tool-contract.js';
import { hasLoneSurrogate } from '../../core/toolintent/rules/target-kind-rule.js';
import { resolveToolPath, type ToolPathRoots } from '../../core/tools/tool-path.js';

export type ToolReceipt = PayloadOf<typeof toolReceipt>;

/**
 * What running a call found: a receipt without its envelope (type, call id, tool, arguments),
 * which the runner adds from the call it ran, so no executor writes its own name or echoes args.
 */
export type ToolExecution = Omit<ToolReceipt, 'type' | 'callId' | 'tool' | 'args'>;

/** What an executor is given besides the validated arguments. */
export type ToolExecutionContext = {
  readonly callId: string;
  readonly roots: ToolPathRoots;
  /** The recorded observations the assessment was made on; writes are re-checked against them. */
  readonly observations: LayeredRecord<WorldObservation>;
  readonly egressAllowlist: readonly string[];
  /** What runs a `command` line: `bash -c` (flag `exec-bash`) or `/bin/sh -c` (the default). */
  readonly commandShell?: 'bash' | 'sh';
  readonly signal?: AbortSignal;
};

/**
 * The receipt of a call that ran outside a session's runner (tests, tools built on the
 * executors): the envelope from the call, the rest from its execution, as the runner records it.
 */
export function toolReceiptOf(
  call: { readonly callId: string; readonly tool: string; readonly args: Record<string, unknown> },
  execution: ToolExecution,
): ToolReceipt {
  return {
    type: 'tool_receipt',
    callId: call.callId,
    tool: call.tool,
    args: call.args as ToolReceipt['args'],
    ...execution,
  };
}

/** The infrastructure half of a tool: runs an approved call and says what it did. */
export type ToolExecutor = {
  readonly name: string;
  execute(args: Record<string, unknown>, context: ToolExecutionContext): Promise<ToolExecution>;
};

/**
 * The executor of a tool contract, its arguments typed from the contract's schema. The kernel
 * validated them against that schema when it assessed the call (one validation per call), so
 * they are trusted here, not parsed again; the name is the contract's, written once.
 */
export function defineToolExecutor<Args>(
  tool: ToolDefinition<Args>,
  execute: (args: Args, context: ToolExecutionContext) => Promise<ToolExecution>,
): ToolExecutor {
  return {
    name: tool.name,
    execute: (args, context) => execute(args as Args, context),
  };
}

/** No executor is registered under the tool's name. */
export class UnknownToolError extends CorrexError {
  constructor(name: string) {
    super('unknown_tool', `no executor for tool ${JSON.stringify(name)}`);
  }
}

/** A target failed its last-moment re-check: the call must not write. Carried into a `world_changed` receipt. */
export class WorldChangedError extends CorrexError {
  constructor(message: string) {
    super('world_changed', message);
  }
}

/** A call reached execution in a state the assessment never saw (no observation): refused. */
export class UnassessedTargetError extends CorrexError {
  constructor(message: string) {
    super('unassessed_target', message);
  }
}

/**
 * Closes the time-of-check/time-of-use gap: resolves `raw` exactly as the rules did, looks up
 * the observation the assessment used, observes the path again right now, and throws
 * WorldChangedError when the real path, kind or content hash differ. Returns the real path to
 * operate on (symlinks already resolved, so the final write uses O_NOFOLLOW on it).
 */
export async function recheckTarget(
  probe: WorldProbe,
  raw: unknown,
  context: ToolExecutionContext,
): Promise<{ realPath: string; observed: WorldObservation }> {
  const resolved = resolveToolPath(raw, context.roots);
  if (!resolved.ok) throw new UnassessedTargetError(resolved.rejection.message);
  const assessed = layeredGet(context.observations, resolved.path.absolute);
  if (assessed === undefined)
    throw new UnassessedTargetError(`${resolved.path.absolute} was never observed for assessment`);
  if (hasLoneSurrogate(resolved.path.raw))
    throw new UnassessedTargetError(
      `${JSON.stringify(resolved.path.raw)} holds a lone UTF-16 surrogate; the disk would get another name`,
    );
  const now = await probe.observe(resolved.path.absolute);
  if (now.changedDuringObservation === true || assessed.changedDuringObservation === true)
    throw new WorldChangedError(`${resolved.path.raw} changed during observation; read it again`);
  if (now.realPath !== assessed.realPath) {
    throw new WorldChangedError(
      `${resolved.path.raw} now resolves to ${now.realPath}, not ${assessed.realPath} as assessed`,
    );
  }
  // Files the assessment did not hash (too large, or outside the workspace before approval)
  // carry no digest; their size and mtime stand in for it.
  const unhashedChanged =
    assessed.sha256 === null && (now.size !== assessed.size || now.mtimeMs !== assessed.mtimeMs);
  if (
    now.kind !== assessed.kind ||
    (assessed.sha256 !== null && now.sha256 !== assessed.sha256) ||
    now.linkCount !== assessed.linkCount ||
    unhashedChanged
  ) {
    throw new WorldChangedError(
      `${resolved.path.raw} changed on disk between assessment and execution; read it again`,
    );
  }
  return { realPath: now.realPath, observed: now };
}

/** Runs `tool` through its executor; unknown names are an error, not a silent no-op. */
export async function executeToolCall(
  executors: Readonly<Record<string, ToolExecutor>>,
  toolName: string,
  args: Record<string, unknown>,
  context: ToolExecutionContext,
): Promise<ToolExecution> {
  const executor = executors[toolName];
  if (executor === undefined) throw new UnknownToolError(toolName);
  return executor.execute(args, context);
}
