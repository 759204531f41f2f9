import { describe, expect, it } from 'vitest';
import { kernelSpecification, sessionStart } from '../../../testing/kernel-specification.js';
import type { CorrexEvent } from '../../event-catalog.js';
import { createInferenceRouter } from '../../inference/inference-router.js';
import type { InferenceResult } from '../../inference/inference-result.js';
import { parseWorkspacePolicy } from '../../policies/workspace-policy.js';
import { createAssessmentPolicy } from '../../toolintent/default-rules.js';
import { builtinTools } from '../../tools/builtin-tools.js';
import { parseWorkflow } from '../../transitions/workflow.js';
import { createDefaultValidatorRegistry } from '../../validation/default-validators.js';
import { currentBehaviour } from '../config/behaviour.js';
import type { Effect } from './effect.js';
import { ENDED_ATTEMPT_REFUSES_THE_REST } from '../config/kernel-flags.js';
import { createKernelConfig, type KernelConfig } from '../config/kernel-config.js';

/*
 * Every proposal of a batch ends with exactly one outcome, also when the attempt ends in the
 * middle of the batch (issue 32.6): the calls after the one that ended it are refused.
 */
type Payload = CorrexEvent['payload'];
const WORKSPACE = '/work/project';

const workflow = parseWorkflow(
  {
    id: 'implement-only',
    initialStage: 'implement',
    stages: [
      {
        id: 'implement',
        role: 'implementer',
        instructions: 'Change the workspace as the task says.',
        allowedTools: ['read_file', 'write_file', 'list_dir', 'exec'],
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
    policy: createAssessmentPolicy(parseWorkspacePolicy({})),
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

function answer(requestId: string, digest: string, calls: [string, object][]): Payload {
  const result: InferenceResult = {
    text: '',
    toolCalls: calls.map(([name, args], index) => ({
      callId: `m${index}`,
      name,
      argsRaw: JSON.stringify(args),
      args: args as Record<string, unknown>,
    })),
    finishReason: 'tool_calls',
    usage: { inputTokens: 1, outputTokens: 1 },
    modelId: 'model-1',
    latencyMs: 1,
  };
  return { type: 'inference_completed', requestId, provider: 'p', requestDigest: digest, result };
}

/** The recorded result of an effect: the model's next batch, a probe finding files, a failed run. */
function resultOf(effect: Effect, turns: [string, object][][]): Payload[] {
  switch (effect.type) {
    case 'detect_checks':
      return [{ type: 'project_checks_detected', checks: [], problems: [] }];
    case 'infer': {
      const turn = turns.shift();
      if (turn === undefined) throw new Error('the script ran out of turns');
      return [answer(effect.requestId, effect.requestDigest, turn)];
    }
    case 'probe':
      return effect.paths.map((path) => ({
        type: 'world_observed' as const,
        callId: effect.callId,
        observation: path.endsWith('/missing.txt')
          ? {
              path,
              kind: 'missing' as const,
              realPath: path,
              linkTarget: null,
              sha256: null,
              size: null,
              mtimeMs: null,
              linkCount: null,
            }
          : {
              path,
              kind: 'file' as const,
              realPath: path,
              linkTarget: null,
              sha256: 'a'.repeat(64),
              size: 3,
              mtimeMs: 1,
              linkCount: 1,
            },
      }));
    case 'execute':
      return [
        {
          type: 'tool_receipt',
          callId: effect.callId,
          tool: effect.tool,
          args: effect.args as Record<string, never>,
          outcome: 'failed',
          exitCode: 1,
          error: 'exit code 1',
          output: '',
          outputBytes: 0,
          outputSha256: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
          truncated: false,
          files: [],
          durationMs: 1,
        },
      ];
    default:
      throw new Error(`the script does not answer ${effect.type}`);
  }
}

/** Drives a session decision by decision until it idles; returns every payload recorded. */
function drive(config: KernelConfig, turns: [string, object][][]): Payload[] {
  const spec = kernelSpecification(config);
  const start = sessionStart(config, { task: 'write notes', workspace: WORKSPACE });
  const history: Payload[] = start.slice(0, -1);
  let inputs: Payload[] = [start.at(-1)!];
  for (let step = 0; step < 200 && inputs.length > 0; step++) {
    const input = inputs.shift()!;
    const decision = spec.given(...history).when(input).decision;
    history.push(input, ...decision.events.map((event) => event.payload));
    if (inputs.length === 0 && decision.effect !== null) inputs = resultOf(decision.effect, turns);
  }
  return history;
}

const failing: [string, object] = ['exec', { argv: ['false'] }];
const read: [string, object] = ['read_file', { path: 'notes.txt' }];
const script = () =>
  [[failing], [failing], [failing, read, ['list_dir', { path: '.' }]]] as [string, object][][];

function outcomesOf(history: readonly Payload[]) {
  const ending = new Set(['tool_receipt', 'tool_call_rejected', 'approval_denied']);
  return history
    .filter((payload) => payload.type === 'tool_call_proposed')
    .map((proposed) => ({
      callId: proposed.callId,
      outcomes: history
        .filter((p) => ending.has(p.type) && (p as { callId?: string }).callId === proposed.callId)
        .map((p) => (p.type === 'tool_call_rejected' ? `rejected:${p.reason}` : p.type)),
    }));
}

describe('an attempt that ends in the middle of a batch', () => {
  it('refuses the calls of the batch after the repeat that ended it, then fails the attempt', () => {
    const history = drive(configWith(currentBehaviour().flags), script());
    expect(outcomesOf(history)).toEqual([
      { callId: 'implement.1.1.1', outcomes: ['tool_receipt'] },
      { callId: 'implement.1.2.1', outcomes: ['tool_receipt'] },
      { callId: 'implement.1.3.1', outcomes: ['rejected:repeated_failure'] },
      { callId: 'implement.1.3.2', outcomes: ['rejected:attempt_ended'] },
      { callId: 'implement.1.3.3', outcomes: ['rejected:attempt_ended'] },
    ]);
    const types = history.map((payload) => payload.type);
    // The refusals come before the attempt ends, in the order the calls were proposed.
    expect(types.lastIndexOf('tool_call_rejected')).toBeLessThan(types.indexOf('stage_failed'));
    const refused = history.find(
      (payload) => payload.type === 'tool_call_rejected' && payload.reason === 'attempt_ended',
    );
    expect(refused).toMatchObject({ message: expect.stringContaining('same failing exec call') });
  });

  it('refuses the calls after the third block of a missing path, which ends the attempt', () => {
    const missing: [string, object] = ['read_file', { path: 'missing.txt' }];
    const history = drive(configWith(currentBehaviour().flags), [
      [missing, missing, missing, read],
    ]);
    expect(outcomesOf(history).map((call) => call.outcomes)).toEqual([
      ['approval_denied'],
      ['approval_denied'],
      ['approval_denied'],
      ['rejected:attempt_ended'],
    ]);
    expect(history.find((payload) => payload.type === 'stage_failed')).toMatchObject({
      category: 'workspace_precondition',
    });
  });

  it('leaves them without an outcome in a session recorded without the flag', () => {
    const flags = new Set(currentBehaviour().flags);
    flags.delete(ENDED_ATTEMPT_REFUSES_THE_REST.name);
    const history = drive(configWith(flags), script());
    expect(outcomesOf(history).slice(2)).toEqual([
      { callId: 'implement.1.3.1', outcomes: ['rejected:repeated_failure'] },
      { callId: 'implement.1.3.2', outcomes: [] },
      { callId: 'implement.1.3.3', outcomes: [] },
    ]);
  });
});
