import type { EventPayload } from '../../src/core/event-catalog.js';

type SampleMap = { readonly [Type in EventPayload['type']]: Extract<EventPayload, { type: Type }> };

/**
 * One representative payload per event type. Every type in the catalog must have a sample
 * here; its canonical bytes are frozen in `test/golden/events/<type>.v<version>.json`.
 * Fill optional fields so their encoding is pinned too.
 */
export const eventSamples: SampleMap = {
  session_created: {
    type: 'session_created',
    task: 'Fix the failing date parser test',
    workspace: '/home/dev/project',
    workflowId: 'default',
    mode: 'prompt',
    modelProfile: 'local-qwen',
  },
  workflow_started: { type: 'workflow_started', workflowId: 'default', firstStageId: 'plan' },
  workflow_completed: { type: 'workflow_completed', finalStageId: 'review', summary: 'Parser fixed; 12 tests pass.' },
  workflow_failed: { type: 'workflow_failed', category: 'transition', message: 'review asked for rework after recovery', stageId: 'review' },
  workflow_cancelled: { type: 'workflow_cancelled', by: 'alice', reason: 'wrong branch' },
  orchestration_paused: { type: 'orchestration_paused', by: 'alice', reason: 'lunch' },
  orchestration_resumed: { type: 'orchestration_resumed', by: 'alice' },
  stage_started: { type: 'stage_started', stageId: 'implement', attempt: 2 },
  stage_completed: { type: 'stage_completed', stageId: 'review', attempt: 1, artifactHash: 'a'.repeat(64), verdict: 'approved' },
  stage_failed: { type: 'stage_failed', stageId: 'verify', attempt: 1, category: 'validation', message: 'definition of done: npm test exited 1' },
  lifecycle_rejected: { type: 'lifecycle_rejected', command: 'resume', status: 'running', message: 'cannot resume a session that is running: resume is legal only when it is paused' },
  transition_taken: { type: 'transition_taken', from: 'review', to: 'implement', condition: 'verdict:rework', edge: 'review->implement', traversal: 2, attempt: 1 },
  transition_rejected: { type: 'transition_rejected', from: 'review', reason: 'unknown_verdict', outcome: 'verdict:maybe', message: 'stage `review` completed with verdict `maybe`; expected one of approved | rework' },
  tool_call_proposed: {
    type: 'tool_call_proposed',
    callId: 'call-1',
    stageId: 'implement',
    tool: 'write_file',
    argsRaw: '{"path":"src/dates.ts","content":"export const ü = \\"\\u00e9\\";\\n"}',
  },
  approval_requested: { type: 'approval_requested', callId: 'call-2', tool: 'exec', tier: 'T2', reason: 'runs npm test' },
  approval_granted: { type: 'approval_granted', callId: 'call-2', by: { kind: 'human', id: 'alice' }, reason: 'looks fine' },
  approval_denied: { type: 'approval_denied', callId: 'call-3', by: { kind: 'auto', id: 'deny' }, reason: 'mode is deny' },
  steering_note_added: { type: 'steering_note_added', sessionId: 'session-1', content: 'Prefer date-fns over moment. Ω ≠ 😀', stageId: 'implement' },
  inference_requested: {
    type: 'inference_requested',
    requestId: 'inference-1',
    stageId: 'implement',
    provider: 'openai-compatible:local',
    model: 'qwen2.5-coder-7b',
    profileId: 'local-qwen',
    packDigest: 'b'.repeat(64),
    requestDigest: 'c'.repeat(64),
    tokenEstimate: 812,
    toolNames: ['read_file', 'write_file'],
    manifest: {
      budgetTokens: 7000,
      totalTokens: 812,
      tokenizer: 'estimate-v1',
      included: [
        { id: 'operating-guidance', layer: 'L0', kind: 'guidance', source: { kind: 'builtin', id: 'operating-guidance-v1' }, tokens: 103, originalTokens: 103, compression: 'none', contentSha256: 'd'.repeat(64) },
        { id: 'tool-7', layer: 'L1', kind: 'tool_result', source: { kind: 'event', id: 'ev-7' }, tokens: 256, originalTokens: 9000, compression: 'head_tail', compressedBecause: 'over_budget', contentSha256: 'e'.repeat(64) },
      ],
      excluded: [
        { id: 'summary-1', layer: 'L2', kind: 'summary', source: { kind: 'artifact', id: 'f'.repeat(64) }, tokens: 300, reason: 'over_budget' },
        { id: 'turn-2', layer: 'L1', kind: 'turn', source: { kind: 'event', id: 'ev-2' }, tokens: 0, reason: 'duplicate', duplicateOf: 'turn-3' },
      ],
    },
  },
  inference_completed: {
    type: 'inference_completed',
    requestId: 'inference-1',
    provider: 'openai-compatible:local',
    requestDigest: 'c'.repeat(64),
    result: {
      text: 'Reading the parser first. ✓',
      toolCalls: [
        { callId: 'call-1', name: 'read_file', argsRaw: '{"path":"src/dates.ts"}', args: { path: 'src/dates.ts' } },
        { callId: 'call-2', name: 'write_file', argsRaw: '{"path":', argsError: 'arguments are not valid JSON: Unexpected end of JSON input' },
      ],
      finishReason: 'tool_calls',
      usage: { inputTokens: 790, outputTokens: 41 },
      modelId: 'qwen2.5-coder-7b-instruct',
      latencyMs: 1834,
    },
  },
  inference_failed: {
    type: 'inference_failed',
    requestId: 'inference-2',
    provider: 'anthropic',
    model: 'claude-sonnet-4-5',
    category: 'rate_limit',
    message: 'HTTP 429: rate limited',
    retryAfterMs: 2000,
  },
};
