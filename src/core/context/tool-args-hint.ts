import type { JsonSchemaDocument } from '../inference/inference-request.js';
import type { ContextCandidate } from './context-candidate.js';

/**
 * After a recoverable tool failure the next pack carries the error with the failing tool's
 * argument schema (spec 001), so the model corrects the call instead of repeating it.
 */
export type ToolArgsHint = {
  readonly tool: string;
  readonly error: string;
  readonly argsSchema: JsonSchemaDocument;
  readonly argsRaw?: string;
  /** The event that recorded the failure (e.g. `tool_call_rejected`). */
  readonly eventId: string;
  readonly sequence: number;
};

export function toolArgsHintCandidate(hint: ToolArgsHint): ContextCandidate {
  const lines = [
    `Your last call to tool "${hint.tool}" failed: ${hint.error}`,
    ...(hint.argsRaw === undefined ? [] : [`The arguments you sent were: ${hint.argsRaw}`]),
    `Call it again with arguments matching this JSON Schema:`,
    JSON.stringify(hint.argsSchema, null, 2),
  ];
  return {
    id: `tool-args-hint:${hint.eventId}`,
    layer: 'L1',
    kind: 'tool_args_hint',
    source: { kind: 'event', id: hint.eventId },
    content: lines.join('\n'),
    order: hint.sequence,
  };
}
