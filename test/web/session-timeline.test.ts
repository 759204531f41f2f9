import { describe, expect, it } from 'vitest';
import type { EventDto } from '../../src/interfaces/protocol/event-dto.js';
import { prettyArgs } from '../../web/src/format.js';
import { diffLines } from '../../web/src/model/line-diff.js';
import { shownVerdict } from '../../web/src/model/shown-verdict.js';
import {
  addEvent,
  createTimeline,
  pendingCalls,
  proposedChange,
} from '../../web/src/model/session-timeline.js';

/** Events as the wire carries them, numbered from 1. */
function events(...payloads: { type: string; [key: string]: unknown }[]): EventDto[] {
  return payloads.map((payload, index) => ({
    eventId: `e${index + 1}`,
    sessionId: 's1',
    sequence: index + 1,
    timestamp: new Date(Date.UTC(2026, 0, 1, 12, 0, index)).toISOString(),
    version: 1,
    causationId: null,
    correlationId: null,
    type: payload.type,
    payload,
  }));
}

const sha = 'a'.repeat(64);
const receipt = (callId: string, tool: string, args: object, output: string, path: string) => ({
  type: 'tool_receipt',
  callId,
  tool,
  args,
  outcome: 'succeeded',
  exitCode: null,
  error: null,
  output,
  outputBytes: output.length,
  outputSha256: sha,
  truncated: false,
  files: [{ path, access: tool === 'read_file' ? 'read' : 'write', before: sha, after: sha }],
  durationMs: 3,
});
const assessed = (callId: string, tool: string, path: string, write: boolean) => ({
  type: 'tool_call_assessed',
  callId,
  tool,
  verdict: write ? 'ASK' : 'ALLOW',
  tier: write ? 'T2' : 'T0',
  risk: 'medium',
  findings: write
    ? [
        {
          ruleId: 'write-scope',
          severity: 'ask',
          code: 'outside',
          message: 'writes src',
          tier: 'T2',
        },
      ]
    : [],
  targets: [{ role: 'PATH', param: 'path', raw: 'a.txt', resolved: path, realPath: path, write }],
});

describe('the session timeline the page folds from events', () => {
  it('folds a tool call from proposal to receipt into one entry and knows what waits', () => {
    const timeline = createTimeline();
    const path = '/w/a.txt';
    const log = events(
      { type: 'session_created', task: 't', workspace: '/w', workflowId: 'wf', mode: 'prompt' },
      { type: 'stage_started', stageId: 'implement', attempt: 1 },
      {
        type: 'tool_call_proposed',
        callId: 'c1',
        stageId: 'implement',
        tool: 'read_file',
        argsRaw: '{"path":"a.txt"}',
      },
      assessed('c1', 'read_file', path, false),
      receipt('c1', 'read_file', { path: 'a.txt' }, 'one\ntwo\nthree\n', path),
      {
        type: 'tool_call_proposed',
        callId: 'c2',
        stageId: 'implement',
        tool: 'edit_file',
        argsRaw: JSON.stringify({ path: 'a.txt', search: 'two', replace: 'TWO' }),
      },
      assessed('c2', 'edit_file', path, true),
      {
        type: 'approval_requested',
        callId: 'c2',
        tool: 'edit_file',
        tier: 'T2',
        reason: 'edit at T2',
      },
    );
    for (const event of log) addEvent(timeline, event);

    expect(timeline.mode).toBe('prompt');
    expect(timeline.sections.map((section) => section.stageId)).toEqual([null, 'implement']);
    const calls = timeline.sections[1]!.items.filter((item) => item.kind === 'tool_call');
    expect(calls).toHaveLength(2);
    const [waiting] = pendingCalls(timeline);
    expect(waiting).toMatchObject({
      callId: 'c2',
      approval: { state: 'pending', tier: 'T2' },
      assessment: { verdict: 'ASK', findings: [{ ruleId: 'write-scope' }] },
    });
    // The preview diffs the edit against the file as the earlier full read recorded it.
    const preview = proposedChange(timeline, waiting!);
    expect(preview).toMatchObject({ path, beforeKnown: true });
    expect(preview!.lines).toEqual([
      { kind: 'same', text: 'one' },
      { kind: 'remove', text: 'two' },
      { kind: 'add', text: 'TWO' },
      { kind: 'same', text: 'three' },
    ]);

    const denial = {
      type: 'approval_denied',
      callId: 'c2',
      by: { kind: 'human', id: 'ann' },
      reason: 'no',
    };
    addEvent(timeline, {
      ...log[0]!,
      eventId: 'e-deny',
      sequence: log.length + 1,
      type: denial.type,
      payload: denial,
    });
    expect(pendingCalls(timeline)).toEqual([]);
    expect(timeline.calls.get('c2')?.approval).toMatchObject({
      state: 'denied',
      by: 'human:ann',
      decisionReason: 'no',
    });
  });

  it('shows recorded reasons and messages with hidden characters and escapes made visible', () => {
    const timeline = createTimeline();
    const log = events(
      { type: 'session_created', task: 'fix\u202Etxt.exe', workspace: '/w', workflowId: 'wf' },
      { type: 'stage_started', stageId: 'implement', attempt: 1 },
      {
        type: 'tool_call_proposed',
        callId: 'c1',
        stageId: 'implement',
        tool: 'write_file',
        argsRaw: JSON.stringify({ path: 'a\u200B.ts', content: '\x1b]52;c;aGk=\x07' }),
      },
      {
        type: 'approval_requested',
        callId: 'c1',
        tool: 'write_file',
        tier: 'T2',
        reason: 'r\x1b[2J',
      },
    );
    for (const event of log) addEvent(timeline, event);
    const [waiting] = pendingCalls(timeline);
    expect(waiting!.approval!.reason).toBe('r\\x1b[2J');
    expect(prettyArgs(waiting!.argsRaw)).toContain('a\\u{200B}.ts');
    expect(prettyArgs(waiting!.argsRaw)).not.toContain('\u200B');
    expect(JSON.stringify(timeline.sections)).not.toContain('\u202E');
  });

  it('shows a journal compaction once, naming a model-written summary, and hides its request', () => {
    const timeline = createTimeline();
    const log = events(
      { type: 'session_created', task: 't', workspace: '/w', workflowId: 'wf', mode: 'auto' },
      { type: 'stage_started', stageId: 'implement', attempt: 1 },
      {
        type: 'journal_summary_requested',
        requestId: 'implement.1.summary.9',
        stageId: 'implement',
        attempt: 1,
        throughSequence: 9,
        entries: 7,
        provider: 'local',
        model: 'm',
        profileId: 'p',
        requestDigest: sha,
        tokenEstimate: 300,
      },
      {
        type: 'journal_compacted',
        stageId: 'implement',
        attempt: 1,
        throughSequence: 9,
        entries: 7,
        summary: 'Summary of earlier turns (7 entries, written by the model):\nRead a.txt twice.',
        requestId: 'implement.1.summary.9',
      },
    );
    for (const event of log) addEvent(timeline, event);
    const items = timeline.sections[1]!.items;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      kind: 'lifecycle',
      label: 'Journal compacted: 7 older entries folded into a summary the model wrote',
    });
    expect((items[0] as { detail?: string }).detail).toContain('Read a.txt twice.');
  });

  it('never badges a waiting call ALLOW: it reads ASK until decided', () => {
    expect(shownVerdict('ALLOW', true)).toBe('ASK');
    expect(shownVerdict('ALLOW', false)).toBe('ALLOW');
    expect(shownVerdict('BLOCK', true)).toBe('BLOCK');
  });

  it('counts a move back to an earlier stage as a rework cycle, not the forward moves after it', () => {
    const timeline = createTimeline();
    const visit = (stageId: string, to: string | undefined, input: number) => [
      { type: 'stage_started', stageId, attempt: 1 },
      {
        type: 'inference_completed',
        requestId: `r-${stageId}-${input}`,
        provider: 'p',
        requestDigest: sha,
        result: {
          text: '',
          toolCalls: [],
          finishReason: 'stop',
          usage: { inputTokens: input, outputTokens: 5 },
          modelId: 'm',
          latencyMs: 1,
        },
      },
      { type: 'stage_completed', stageId, attempt: 1 },
      to === undefined
        ? {
            type: 'transition_taken',
            from: stageId,
            end: 'completed',
            condition: 'success',
            edge: `${stageId}->end:completed`,
            traversal: 1,
          }
        : {
            type: 'transition_taken',
            from: stageId,
            to,
            condition: 'success',
            edge: `${stageId}->${to}`,
            traversal: 1,
          },
    ];
    const log = events(
      ...visit('implement', 'verify', 10),
      ...visit('verify', 'review', 20),
      ...visit('review', 'implement', 30),
      ...visit('implement', 'verify', 40),
      ...visit('verify', 'review', 50),
      ...visit('review', undefined, 60),
    );
    for (const event of log) addEvent(timeline, event);
    // Delivered twice (a reconnect): nothing counts again.
    for (const event of log) addEvent(timeline, event);
    expect(timeline.reworkCycles).toBe(1);
    expect(timeline.eventCount).toBe(log.length);
    expect(timeline.sections.map((s) => [s.stageId, s.inputTokens, s.outcome])).toEqual([
      ['implement', 10, 'completed'],
      ['verify', 20, 'completed'],
      ['review', 30, 'completed'],
      ['implement', 40, 'completed'],
      ['verify', 50, 'completed'],
      ['review', 60, 'completed'],
    ]);
    const transitions = timeline.sections
      .flatMap((s) => s.items)
      .filter((i) => i.kind === 'transition');
    expect(transitions.map((t) => t.kind === 'transition' && t.rework)).toEqual([
      false,
      false,
      true,
      false,
      false,
      false,
    ]);
  });

  it('reads the workflow graph from the recorded configuration and keeps unknown events', () => {
    const timeline = createTimeline();
    const workflow = {
      id: 'wf',
      initialStage: 'plan',
      stages: [
        { id: 'plan', transitions: [{ when: { on: 'success' }, to: 'review' }] },
        {
          id: 'review',
          transitions: [
            { when: { on: 'verdict', verdict: 'rework' }, to: 'plan' },
            { when: { on: 'success' }, end: 'completed' },
          ],
        },
      ],
    };
    for (const event of events(
      { type: 'session_configured', configuration: { workflow }, digest: sha },
      { type: 'something_new', detail: 1 },
    ))
      addEvent(timeline, event);
    expect(timeline.graph).toEqual({
      id: 'wf',
      initialStage: 'plan',
      stages: [
        { id: 'plan', transitions: [{ when: 'success', to: 'review' }] },
        {
          id: 'review',
          transitions: [
            { when: 'verdict rework', to: 'plan' },
            { when: 'success', to: 'end:completed' },
          ],
        },
      ],
    });
    expect(timeline.sections[0]!.items).toMatchObject([{ kind: 'other', type: 'something_new' }]);
  });
});

describe('diffLines', () => {
  it('aligns changed lines and folds long unchanged runs', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace('line 10', 'line ten');
    const lines = diffLines(before, after, 1);
    expect(lines).toEqual([
      { kind: 'same', text: '… 9 unchanged lines' },
      { kind: 'same', text: 'line 9' },
      { kind: 'remove', text: 'line 10' },
      { kind: 'add', text: 'line ten' },
      { kind: 'same', text: 'line 11' },
      { kind: 'same', text: '… 8 unchanged lines' },
    ]);
  });

  it('shows a new file as additions', () => {
    expect(diffLines('', 'a\nb\n')).toEqual([
      { kind: 'add', text: 'a' },
      { kind: 'add', text: 'b' },
    ]);
  });
});
