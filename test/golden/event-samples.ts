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
  workflow_failed: { type: 'workflow_failed', category: 'retries_exhausted', message: 'verify failed 3 times', stageId: 'verify' },
  workflow_cancelled: { type: 'workflow_cancelled', by: 'alice', reason: 'wrong branch' },
  orchestration_paused: { type: 'orchestration_paused', by: 'alice', reason: 'lunch' },
  orchestration_resumed: { type: 'orchestration_resumed', by: 'alice' },
  stage_started: { type: 'stage_started', stageId: 'implement', attempt: 2 },
  stage_completed: { type: 'stage_completed', stageId: 'review', attempt: 1, artifactHash: 'a'.repeat(64), verdict: 'approved' },
  stage_failed: { type: 'stage_failed', stageId: 'verify', attempt: 1, category: 'dod_check_failed', message: 'npm test exited 1' },
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
};
