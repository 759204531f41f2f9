import { createHash } from 'node:crypto';
import type { CorrexEventStore, EventPayload } from '../../../src/core/event-catalog.js';
import type { NewEvent } from '../../../src/core/events/event-envelope.js';
import { sessionConfiguredPayload } from '../../../src/core/kernel/index.js';
import { scenarioConfig } from '../../kernel/kernel-harness.js';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/** The stage visits of the seeded session: a full default-coding run with one rework cycle. */
const VISITS = [
  { stageId: 'plan', to: 'implement', verdict: undefined },
  { stageId: 'implement', to: 'verify', verdict: undefined },
  { stageId: 'verify', to: 'review', verdict: undefined },
  { stageId: 'review', to: 'implement', verdict: 'rework' },
  { stageId: 'implement', to: 'verify', verdict: undefined },
  { stageId: 'verify', to: 'review', verdict: undefined },
  { stageId: 'review', to: undefined, verdict: 'approve' },
] as const;

/**
 * Appends a finished session of exactly `count` events to the store: a default-coding run whose
 * stages are filled with model turns and tool calls (inference_completed, tool_call_proposed,
 * tool_call_assessed, tool_call_started, tool_receipt), as a long real session records them.
 */
export async function seedLongSession(
  store: CorrexEventStore,
  sessionId: string,
  workspace: string,
  count: number,
): Promise<void> {
  const payloads: EventPayload[] = [
    {
      type: 'session_created',
      task: `A long session of ${count} events`,
      workspace,
      workflowId: 'default-coding',
      mode: 'auto',
    },
    sessionConfiguredPayload(scenarioConfig()),
    { type: 'workflow_started', workflowId: 'default-coding', firstStageId: 'plan' },
  ];
  const overhead = payloads.length + VISITS.length * 3 + 1;
  const groups = Math.floor((count - overhead) / 5);
  let call = 0;
  VISITS.forEach((visit, index) => {
    const attempt = 1;
    payloads.push({ type: 'stage_started', stageId: visit.stageId, attempt });
    const mine = Math.floor(groups / VISITS.length) + (index < groups % VISITS.length ? 1 : 0);
    for (let turn = 0; turn < mine; turn++) {
      call += 1;
      const callId = `call-${call}`;
      const path = `${workspace}/src/file-${call % 40}.ts`;
      const output = `export const value${call} = ${call};\n`;
      payloads.push(
        {
          type: 'inference_completed',
          requestId: `req-${call}`,
          provider: 'scripted',
          requestDigest: sha(`req-${call}`),
          result: {
            text: '',
            toolCalls: [],
            finishReason: 'tool_calls',
            usage: { inputTokens: 1_200 + (call % 300), outputTokens: 40 + (call % 20) },
            modelId: 'scripted-model',
            latencyMs: 300 + (call % 200),
          },
        },
        {
          type: 'tool_call_proposed',
          callId,
          stageId: visit.stageId,
          tool: 'read_file',
          argsRaw: JSON.stringify({ path: `src/file-${call % 40}.ts` }),
        },
        {
          type: 'tool_call_assessed',
          callId,
          tool: 'read_file',
          verdict: 'ALLOW',
          tier: 'T0',
          risk: 'low',
          findings: [],
          targets: [
            {
              role: 'PATH',
              param: 'path',
              raw: `src/file-${call % 40}.ts`,
              resolved: path,
              realPath: path,
              write: false,
            },
          ],
        },
        {
          type: 'tool_call_started',
          callId,
          tool: 'read_file',
          targets: [{ path, sha256: sha(output) }],
        },
        {
          type: 'tool_receipt',
          callId,
          tool: 'read_file',
          args: { path: `src/file-${call % 40}.ts` },
          outcome: 'succeeded',
          exitCode: null,
          error: null,
          output,
          outputBytes: output.length,
          outputSha256: sha(output),
          truncated: false,
          files: [{ path, access: 'read', before: sha(output), after: sha(output) }],
          durationMs: 2,
        },
      );
    }
    payloads.push({
      type: 'stage_completed',
      stageId: visit.stageId,
      attempt,
      ...(visit.verdict === undefined ? {} : { verdict: visit.verdict }),
    });
    const edge = `${visit.stageId}->${visit.to ?? 'end:completed'}`;
    payloads.push({
      type: 'transition_taken',
      from: visit.stageId,
      ...(visit.to === undefined ? { end: 'completed' as const } : { to: visit.to }),
      condition: visit.verdict === undefined ? 'success' : `verdict:${visit.verdict}`,
      edge,
      traversal: VISITS.slice(0, index + 1).filter(
        (v) => `${v.stageId}->${v.to ?? 'end:completed'}` === edge,
      ).length,
      ...(visit.to === undefined ? {} : { attempt: 1 }),
    });
  });
  while (payloads.length < count - 1)
    payloads.push({ type: 'steering_note_added', sessionId, content: `note ${payloads.length}` });
  payloads.push({ type: 'workflow_completed', finalStageId: 'review', summary: 'seeded' });

  const start = Date.UTC(2026, 10, 30, 12, 0, 0);
  const events: NewEvent<EventPayload>[] = payloads.map((payload, index) => ({
    eventId: `${sessionId}-e${String(index + 1).padStart(6, '0')}`,
    sessionId,
    timestamp: new Date(start + index * 250).toISOString(),
    causationId: null,
    correlationId: `corr-${sessionId}`,
    payload,
  }));
  for (let from = 0; from < events.length; from += 500)
    await store.appendAll(events.slice(from, from + 500), { expectedSequence: from });
}
