import { answerCallArgs } from '../../inference/answer-call-args.js';
import type { ContextEntryKind } from '../../context/context-candidate.js';
import { toolArgsHintCandidate } from '../../context/tool-args-hint.js';
import { canonicalJson } from '../../events/canonical-json.js';
import { isArtifactApproval } from './artifact-approval-id.js';
import type { CorrexEvent } from '../../event-catalog.js';
import type { InferenceToolCall } from '../../inference/inference-request.js';
import type { ToolCallProposal } from '../../inference/inference-result.js';
import { canonicalModelText } from '../features/canonical-output/canonical-model-output.js';

/** A call's arguments as a transcript shows them: canonical when asked and they were read. */
function shownArgs(call: ToolCallProposal, canonical: boolean): string {
  if (!canonical) return call.argsRaw;
  const args = answerCallArgs(call);
  return args !== undefined ? canonicalJson(args) : call.argsRaw;
}

/**
 * What an entry is in a native tool conversation: a model turn with the calls it made, or the
 * result of one call. Derived from the same event as the entry's text; only the native renderer
 * (behind `native-tool-transcript`) reads it, so the text form is unchanged.
 */
export type NativeTurn =
  | {
      readonly type: 'calls';
      readonly text: string;
      readonly calls: readonly InferenceToolCall[];
    }
  | { readonly type: 'result'; readonly callId: string };

/** One thing the model saw or did in the running stage attempt, ready for the next pack. */
export type TranscriptEntry = {
  readonly kind: ContextEntryKind;
  readonly role: 'user' | 'assistant';
  readonly content: string;
  readonly eventId: string;
  readonly sequence: number;
  readonly native?: NativeTurn;
  /** The paths a tool result is about (its call's path arguments), for ContextFeedback. */
  readonly subjects?: readonly string[];
};

/** The transcript entry an event adds, or null when the model need not see it. */
export function transcriptEntryOf(event: CorrexEvent, canonical = false): TranscriptEntry | null {
  const payload = event.payload;
  const at = { eventId: event.eventId, sequence: event.sequence };
  switch (payload.type) {
    case 'inference_completed': {
      // Each call's arguments as shown, worked out once for the text and the native form.
      const shown = payload.result.toolCalls.map((call) => shownArgs(call, canonical));
      const calls = payload.result.toolCalls.map(
        (call, index) => `Tool call ${index + 1}: ${call.name} ${shown[index]}`,
      );
      const text = canonical ? canonicalModelText(payload.result.text) : payload.result.text;
      const content = [text, ...calls].filter((line) => line !== '').join('\n');
      if (content === '') return null;
      const entry: TranscriptEntry = { kind: 'turn', role: 'assistant', content, ...at };
      if (payload.result.toolCalls.length === 0) return entry;
      // The kernel numbers a turn's calls `<requestId>.<n>` when it proposes them.
      const native: NativeTurn = {
        type: 'calls',
        text,
        calls: payload.result.toolCalls.map((call, index) => ({
          callId: `${payload.requestId}.${index + 1}`,
          name: call.name,
          argsRaw: shown[index]!,
        })),
      };
      return { ...entry, native };
    }
    case 'tool_call_rejected':
      if (payload.reason === 'malformed_args' && payload.argsSchema !== null) {
        const hint = toolArgsHintCandidate({
          tool: payload.tool,
          error: payload.message,
          // Sorted keys: the schema reads back from a store in canonical order, and a pack must
          // not depend on whether the event was just decided or read back.
          argsSchema: JSON.parse(canonicalJson(payload.argsSchema)) as typeof payload.argsSchema,
          ...at,
        });
        return {
          kind: 'tool_args_hint',
          role: 'user',
          content: hint.content,
          ...at,
          native: { type: 'result', callId: payload.callId },
        };
      }
      return result(
        `Call ${payload.callId} to ${payload.tool} was refused: ${payload.message}`,
        payload.callId,
        at,
      );
    case 'approval_denied':
      // An artifact's denial reaches the model as the validation feedback that follows it.
      if (isArtifactApproval(payload.callId)) return null;
      return result(`Call ${payload.callId} was not run: ${payload.reason}`, payload.callId, at);
    case 'tool_receipt': {
      const exit = payload.exitCode === null ? '' : ` (exit code ${payload.exitCode})`;
      const lines = [
        `Result of call ${payload.callId} (${payload.tool}): ${payload.outcome}${exit}`,
        ...(payload.error === null ? [] : [`Error: ${payload.error}`]),
        payload.output,
      ];
      const subjects = pathArguments(payload.args);
      return {
        ...result(lines.join('\n'), payload.callId, at),
        ...(subjects.length === 0 ? {} : { subjects }),
      };
    }
    case 'tool_call_classified':
      return payload.action === 'record'
        ? result(
            `Call ${payload.callId} (${payload.tool}) took effect before the run was interrupted; its output was not recorded.`,
            payload.callId,
            at,
          )
        : null;
    case 'validation_failed':
      return {
        kind: 'validation_feedback',
        role: 'user',
        content: `Your ${payload.stageId} artifact was not accepted (${payload.phase} check \`${payload.validator}\`): ${payload.message}`,
        ...at,
      };
    default:
      return null;
  }
}

function result(
  content: string,
  callId: string,
  at: { eventId: string; sequence: number },
): TranscriptEntry {
  return { kind: 'tool_result', role: 'user', content, ...at, native: { type: 'result', callId } };
}

const PATH_KEYS = new Set(['path', 'paths', 'source', 'destination', 'file', 'cwd']);

/** The string values of a call's path-like arguments, in key order. */
function pathArguments(args: { readonly [key: string]: unknown }): string[] {
  return Object.keys(args)
    .filter((key) => PATH_KEYS.has(key))
    .sort()
    .flatMap((key) => {
      const value = args[key];
      if (typeof value === 'string') return [value];
      return Array.isArray(value)
        ? value.filter((item): item is string => typeof item === 'string')
        : [];
    })
    .filter((path) => path.length > 0);
}
