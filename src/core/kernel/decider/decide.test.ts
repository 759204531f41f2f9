import { describe, expect, it } from 'vitest';
import { createInferenceRouter } from '../../inference/inference-router.js';
import type { CorrexEvent } from '../../event-catalog.js';
import { parseWorkspacePolicy } from '../../policies/workspace-policy.js';
import { createAssessmentPolicy } from '../../toolintent/default-rules.js';
import { builtinTools } from '../../tools/builtin-tools.js';
import { defaultCodingWorkflow } from '../../transitions/default-coding-workflow.js';
import { createDefaultValidatorRegistry } from '../../validation/default-validators.js';
import { decide, derivedEventId, pendingEffect } from './decide.js';
import { decideCommand } from './decide-command.js';
import { createKernelConfig, InvalidKernelConfigError } from '../config/kernel-config.js';
import { KernelCommandError } from './kernel-errors.js';
import { awaitsDecision, kernelProjection, runOf, type KernelState } from './kernel-state.js';

const config = createKernelConfig({
  workflow: defaultCodingWorkflow,
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

function fold(
  state: KernelState,
  payload: CorrexEvent['payload'],
  eventId: string,
): { state: KernelState; event: CorrexEvent } {
  const event = {
    eventId,
    sessionId: 's1',
    sequence: state.session.lastSequence + 1,
    timestamp: '2026-11-30T12:00:00.000Z',
    version: 1,
    causationId: null,
    correlationId: null,
    payload,
    position: state.session.lastSequence + 1,
    hash: 'h',
  } as CorrexEvent;
  return { state: kernelProjection.evolve(state, event), event };
}

function started(): { state: KernelState; event: CorrexEvent } {
  const [created] = decideCommand(kernelProjection.initial(), 's1', {
    type: 'start',
    task: 'fix the bug',
    workspace: '/work/project',
    workflowId: 'default-coding',
    mode: 'prompt',
  });
  return fold(kernelProjection.initial(), created!, 'in-1');
}

/** A started session whose project checks were just recorded (none found): the first stage is next. */
function begun(): { state: KernelState; event: CorrexEvent } {
  const { state, event } = started();
  const current = decide(config, state, event).state;
  return fold(current, { type: 'project_checks_detected', checks: [], problems: [] }, 'in-1b');
}

describe('decide', () => {
  it('answers a start with the workflow and the detection of the project checks', () => {
    const { state, event } = started();
    expect(awaitsDecision(state)).toBe(true);
    const decision = decide(config, state, event);
    expect(decision.events.map((e) => e.payload.type)).toEqual(['workflow_started']);
    expect(decision.effect).toEqual({ type: 'detect_checks' });
  });

  it('answers the recorded checks with the first stage and a model request, and derives ids', () => {
    const { state, event } = begun();
    expect(awaitsDecision(state)).toBe(true);
    const decision = decide(config, state, event);
    expect(decision.events.map((e) => e.payload.type)).toEqual([
      'brief_checked',
      'stage_checkpoint_recorded',
      'stage_started',
      'inference_requested',
    ]);
    expect(decision.events.map((e) => e.eventId)).toEqual(
      [0, 1, 2, 3].map((i) => derivedEventId('s1', 'in-1b', i)),
    );
    expect(decision.events.every((e) => e.causationId === 'in-1b')).toBe(true);
    expect(decision.effect).toMatchObject({ type: 'infer', requestId: 'plan.1.1', provider: 'p' });
    const infer = decision.effect!;
    if (infer.type !== 'infer') throw new Error('expected infer');
    expect(infer.request.tools.map((tool) => tool.name)).toEqual([
      'read_file',
      'list_dir',
      'glob',
      'grep',
      'finish_plan',
    ]);
    expect(infer.request.messages.map((m) => m.content).join('\n')).toContain('Task: fix the bug');
  });

  it('is pure: the same state and input give the same bytes, every time', () => {
    const { state, event } = begun();
    expect(JSON.stringify(decide(config, state, event))).toBe(
      JSON.stringify(decide(config, state, event)),
    );
  });

  it('rebuilds the pending request from state alone, as after a restart', () => {
    const { state, event } = begun();
    const decision = decide(config, state, event);
    expect(pendingEffect(config, decision.state)).toEqual({
      settled: true,
      effect: decision.effect,
    });
  });

  it('derives nothing while an effect is pending, whatever input arrives', () => {
    const { state, event } = begun();
    let current = decide(config, state, event).state;
    const note = fold(
      current,
      { type: 'steering_note_added', sessionId: 's1', content: 'be brief' },
      'in-2',
    );
    current = note.state;
    expect(decide(config, current, note.event).events).toEqual([]);
  });
});

describe('the call state machine', () => {
  it('ignores an approval appended for a call that already ran: it never runs twice', () => {
    const { state, event } = begun();
    const current = decide(config, state, event).state;
    const answer = fold(
      current,
      {
        type: 'inference_completed',
        requestId: 'plan.1.1',
        provider: 'p',
        requestDigest: runOf(current)!.turn!.requestDigest,
        result: {
          text: '',
          toolCalls: [
            { callId: 'm1', name: 'list_dir', argsRaw: '{"path":"."}', args: { path: '.' } },
            { callId: 'm2', name: 'list_dir', argsRaw: '{"path":"src"}', args: { path: 'src' } },
          ],
          finishReason: 'tool_calls',
          usage: { inputTokens: 1, outputTokens: 1 },
          modelId: 'model-1',
          latencyMs: 1,
        },
      },
      'in-2',
    );
    const proposed = decide(config, answer.state, answer.event);
    expect(proposed.effect).toMatchObject({
      type: 'probe',
      callId: 'plan.1.1.1',
      paths: ['/work/project'],
    });
    const observed = fold(
      proposed.state,
      {
        type: 'world_observed',
        callId: 'plan.1.1.1',
        observation: {
          path: '/work/project',
          kind: 'directory',
          realPath: '/work/project',
          linkTarget: null,
          sha256: null,
          size: null,
          mtimeMs: 1,
          linkCount: null,
        },
      },
      'in-3',
    );
    const approved = decide(config, observed.state, observed.event);
    expect(approved.events.map((e) => e.payload.type)).toEqual([
      'tool_call_assessed',
      'approval_granted',
      'tool_call_started',
    ]);
    expect(approved.effect).toMatchObject({ type: 'execute', callId: 'plan.1.1.1' });
    const receipt = fold(
      approved.state,
      {
        type: 'tool_receipt',
        callId: 'plan.1.1.1',
        tool: 'list_dir',
        args: { path: '.' },
        outcome: 'succeeded',
        exitCode: null,
        error: null,
        output: 'a.txt',
        outputBytes: 5,
        outputSha256: 'a'.repeat(64),
        truncated: false,
        files: [],
        durationMs: 1,
      },
      'in-4',
    );
    const next = decide(config, receipt.state, receipt.event);
    expect(next.effect).toMatchObject({ type: 'probe', callId: 'plan.1.1.2' });
    // Someone appends an approval for the call that already ran, in the same turn.
    const stray = fold(
      next.state,
      { type: 'approval_granted', callId: 'plan.1.1.1', by: { kind: 'human', id: 'eve' } },
      'in-5',
    );
    const decision = decide(config, stray.state, stray.event);
    expect(decision.events).toEqual([]);
    expect(decision.effect).toEqual(next.effect);
  });
});

describe('decideCommand', () => {
  it('records lifecycle moves the status does not allow as lifecycle_rejected', () => {
    expect(
      decideCommand(kernelProjection.initial(), 's1', { type: 'pause', by: 'ann' }),
    ).toMatchObject([{ type: 'lifecycle_rejected', command: 'pause', status: 'new' }]);
  });

  it('refuses to approve a call that awaits no approval, and a relative workspace', () => {
    expect(() =>
      decideCommand(kernelProjection.initial(), 's1', { type: 'approve', callId: 'x', by: 'ann' }),
    ).toThrow(KernelCommandError);
    expect(() =>
      decideCommand(kernelProjection.initial(), 's1', {
        type: 'start',
        task: 't',
        workspace: 'rel/dir',
        workflowId: 'w',
        mode: 'auto',
      }),
    ).toThrow(/absolute normalized path/);
  });

  it('rejects a configuration with a duplicate tool or a zero bound', () => {
    const base = {
      workflow: defaultCodingWorkflow,
      policy: config.policy,
      router: config.router,
      validators: config.validators,
      homeDirectory: '/h',
    };
    expect(() =>
      createKernelConfig({ ...base, tools: [...builtinTools, builtinTools[0]!] }),
    ).toThrow(InvalidKernelConfigError);
    expect(() =>
      createKernelConfig({ ...base, tools: builtinTools, limits: { maxTurnsPerStage: 0 } }),
    ).toThrow(/positive integer/);
  });
});
