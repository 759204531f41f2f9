import { describe, expect, it } from 'vitest';
import type { EventDto } from '../../src/interfaces/protocol/event-dto.js';
import { addOutcomeEvent, createOutcome } from '../../web/src/model/session-outcome.js';
import { addEvent, createTimeline } from '../../web/src/model/session-timeline.js';

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

const answer = (requestId: string, text: string, inputTokens: number, outputTokens: number) => ({
  type: 'inference_completed',
  requestId,
  result: { text, toolCalls: [], usage: { inputTokens, outputTokens }, modelId: 'm' },
});
const check = (name: string, exitCode: number | null, outcome = 'completed') => ({
  type: 'dod_check_ran',
  stageId: 'verify',
  attempt: 1,
  name,
  command: `npm run ${name}`,
  outcome,
  exitCode,
  output: exitCode === 0 ? 'ok\n' : 'boom\n',
});

describe('the outcome fold', () => {
  it('prices each model call by the profile that made it, and keeps the latest run of each check', () => {
    const outcome = createOutcome();
    for (const event of events(
      {
        type: 'session_configured',
        configuration: {
          models: [
            { id: 'big', prices: { inputPerMillion: 10, outputPerMillion: 30 } },
            { id: 'free' },
          ],
        },
      },
      { type: 'inference_requested', requestId: 'r1', profileId: 'big' },
      answer('r1', 'a', 1_000, 100),
      { type: 'inference_requested', requestId: 'r2', profileId: 'free' },
      answer('r2', 'b', 5_000, 500),
      check('test', 1),
      check('lint', null, 'timed_out'),
      check('test', 0),
      { type: 'workflow_failed', category: 'validation', message: 'lint timed out' },
    ))
      addOutcomeEvent(outcome, event);
    expect(outcome.tokens).toEqual({ input: 6_000, output: 600 });
    expect([...outcome.checks.values()].map((run) => [run.name, run.passed, run.sequence])).toEqual(
      [
        ['test', true, 8],
        ['lint', false, 7],
      ],
    );
    expect(outcome.result).toEqual({
      status: 'failed',
      category: 'validation',
      message: 'lint timed out',
    });
  });
});

describe('artifacts and checks in the timeline', () => {
  it('shows the answer an artifact was made of as the artifact, and a failed check on its stage', () => {
    const timeline = createTimeline();
    const plan = { summary: 'fix it', steps: ['read', 'edit'], files: [] };
    for (const event of events(
      { type: 'stage_started', stageId: 'plan', attempt: 1 },
      answer('r1', '```json\n' + JSON.stringify(plan) + '\n```', 1, 1),
      {
        type: 'artifact_proposed',
        hash: 'h1',
        kind: 'plan',
        stageId: 'plan',
        attempt: 1,
        inferenceEventId: 'e2',
        parents: [],
      },
      { type: 'artifact_accepted', hash: 'h1', kind: 'plan', stageId: 'plan' },
      { type: 'stage_completed', stageId: 'plan', attempt: 1 },
      { type: 'stage_started', stageId: 'verify', attempt: 1 },
      check('test', 2),
    ))
      addEvent(timeline, event);
    const [planSection, verifySection] = timeline.sections;
    const [inference, artifact] = planSection!.items;
    expect(inference).toMatchObject({ kind: 'inference', artifactKind: 'plan' });
    expect(artifact).toMatchObject({
      kind: 'artifact',
      accepted: true,
      body: { kind: 'plan', summary: 'fix it', steps: ['read', 'edit'] },
    });
    expect(planSection!.failedChecks).toEqual([]);
    expect(verifySection!.failedChecks).toEqual(['test']);
    expect(verifySection!.items[0]).toMatchObject({ kind: 'check', passed: false, exitCode: 2 });
  });
});
