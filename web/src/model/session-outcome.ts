import type { EventDto } from '../../../src/interfaces/protocol/event-dto.js';
import { num, record, records, shownLines, text, type Payload } from './payload-fields.js';

/** A definition-of-done check's latest run. */
export type CheckRun = {
  readonly name: string;
  readonly command: string;
  readonly stageId: string;
  readonly passed: boolean;
  readonly outcome: string;
  readonly exitCode: number | null;
  readonly sequence: number;
};

/**
 * How a session ended, folded from its events: the result, the checks (the latest run of each)
 * and tokens. Its cost comes with the session from the server (`SessionDto.cost`), computed by
 * the rule the session ran under, as `correx show` and the cost budget compute it.
 */
export type SessionOutcome = {
  result:
    | { status: 'completed'; summary: string | null; finalStageId: string | null }
    | { status: 'failed'; category: string; message: string }
    | { status: 'cancelled'; by: string; reason: string | null }
    | null;
  /** The checks detected at the start (name and command), before any ran. */
  detected: { name: string; command: string }[];
  readonly checks: Map<string, CheckRun>;
  tokens: { input: number; output: number };
  /** Each undo (`workspace_restored`): every change recorded after `toSequence` was undone. */
  readonly restores: Restore[];
};

/** One recorded undo of the session's workspace changes. */
export type Restore = {
  readonly sequence: number;
  readonly toSequence: number;
  readonly by: string;
  readonly files: readonly string[];
};

export function createOutcome(): SessionOutcome {
  return {
    result: null,
    detected: [],
    checks: new Map(),
    tokens: { input: 0, output: 0 },
    restores: [],
  };
}

/** Folds one event (the next in sequence) into the outcome. */
export function addOutcomeEvent(outcome: SessionOutcome, event: EventDto): void {
  const payload: Payload = event.payload;
  switch (event.type) {
    case 'project_checks_detected':
      outcome.detected = records(payload, 'checks').map((check) => ({
        name: text(check, 'name') ?? '?',
        command: text(check, 'command') ?? '',
      }));
      return;
    case 'dod_check_ran': {
      const name = text(payload, 'name') ?? '?';
      const exitCode = num(payload, 'exitCode') ?? null;
      const ended = text(payload, 'outcome') ?? '?';
      outcome.checks.set(name, {
        name,
        command: text(payload, 'command') ?? '',
        stageId: text(payload, 'stageId') ?? '?',
        passed: ended === 'completed' && exitCode === 0,
        outcome: ended,
        exitCode,
        sequence: event.sequence,
      });
      return;
    }
    case 'inference_completed': {
      const usage = record(record(payload, 'result') ?? {}, 'usage') ?? {};
      const input = num(usage, 'inputTokens') ?? 0;
      const output = num(usage, 'outputTokens') ?? 0;
      outcome.tokens = {
        input: outcome.tokens.input + input,
        output: outcome.tokens.output + output,
      };
      return;
    }
    case 'workspace_restored':
      outcome.restores.push({
        sequence: event.sequence,
        toSequence: num(payload, 'toSequence') ?? 0,
        by: text(payload, 'by') ?? '?',
        files: records(payload, 'files').map((file) => text(file, 'path') ?? '?'),
      });
      return;
    case 'workflow_completed':
      outcome.result = {
        status: 'completed',
        summary: shownLines(payload, 'summary') ?? null,
        finalStageId: text(payload, 'finalStageId') ?? null,
      };
      return;
    case 'workflow_failed':
      outcome.result = {
        status: 'failed',
        category: text(payload, 'category') ?? '?',
        message: shownLines(payload, 'message') ?? '',
      };
      return;
    case 'workflow_cancelled':
      outcome.result = {
        status: 'cancelled',
        by: text(payload, 'by') ?? '?',
        reason: shownLines(payload, 'reason') ?? null,
      };
      return;
    default:
      return;
  }
}
