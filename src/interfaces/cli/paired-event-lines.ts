import { visibleText } from '../../core/base/visible-text.js';
import type { CorrexEvent } from '../../core/event-catalog.js';
import { isSummaryRequestId } from '../../core/kernel/index.js';
import { commandOutputExcerpt } from './command-output-excerpt.js';
import { formatEventLine } from './event-line.js';

const MODEL_TEXT_LINES = 4;
const MODEL_LINE_CHARS = 200;

/** Turns events into the lines a person reads, remembering what pairs them up. */
export type EventLines = {
  /** The lines for one event (none for bookkeeping), in log order. */
  lines(event: CorrexEvent): string[];
  /** Proposals never assessed (a log that stops right after them), so none goes unseen. */
  flush(): string[];
};

/**
 * The progress view `run`, `resume`, `tail` and `show` share. The model's own words between
 * calls are shown (bounded); each call is shown once it is assessed, on one line with its
 * verdict, and everything later about it (approval, result) carries the same short tag, so the
 * calls of one answer read as pairs even when they run side by side. A failed call shows the
 * head and tail of its output. Every field comes from the log: shown escaped, never obeyed.
 */
export function createEventLines(): EventLines {
  const proposed = new Map<string, { tool: string; argsRaw: string }>();
  return {
    lines(event) {
      const payload = event.payload;
      switch (payload.type) {
        case 'inference_completed':
          // A summary's text is shown by its `journal_compacted` line, not as the model's turn.
          return isSummaryRequestId(payload.requestId) ? [] : modelText(payload.result.text);
        case 'tool_call_proposed':
          proposed.set(payload.callId, payload);
          return [];
        case 'tool_call_assessed': {
          const call = proposed.get(payload.callId);
          proposed.delete(payload.callId);
          return [
            `  ${tag(payload.callId)} ${visibleText(payload.tool)} ${clip(call?.argsRaw ?? '', 70)} · ${payload.verdict} ${payload.tier} risk ${payload.risk}`,
          ];
        }
        case 'tool_call_rejected': {
          const call = proposed.get(payload.callId);
          proposed.delete(payload.callId);
          return [
            ...(call === undefined
              ? []
              : [`  ${tag(payload.callId)} ${visibleText(call.tool)} ${clip(call.argsRaw, 70)}`]),
            `  ${tag(payload.callId)} ✗ rejected ${visibleText(payload.tool)} (${payload.reason}): ${clip(payload.message, 100)}`,
          ];
        }
        case 'approval_requested':
        case 'approval_granted':
        case 'approval_denied':
        case 'approval_bypassed':
          return tagged(payload.callId, event);
        case 'tool_receipt': {
          const lines = tagged(payload.callId, event);
          if (payload.outcome === 'succeeded') return lines;
          const pad = ' '.repeat(tag(payload.callId).length + 3);
          if (payload.error !== null && !/^exit code -?\d+$/.test(payload.error))
            lines.push(`${pad}${clip(payload.error, 200)}`);
          for (const line of commandOutputExcerpt(payload.output)) lines.push(`${pad}│ ${line}`);
          return lines;
        }
        default: {
          const line = formatEventLine(event);
          return line === null ? [] : [line];
        }
      }
    },
    flush() {
      const lines = [...proposed].map(
        ([callId, call]) =>
          `  ${tag(callId)} ${visibleText(call.tool)} ${clip(call.argsRaw, 70)} · not assessed`,
      );
      proposed.clear();
      return lines;
    },
  };
}

/** The short tag of a call: `[turn.index]` of `stage.attempt.turn.index`, else the whole id. */
export function callTag(callId: string): string {
  const parts = callId.split('.');
  return `[${visibleText(parts.length >= 4 ? parts.slice(-2).join('.') : callId)}]`;
}

const tag = callTag;

/** The one-line form of an event about a call, with the call's tag in place of its indent. */
function tagged(callId: string, event: CorrexEvent): string[] {
  const line = formatEventLine(event);
  return line === null ? [] : [`  ${tag(callId)} ${line.trimStart()}`];
}

/** What the model said besides its calls: its first lines, clipped, with a count of the rest. */
function modelText(text: string): string[] {
  const lines = text
    .trim()
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (lines.length === 0) return [];
  const shown = lines.slice(0, MODEL_TEXT_LINES).map((line, index) => {
    const visible = visibleText(line);
    const clipped =
      visible.length <= MODEL_LINE_CHARS ? visible : `${visible.slice(0, MODEL_LINE_CHARS - 1)}…`;
    return `${index === 0 ? '  model: ' : '         '}${clipped}`;
  });
  if (lines.length > MODEL_TEXT_LINES)
    shown.push(`         … ${lines.length - MODEL_TEXT_LINES} more lines`);
  return shown;
}

function clip(text: string, length: number): string {
  const line = visibleText(text.replace(/\s+/g, ' ').trim());
  return line.length <= length ? line : `${line.slice(0, length - 1)}…`;
}
