import { describe, expect, it } from 'vitest';
import type { CorrexEvent, EventPayload } from '../../core/event-catalog.js';
import type { RunOutcome } from '../../core/kernel/index.js';
import { promptText, stopReason } from './acp-agent.js';
import { createAcpUpdateMapper } from './acp-updates.js';

const SHA = 'a'.repeat(64);

/** Envelopes around payloads, in sequence order (only what the mapper reads is real). */
function log(...payloads: EventPayload[]): CorrexEvent[] {
  return payloads.map((payload, index) => ({
    eventId: `e${index + 1}`,
    sessionId: 's1',
    sequence: index + 1,
    timestamp: '2026-12-03T12:00:00.000Z',
    version: 1,
    causationId: null,
    correlationId: 's1',
    payload,
  })) as unknown as CorrexEvent[];
}

const configured = (stages: string[], models: unknown[] = []): EventPayload =>
  ({
    type: 'session_configured',
    configuration: { workflow: { stages: stages.map((id) => ({ id })) }, models },
    digest: SHA,
  }) as unknown as EventPayload;

const mapAll = (events: CorrexEvent[]) => {
  const mapper = createAcpUpdateMapper();
  return events.flatMap((event) => mapper.map(event));
};

describe('correx events as ACP session updates', () => {
  it('reports a staged workflow as a plan whose entries follow the stages', () => {
    const updates = mapAll(
      log(
        configured(['plan', 'implement', 'review']),
        { type: 'stage_started', stageId: 'plan', attempt: 1 },
        { type: 'stage_completed', stageId: 'plan', attempt: 1 },
        { type: 'stage_started', stageId: 'implement', attempt: 1 },
      ),
    );
    expect(updates.at(-1)).toEqual({
      sessionUpdate: 'plan',
      entries: [
        { content: 'plan', priority: 'medium', status: 'completed' },
        { content: 'implement', priority: 'medium', status: 'in_progress' },
        { content: 'review', priority: 'medium', status: 'pending' },
      ],
    });
    // A one-stage workflow (chat) has no plan to show.
    expect(
      mapAll(log(configured(['chat']), { type: 'stage_started', stageId: 'chat', attempt: 1 })),
    ).toEqual([]);
  });

  it('reports usage against the context window of the profile that answered, with the cost when it has prices', () => {
    const updates = mapAll(
      log(
        configured(
          ['chat'],
          [
            {
              id: 'priced',
              provider: 'p',
              model: 'm',
              capabilities: [],
              contextWindow: 100_000,
              maxOutputTokens: 4096,
              priority: 0,
              prices: { inputPerMillion: 1, outputPerMillion: 2 },
            },
          ],
        ),
        { type: 'stage_started', stageId: 'chat', attempt: 1 },
        {
          type: 'inference_requested',
          requestId: 'r1',
          stageId: 'chat',
          provider: 'p',
          model: 'm',
          profileId: 'priced',
          packDigest: SHA,
          requestDigest: SHA,
          tokenEstimate: 10,
          toolNames: [],
          manifest: {},
        } as unknown as EventPayload,
        {
          type: 'inference_completed',
          requestId: 'r1',
          provider: 'p',
          requestDigest: SHA,
          result: {
            text: 'Hello.',
            toolCalls: [],
            finishReason: 'stop',
            usage: { inputTokens: 1_000_000, outputTokens: 500_000 },
            modelId: 'm',
            latencyMs: 5,
          },
        },
      ),
    );
    expect(updates).toEqual([
      {
        sessionUpdate: 'agent_message_chunk',
        messageId: 'r1',
        content: { type: 'text', text: 'Hello.' },
      },
      {
        sessionUpdate: 'usage_update',
        used: 1_500_000,
        size: 100_000,
        cost: { amount: 2, currency: 'USD' },
      },
    ]);
  });

  it('shows a created file as a diff without old text, a failed call with its error, a refused one with the reason', () => {
    const updates = mapAll(
      log(
        {
          type: 'session_created',
          task: 'make it',
          workspace: '/ws',
          workflowId: 'w',
          mode: 'auto',
        } as unknown as EventPayload,
        {
          type: 'tool_call_proposed',
          callId: 'c1',
          stageId: 'chat',
          tool: 'write_file',
          argsRaw: '{"path":"a.txt","content":"hi\\n"}',
        },
        {
          type: 'tool_receipt',
          callId: 'c1',
          tool: 'write_file',
          args: { path: 'a.txt', content: 'hi\n' },
          outcome: 'succeeded',
          exitCode: null,
          error: null,
          output: '',
          outputBytes: 0,
          outputSha256: SHA,
          truncated: false,
          files: [{ path: '/ws/a.txt', access: 'write', before: null, after: SHA }],
          durationMs: 1,
        },
        {
          type: 'tool_call_proposed',
          callId: 'c2',
          stageId: 'chat',
          tool: 'exec',
          argsRaw: '{"argv":["false"]}',
        },
        {
          type: 'tool_receipt',
          callId: 'c2',
          tool: 'exec',
          args: { argv: ['false'] },
          outcome: 'failed',
          exitCode: 1,
          error: 'exited with 1',
          output: '',
          outputBytes: 0,
          outputSha256: SHA,
          truncated: false,
          files: [],
          durationMs: 1,
        },
        { type: 'approval_denied', callId: 'c3', by: { kind: 'human', id: 'zed' }, reason: 'no' },
      ),
    );
    expect(updates[0]).toEqual({
      sessionUpdate: 'session_info_update',
      title: 'make it',
      updatedAt: '2026-12-03T12:00:00.000Z',
    });
    expect(updates[1]).toMatchObject({ sessionUpdate: 'user_message_chunk' });
    expect(updates[2]).toMatchObject({
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      kind: 'edit',
      title: 'Write a.txt',
      locations: [{ path: '/ws/a.txt' }],
    });
    expect(updates[3]).toMatchObject({
      status: 'completed',
      content: [{ type: 'diff', path: '/ws/a.txt', oldText: null, newText: 'hi\n' }],
    });
    expect(updates[4]).toMatchObject({ kind: 'execute', title: 'Run false' });
    expect(updates[5]).toMatchObject({
      status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: 'exited with 1' } }],
      rawOutput: { outcome: 'failed', exitCode: 1 },
    });
    expect(updates[6]).toMatchObject({
      toolCallId: 'c3',
      status: 'failed',
      content: [{ type: 'content', content: { type: 'text', text: 'denied by zed: no' } }],
    });
  });

  it('maps how a run ended to a stop reason', () => {
    const outcome = (fields: Partial<RunOutcome>) =>
      ({ status: 'running', waiting: null, state: { session: {} }, ...fields }) as RunOutcome;
    expect(stopReason(outcome({ status: 'completed' }), [])).toBe('end_turn');
    expect(stopReason(outcome({ status: 'cancelled' }), [])).toBe('cancelled');
    expect(
      stopReason(outcome({ waiting: { kind: 'budget', budget: 'tokens', limit: 9 } }), []),
    ).toBe('max_tokens');
    expect(stopReason(outcome({ waiting: { kind: 'budget', budget: 'cost', limit: 1 } }), [])).toBe(
      'max_turn_requests',
    );
    const refused = log({
      type: 'inference_completed',
      requestId: 'r1',
      provider: 'p',
      requestDigest: SHA,
      result: {
        text: '',
        toolCalls: [],
        finishReason: 'content_filter',
        usage: { inputTokens: 1, outputTokens: 0 },
        modelId: 'm',
        latencyMs: 1,
      },
    });
    expect(stopReason(outcome({ status: 'failed' }), refused)).toBe('refusal');
    expect(stopReason(outcome({ status: 'failed' }), [])).toBe('end_turn');
  });

  it("takes text, links and embedded text resources as the request, and refuses what it can't read", () => {
    expect(
      promptText([
        { type: 'text', text: 'fix this' },
        { type: 'resource', resource: { uri: 'file:///ws/a.ts', text: 'let x = 1' } },
        { type: 'resource_link', name: 'b.ts', uri: 'file:///ws/b.ts' },
      ]),
    ).toBe(
      'fix this\n\n<context uri="file:///ws/a.ts">\nlet x = 1\n</context>\n[b.ts](file:///ws/b.ts)',
    );
    expect(() => promptText([{ type: 'image', data: '', mimeType: 'image/png' }])).toThrow(
      /not image content/,
    );
  });
});
