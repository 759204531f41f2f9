import { describe, expect, it } from 'vitest';
import type { CorrexEvent, EventPayload } from '../../core/event-catalog.js';
import { commandOutputExcerpt } from './command-output-excerpt.js';
import { createEventLines } from './paired-event-lines.js';

let sequence = 0;
function event(payload: EventPayload): CorrexEvent {
  sequence += 1;
  return {
    eventId: `ev-${sequence}`,
    sessionId: 's-1',
    sequence,
    timestamp: '2026-11-30T12:00:00.000Z',
    version: 1,
    causationId: null,
    correlationId: null,
    position: sequence,
    hash: '0'.repeat(64),
    payload,
  };
}

const EMPTY_SHA = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

function receipt(
  callId: string,
  tool: string,
  exitCode: number | null,
  output: string,
): EventPayload {
  return {
    type: 'tool_receipt',
    callId,
    tool,
    args: {},
    outcome: exitCode === null ? 'succeeded' : 'failed',
    exitCode,
    error: exitCode === null ? null : `exit code ${exitCode}`,
    output,
    outputBytes: output.length,
    outputSha256: EMPTY_SHA,
    truncated: false,
    files: [],
    durationMs: 5,
  };
}

function assessed(callId: string, tool: string): EventPayload {
  return {
    type: 'tool_call_assessed',
    callId,
    tool,
    verdict: 'ALLOW',
    tier: 'T1',
    risk: 'low',
    findings: [],
    targets: [],
  };
}

describe('createEventLines', () => {
  it('shows the model text, then each of two parallel calls paired with its result by tag', () => {
    const view = createEventLines();
    const payloads: EventPayload[] = [
      {
        type: 'inference_completed',
        requestId: 'implement.1.2',
        provider: 'p',
        requestDigest: EMPTY_SHA,
        result: {
          text: 'Running the tests and reading the config.\n\x1b]52;c;aGk=\x07',
          toolCalls: [],
          finishReason: 'tool_calls',
          usage: { inputTokens: 1, outputTokens: 1 },
          modelId: 'm',
          latencyMs: 1,
        },
      },
      {
        type: 'tool_call_proposed',
        callId: 'implement.1.2.1',
        stageId: 'implement',
        tool: 'exec',
        argsRaw: '{"command":"npm test"}',
      },
      {
        type: 'tool_call_proposed',
        callId: 'implement.1.2.2',
        stageId: 'implement',
        tool: 'read_file',
        argsRaw: '{"path":"a.json"}',
      },
      assessed('implement.1.2.1', 'exec'),
      assessed('implement.1.2.2', 'read_file'),
      receipt('implement.1.2.2', 'read_file', null, '{}'),
      receipt('implement.1.2.1', 'exec', 1, 'FAIL a.test.ts\nexpected 1, got 2\n'),
    ];
    expect(payloads.flatMap((payload) => view.lines(event(payload)))).toEqual([
      '  model: Running the tests and reading the config.',
      '         \\x1b]52;c;aGk=\\x07',
      '  [2.1] exec {"command":"npm test"} · ALLOW T1 risk low',
      '  [2.2] read_file {"path":"a.json"} · ALLOW T1 risk low',
      '  [2.2] ✓ read_file succeeded',
      '  [2.1] ✗ exec failed (exit 1)',
      '        │ FAIL a.test.ts',
      '        │ expected 1, got 2',
    ]);
    expect(view.flush()).toEqual([]);
  });

  it('bounds long model text and names a proposal the log never assessed', () => {
    const view = createEventLines();
    const text = Array.from({ length: 9 }, (_, index) => `line ${index + 1}`).join('\n');
    const lines = view.lines(
      event({
        type: 'inference_completed',
        requestId: 'plan.1.1',
        provider: 'p',
        requestDigest: EMPTY_SHA,
        result: {
          text,
          toolCalls: [],
          finishReason: 'stop',
          usage: { inputTokens: 1, outputTokens: 1 },
          modelId: 'm',
          latencyMs: 1,
        },
      }),
    );
    expect(lines).toEqual([
      '  model: line 1',
      '         line 2',
      '         line 3',
      '         line 4',
      '         … 5 more lines',
    ]);
    view.lines(
      event({
        type: 'tool_call_proposed',
        callId: 'plan.1.1.1',
        stageId: 'plan',
        tool: 'exec',
        argsRaw: '{}',
      }),
    );
    expect(view.flush()).toEqual(['  [1.1] exec {} · not assessed']);
  });
});

describe('commandOutputExcerpt', () => {
  it('keeps short output whole and long output as its first 10 and last 20 lines', () => {
    expect(commandOutputExcerpt('')).toEqual([]);
    expect(commandOutputExcerpt('a\nb\n')).toEqual(['a', 'b']);
    const long = Array.from({ length: 100 }, (_, index) => `out ${index + 1}`).join('\n');
    const excerpt = commandOutputExcerpt(long);
    expect(excerpt).toHaveLength(31);
    expect(excerpt.slice(0, 2)).toEqual(['out 1', 'out 2']);
    expect(excerpt[9]).toBe('out 10');
    expect(excerpt[10]).toBe('… 70 lines omitted …');
    expect(excerpt[11]).toBe('out 81');
    expect(excerpt.at(-1)).toBe('out 100');
  });

  it("keeps a failed assertion's expected and actual lines from the middle of long output, not its stack frames", () => {
    // What `node --test` prints for a failed assertEqual, between long passing output around it.
    const output = [
      ...Array.from({ length: 30 }, (_, index) => `ok ${index + 1} - passes`),
      'not ok 31 - median of an even count',
      '  ---',
      "  error: 'Expected values to be strictly equal:\n\n2 !== 2.5\n'",
      '  expected: 2.5',
      '  actual: 2',
      '  operator: strictEqual',
      '  stack: |-',
      ...Array.from(
        { length: 15 },
        (_, index) => `    at TestContext.<anonymous> (file:///w/test.js:${index}:3)`,
      ),
      ...Array.from({ length: 40 }, (_, index) => `# later line ${index + 1}`),
    ].join('\n');
    const excerpt = commandOutputExcerpt(output);
    expect(excerpt).toContain('not ok 31 - median of an even count');
    expect(excerpt).toContain('  expected: 2.5');
    expect(excerpt).toContain('  actual: 2');
    expect(excerpt.some((line) => line.includes('Expected values to be strictly equal'))).toBe(
      true,
    );
    expect(excerpt.some((line) => line.includes('at TestContext'))).toBe(false);
    expect(excerpt.slice(0, 10)).toEqual(
      Array.from({ length: 10 }, (_, index) => `ok ${index + 1} - passes`),
    );
    expect(excerpt.at(-1)).toBe('# later line 40');
    expect(excerpt.filter((line) => line.endsWith('omitted …')).length).toBeGreaterThan(0);
  });

  it('escapes what a command printed and clips long lines', () => {
    const [line] = commandOutputExcerpt(`\x1b[2J${'y'.repeat(400)}`);
    expect(line).toMatch(/^\\x1b\[2Jy+…$/);
    expect(line).toHaveLength(240);
  });
});
