import type { ContextEntry, ContextPack } from '../../../context/context-pack.js';
import type { InferenceMessage } from '../../../inference/inference-request.js';
import type { NativeTurn } from '../../decider/transcript.js';

/** What a call's tool message says when no result of it is in the pack. */
export const MISSING_RESULT =
  'No result of this call is in this context (it was not run, or its result was left out to fit the context).';

/**
 * Renders a pack as a native tool conversation (behind `native-tool-transcript`): L0 as one
 * system message, then every entry in pack order, except that a model turn that made tool calls
 * becomes an assistant message carrying them, followed at once by exactly one `tool` message per
 * call, in call order. OpenAI-compatible servers reject a turn whose calls lack results, so a
 * call whose result the pack does not hold still gets one; a finishing call's result is the
 * validation feedback on its artifact. A result whose turn is not in the pack (compacted or left
 * out) reads as the user text it was. Pure and deterministic.
 */
export function renderNativeTranscript(
  pack: ContextPack,
  nativeOf: (entryId: string) => NativeTurn | undefined,
): InferenceMessage[] {
  const system = pack.entries.filter((entry) => entry.layer === 'L0').map((entry) => entry.content);
  const messages: InferenceMessage[] = [];
  if (system.length > 0) messages.push({ role: 'system', content: system.join('\n\n') });
  const entries = pack.entries.filter((entry) => entry.layer !== 'L0');
  const resultsOf = new Map<string, ContextEntry[]>();
  for (const entry of entries) {
    const native = nativeOf(entry.id);
    if (native?.type !== 'result') continue;
    resultsOf.set(native.callId, [...(resultsOf.get(native.callId) ?? []), entry]);
  }
  const placed = new Set<string>();
  entries.forEach((entry, index) => {
    if (placed.has(entry.id)) return;
    const native = nativeOf(entry.id);
    if (native?.type !== 'calls') {
      messages.push({ role: entry.role, content: entry.content });
      return;
    }
    messages.push({
      role: 'assistant',
      content: native.text,
      toolCalls: native.calls.map((call) => ({ ...call })),
    });
    for (const call of native.calls) {
      let results = resultsOf.get(call.callId) ?? [];
      if (results.length === 0) {
        // A finishing call is answered by the validation of the artifact it carried.
        const feedback = entries
          .slice(index + 1)
          .find((later) => later.kind === 'validation_feedback' && !placed.has(later.id));
        results = feedback === undefined || !isFinishing(call.name) ? [] : [feedback];
      }
      for (const result of results) placed.add(result.id);
      messages.push({
        role: 'tool',
        callId: call.callId,
        toolName: call.name,
        content: results.length === 0 ? MISSING_RESULT : results.map((r) => r.content).join('\n\n'),
      });
    }
  });
  return messages;
}

function isFinishing(toolName: string): boolean {
  return toolName.startsWith('finish_');
}
