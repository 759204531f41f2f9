import { canonicalJson } from '../../../events/canonical-json.js';
import { answerCallArgs } from '../../../inference/answer-call-args.js';
import type { InferenceResult } from '../../../inference/inference-result.js';
import type { KernelConfig } from '../../config/kernel-config.js';
import { ANSWER_ARGUMENTS_AS_TEXT } from '../../config/kernel-flags.js';

/**
 * A model's answer as `inference_completed` records it. Under `answer-arguments-as-text` a tool
 * call's parsed arguments are left out where they are exactly what its text parses to (same
 * canonical JSON) and the call says `argsInText`, so a file's content is not stored twice in one
 * answer; `answerCallArgs` reads them back. Arguments a provider built otherwise (different from the text's parse) stay.
 */
export function recordedAnswer(config: KernelConfig, answer: InferenceResult): InferenceResult {
  if (!config.behaviour.flags.has(ANSWER_ARGUMENTS_AS_TEXT.name)) return answer;
  let changed = false;
  const toolCalls = answer.toolCalls.map((call) => {
    if (call.args === undefined) return call;
    const { args, ...rest } = call;
    const text = { ...rest, argsInText: true as const };
    const fromText = answerCallArgs(text);
    if (fromText === undefined || canonicalJson(fromText) !== canonicalJson(args)) return call;
    changed = true;
    return text;
  });
  return changed ? { ...answer, toolCalls } : answer;
}
