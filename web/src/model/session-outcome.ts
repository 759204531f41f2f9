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

type Prices = { readonly inputPerMillion: number; readonly outputPerMillion: number };

/**
 * How a session ended and what it cost, folded from its events: the result, the checks (the
 * latest run of each), tokens, and the cost by the prices of the model profiles the session
 * recorded in `session_configured` (null when none of them is priced), as `correx show` says.
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
  cost: number | null;
};

const prices = new WeakMap<SessionOutcome, Map<string, Prices>>();
/** The profile of each model request not yet answered. */
const requested = new WeakMap<SessionOutcome, Map<string, string>>();

export function createOutcome(): SessionOutcome {
  return {
    result: null,
    detected: [],
    checks: new Map(),
    tokens: { input: 0, output: 0 },
    cost: null,
  };
}

function readPrices(configuration: Payload | undefined): Map<string, Prices> {
  const priced = new Map<string, Prices>();
  for (const model of records(configuration ?? {}, 'models')) {
    const id = text(model, 'id');
    const price = record(model, 'prices');
    const input = price && num(price, 'inputPerMillion');
    const output = price && num(price, 'outputPerMillion');
    if (id !== undefined && input !== undefined && output !== undefined)
      priced.set(id, { inputPerMillion: input, outputPerMillion: output });
  }
  return priced;
}

/** Folds one event (the next in sequence) into the outcome. */
export function addOutcomeEvent(outcome: SessionOutcome, event: EventDto): void {
  const payload: Payload = event.payload;
  switch (event.type) {
    case 'session_configured': {
      const priced = readPrices(record(payload, 'configuration'));
      prices.set(outcome, priced);
      if (priced.size > 0) outcome.cost ??= 0;
      return;
    }
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
    case 'inference_requested': {
      const map = requested.get(outcome) ?? new Map<string, string>();
      requested.set(outcome, map);
      const requestId = text(payload, 'requestId');
      const profileId = text(payload, 'profileId');
      if (requestId !== undefined && profileId !== undefined) map.set(requestId, profileId);
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
      const requestId = text(payload, 'requestId') ?? '';
      const profileId = requested.get(outcome)?.get(requestId);
      requested.get(outcome)?.delete(requestId);
      const price = profileId === undefined ? undefined : prices.get(outcome)?.get(profileId);
      if (price !== undefined)
        outcome.cost =
          (outcome.cost ?? 0) +
          (input * price.inputPerMillion + output * price.outputPerMillion) / 1e6;
      return;
    }
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
