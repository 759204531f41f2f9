import { describe, expect, it } from 'vitest';
import { kernelSpecification, sessionStart } from '../../../../testing/kernel-specification.js';
import type { CorrexEvent } from '../../../event-catalog.js';
import { createInferenceRouter } from '../../../inference/inference-router.js';
import type { InferenceResult } from '../../../inference/inference-result.js';
import { parseWorkspacePolicy } from '../../../policies/workspace-policy.js';
import { createAssessmentPolicy } from '../../../toolintent/default-rules.js';
import { builtinTools } from '../../../tools/builtin-tools.js';
import { parseWorkflow } from '../../../transitions/workflow.js';
import { createDefaultValidatorRegistry } from '../../../validation/default-validators.js';
import { currentBehaviour } from '../../config/behaviour.js';
import { createKernelConfig, type KernelConfig } from '../../config/kernel-config.js';
import { APPROVAL_TIMEOUT } from '../../config/kernel-flags.js';
import type { Effect } from '../../decider/effect.js';

/*
 * The approval timeout as a registered feature: its `approvalRequested` hook gives a call's
 * request its deadline, its `awaitingApproval` hook waits until it and denies the call once a
 * runner recorded that it passed. Each expectation below fails when its hook is not called.
 */
type Payload = CorrexEvent['payload'];
const WORKSPACE = '/work/project';
const AT = '2026-12-01T12:00:00.000Z';
const DEADLINE = '2026-12-01T12:01:00.000Z';
const CALL = 'implement.1.1.1';

const workflow = parseWorkflow(
  {
    id: 'implement-only',
    initialStage: 'implement',
    stages: [
      {
        id: 'implement',
        role: 'implementer',
        instructions: 'Change the workspace as the task says.',
        allowedTools: ['read_file', 'write_file'],
        capabilities: ['tool_calling'],
        artifact: {
          kind: 'note',
          schema: { type: 'object', properties: { summary: { type: 'string' } } },
        },
        transitions: [
          { when: { on: 'success' }, end: 'completed' },
          { when: { on: 'failure' }, end: 'failed' },
        ],
      },
    ],
  },
  { source: 'spec' },
);

function configWith(flags: ReadonlySet<string>): KernelConfig {
  return createKernelConfig({
    behaviour: { kernelVersion: currentBehaviour().kernelVersion, flags },
    workflow,
    tools: builtinTools,
    policy: createAssessmentPolicy(parseWorkspacePolicy({ approvalTimeoutMs: 60_000 })),
    router: createInferenceRouter({
      profiles: [
        {
          id: 'm',
          provider: 'p',
          model: 'model-1',
          capabilities: ['tool_calling'],
          contextWindow: 32_000,
        },
      ],
    }),
    validators: createDefaultValidatorRegistry(),
    homeDirectory: '/home/dev',
  });
}

const withTimeout = configWith(currentBehaviour().flags);
const withoutTimeout = configWith(
  new Set([...currentBehaviour().flags].filter((flag) => flag !== APPROVAL_TIMEOUT.name)),
);

/** The recorded result of an effect on the way to the write's approval. */
function resultOf(effect: Effect): Payload[] {
  switch (effect.type) {
    case 'detect_checks':
      return [{ type: 'project_checks_detected', checks: [], problems: [] }];
    case 'infer': {
      const result: InferenceResult = {
        text: '',
        toolCalls: [
          {
            callId: 'm0',
            name: 'write_file',
            argsRaw: JSON.stringify({ path: 'notes.txt', content: 'x\n' }),
            args: { path: 'notes.txt', content: 'x\n' },
          },
        ],
        finishReason: 'tool_calls',
        usage: { inputTokens: 1, outputTokens: 1 },
        modelId: 'model-1',
        latencyMs: 1,
      };
      const { requestId, requestDigest } = effect;
      return [{ type: 'inference_completed', requestId, provider: 'p', requestDigest, result }];
    }
    case 'probe':
      return effect.paths.map((path) => ({
        type: 'world_observed' as const,
        callId: effect.callId,
        observation: {
          path,
          kind: 'missing' as const,
          realPath: path,
          linkTarget: null,
          sha256: null,
          size: null,
          mtimeMs: null,
          linkCount: null,
        },
      }));
    default:
      throw new Error(`the script does not answer ${effect.type}`);
  }
}

/**
 * A prompt-mode session driven decision by decision until the write's probe is answered: the
 * history before that answer, and the answer (the input on which the call is assessed).
 */
function untilAssessed(config: KernelConfig): { history: Payload[]; observed: Payload } {
  const spec = kernelSpecification(config, { at: AT });
  const start = sessionStart(config, { task: 'write notes', workspace: WORKSPACE, mode: 'prompt' });
  const history: Payload[] = start.slice(0, -1);
  let inputs: Payload[] = [start.at(-1)!];
  for (let step = 0; step < 50; step++) {
    const input = inputs.shift()!;
    if (input.type === 'world_observed' && inputs.length === 0) return { history, observed: input };
    const decision = spec.given(...history).when(input).decision;
    history.push(input, ...decision.events.map((event) => event.payload));
    if (inputs.length === 0 && decision.effect !== null) inputs = resultOf(decision.effect);
  }
  throw new Error('the session never probed the write');
}

describe('the approval timeout (a registered feature)', () => {
  it("gives a call's request for approval its deadline, and waits for a person until it", () => {
    const { history, observed } = untilAssessed(withTimeout);
    kernelSpecification(withTimeout, { at: AT })
      .given(...history)
      .when(observed)
      .thenEmits([
        { type: 'tool_call_assessed', callId: CALL },
        { type: 'approval_requested', callId: CALL, deadline: DEADLINE },
      ])
      .thenAwaits({ type: 'await_approval', callId: CALL, deadline: DEADLINE });
  });

  it('denies the call by timeout once a runner recorded that its deadline passed', () => {
    const { history, observed } = untilAssessed(withTimeout);
    const asked = kernelSpecification(withTimeout, { at: AT })
      .given(...history)
      .when(observed);
    const requested = asked.decision.events.map((event) => event.payload);
    const { decision } = kernelSpecification(withTimeout, { at: AT })
      .given(...history, observed, ...requested)
      .when({ type: 'approval_timed_out', callId: CALL, deadline: DEADLINE });
    expect(decision.events[0]?.payload).toEqual({
      type: 'approval_denied',
      callId: CALL,
      by: { kind: 'timeout', id: 'approvalTimeoutMs' },
      reason: `nobody decided by ${DEADLINE} (the policy's approvalTimeoutMs is 60000 ms), so it was denied`,
    });
    expect(decision.events.some((event) => event.payload.type === 'tool_call_started')).toBe(false);
  });

  it('holds the deadline in its own slice of the state, not in the call', () => {
    const { history, observed } = untilAssessed(withTimeout);
    const asked = kernelSpecification(withTimeout, { at: AT })
      .given(...history)
      .when(observed);
    const requested = asked.decision.events.map((event) => event.payload);
    const { state } = kernelSpecification(withTimeout, { at: AT }).given(
      ...history,
      observed,
      ...requested,
    );
    expect(state.features.approvalTimeout).toEqual({
      [CALL]: { deadline: DEADLINE, timedOut: false },
    });
  });

  it('leaves a session recorded without the flag waiting for a person, with no deadline', () => {
    const { history, observed } = untilAssessed(withoutTimeout);
    const { decision } = kernelSpecification(withoutTimeout, { at: AT })
      .given(...history)
      .when(observed)
      .thenAwaits({ type: 'await_approval', callId: CALL });
    expect(decision.effect).toEqual({ type: 'await_approval', callId: CALL });
    const requested = decision.events.find((event) => event.payload.type === 'approval_requested');
    expect(requested?.payload).not.toHaveProperty('deadline');
  });
});
