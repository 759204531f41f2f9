import type { InferenceResult, ToolCallProposal } from '../../../inference/inference-result.js';
import {
  MAX_KEPT_REJECTED_ARGS_CHARS,
  REJECTED_ARGS_HEAD_CHARS,
  safeParseToolArguments,
} from '../../../inference/tool-call-arguments.js';
import type { KernelConfig } from '../../config/kernel-config.js';
import { inCanonicalOrder } from '../canonical-output/canonical-model-output.js';

/**
 * An answer as `inference_completed` records it under `bounded-refused-arguments`: a call whose
 * arguments the kernel will refuse before assessing them (an unknown or ungranted tool, arguments
 * that break the tool's schema) and whose text is longer than `MAX_KEPT_REJECTED_ARGS_CHARS` is
 * kept as its head, with the whole text's length and SHA-256, exactly as unreadable argument
 * text already is (`createToolCallProposal`). Megabytes the kernel refuses are then never
 * written to the log, neither in the answer nor in the `tool_call_proposed` that echoes them.
 * `finishing` (the stage's finishing tool, whose arguments are the artifact) is never cut.
 */
export function boundRefusedArguments(
  config: KernelConfig,
  result: InferenceResult,
  allowedTools: readonly string[],
  finishing: string | null,
): InferenceResult {
  let changed = false;
  const toolCalls = result.toolCalls.map((call) => {
    if (call.argsRaw.length <= MAX_KEPT_REJECTED_ARGS_CHARS || call.name === finishing) return call;
    const why = refusal(config, call, allowedTools);
    if (why === undefined) return call;
    const head = wellFormedHead(call.argsRaw, REJECTED_ARGS_HEAD_CHARS);
    // A head that parses could be run as a call of its own: such text is kept whole.
    if (safeParseToolArguments(head).ok) return call;
    changed = true;
    const bounded: ToolCallProposal = {
      callId: call.callId,
      name: call.name,
      argsRaw: head,
      argsError: `${call.argsError ?? why} (${call.argsRaw.length} characters; only the first ${head.length} are kept)`,
      argsLength: call.argsRaw.length,
      argsSha256: call.argsSha256 ?? config.sha256(call.argsRaw),
    };
    return bounded;
  });
  return changed ? { ...result, toolCalls } : result;
}

/** Why the kernel will refuse the call before assessing it, or undefined when it will not. */
function refusal(
  config: KernelConfig,
  call: ToolCallProposal,
  allowedTools: readonly string[],
): string | undefined {
  const tool = config.tools.get(call.name);
  if (tool === undefined) return `there is no tool named ${call.name}`;
  if (!allowedTools.includes(tool.name)) return `the stage does not grant ${tool.name}`;
  if (call.args === undefined) return call.argsError ?? 'the arguments are not a JSON object';
  const parsed = tool.argsSchema.safeParse(call.args);
  if (parsed.success) return undefined;
  const problems = parsed.error.issues.map(
    (issue) => `${issue.path.map(String).join('.') || 'arguments'}: ${issue.message}`,
  );
  return `the arguments do not match the schema: ${inCanonicalOrder(problems).join('; ')}`;
}

/** The first `length` code units, not ending on half of a surrogate pair. */
function wellFormedHead(text: string, length: number): string {
  const head = text.slice(0, length);
  const last = head.charCodeAt(head.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? head.slice(0, -1) : head;
}
