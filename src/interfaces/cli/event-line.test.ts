import { describe, expect, it } from 'vitest';
import type { CorrexEvent, EventPayload } from '../../core/event-catalog.js';
import { formatEventLine } from './event-line.js';

function event(payload: EventPayload): CorrexEvent {
  return {
    eventId: 'ev-1',
    sessionId: 's-1',
    sequence: 1,
    timestamp: '2026-11-30T12:00:00.000Z',
    version: 1,
    causationId: null,
    correlationId: null,
    position: 1,
    hash: '0'.repeat(64),
    payload,
  };
}

describe('formatEventLine', () => {
  it('writes one line per stage, call, verdict, approval, receipt and transition', () => {
    const payloads: EventPayload[] = [
      { type: 'stage_started', stageId: 'implement', attempt: 2 },
      {
        type: 'tool_call_rejected',
        callId: 'c1',
        stageId: 'implement',
        tool: 'edit_file',
        reason: 'malformed_args',
        message: 'the arguments do not match\nthe schema',
        argsSchema: {},
      },
      {
        type: 'approval_denied',
        callId: 'c2',
        by: { kind: 'auto', id: 'policy' },
        reason: 'blocked by policy: path-containment',
      },
      {
        type: 'tool_receipt',
        callId: 'c3',
        tool: 'exec',
        args: {},
        outcome: 'failed',
        exitCode: 1,
        error: 'exit code 1',
        output: '',
        outputBytes: 0,
        outputSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
        truncated: false,
        files: [],
        durationMs: 5,
      },
      {
        type: 'transition_taken',
        from: 'review',
        end: 'completed',
        condition: 'verdict approved',
        edge: 'review#0',
        traversal: 1,
      },
    ];
    const lines = payloads.map((payload) => formatEventLine(event(payload)));
    expect(lines).toEqual([
      '▶ stage implement (attempt 2)',
      '  ✗ rejected edit_file (malformed_args): the arguments do not match\\nthe schema',
      '    ✗ denied by auto:policy: blocked by policy: path-containment',
      '    ✗ exec failed (exit 1)',
      '→ review → completed',
    ]);
  });

  it('says what a stage entered again starts from', () => {
    expect(
      formatEventLine(
        event({
          type: 'stage_start_reconciled',
          stageId: 'implement',
          attempt: 1,
          reason: 'rework',
          basis: 'as_left',
          checkpointSequence: 9,
          changedSince: ['/w/a.ts', '/w/b.ts'],
        }),
      ),
    ).toBe(
      '↺ stage implement (rework) starts from the workspace as left: 2 file(s) changed since its checkpoint #9',
    );
  });

  it('clips long text to one short line', () => {
    const line = formatEventLine(
      event({
        type: 'workflow_failed',
        category: 'provider',
        message: 'x'.repeat(500),
      }),
    );
    expect(line).toBe(`✗ workflow failed (provider): ${'x'.repeat(99)}…`);
  });

  it("shows a validator's message of several lines on one line, cut between words", () => {
    const line = formatEventLine(
      event({
        type: 'validation_failed',
        hash: 'h',
        validator: 'schema',
        message:
          'filesChanged: expected an array of strings\nsummary: required property missing\n' +
          'verdict: must be one of approved, changes_requested, rejected, or blocked by the reviewer',
      } as never),
    );
    expect(line).not.toContain('\\n');
    expect(line).toMatch(
      /^ {2}✗ artifact invalid \(schema\): filesChanged: expected an array of strings · summary: required property missing · verdict: .* …$/,
    );
    // The cut falls between words.
    expect(line).toMatch(/ [a-z,]+ …$/);
  });

  it('shows hidden characters and terminal escapes from the log escaped, on one line', () => {
    const line = formatEventLine(
      event({
        type: 'approval_requested',
        callId: 'c1',
        tool: 'write_file',
        tier: 'T2',
        reason: 'writes src/a\u202Eb.ts\nAPPROVED \x1b]52;c;aGk=\x07\u200B',
      } as never),
    );
    expect(line).toBe(
      '    waiting for approval (T2): writes src/a\\u{202E}b.ts\\nAPPROVED \\x1b]52;c;aGk=\\x07\\u{200B}',
    );
  });

  it('says nothing for bookkeeping events', () => {
    expect(formatEventLine(event({ type: 'stage_completed', stageId: 'plan', attempt: 1 }))).toBe(
      '✓ stage plan completed',
    );
    expect(formatEventLine(event({ type: 'orchestration_resumed', by: 'ana' }))).toBeNull();
  });
});
