import type { ToolCallProposal } from './inference-result.js';
import { safeParseToolArguments } from './tool-call-arguments.js';

/**
 * The arguments of a tool call as a model's answer recorded them: `args` where the answer holds
 * them parsed; what `argsRaw` parses to (as a provider parses it, `safeParseToolArguments`) where
 * it says `argsInText` (recorded with `answer-arguments-as-text`, which keeps only the text); else
 * undefined (the text is not a JSON object, and `argsError` says why). The one reader of a
 * recorded call's arguments.
 */
export function answerCallArgs(call: ToolCallProposal): Record<string, unknown> | undefined {
  if (call.args !== undefined) return call.args;
  if (call.argsInText !== true) return undefined;
  const parsed = safeParseToolArguments(call.argsRaw);
  return parsed.ok ? parsed.args : undefined;
}
