import { describe, expect, it } from 'vitest';
import { kernelSpecification, sessionStart } from '../../../testing/kernel-specification.js';
import type { CorrexEvent } from '../../event-catalog.js';
import { createInferenceRouter } from '../../inference/inference-router.js';
import type { InferenceResult } from '../../inference/inference-result.js';
import { parseWorkspacePolicy } from '../../policies/workspace-policy.js';
import { createAssessmentPolicy } from '../../toolintent/default-rules.js';
import type { WorldObservation } from '../../toolintent/toolintent-events.js';
import { builtinTools } from '../../tools/builtin-tools.js';
import { defaultCodingWorkflow } from '../../transitions/default-coding-workflow.js';
import { parseWorkflow } from '../../transitions/workflow.js';
import { createDefaultValidatorRegistry } from '../../validation/default-validators.js';
import { canonicalJson } from '../../events/canonical-json.js';
import type { KernelBehaviour } from '../config/behaviour.js';
import { currentBehaviour } from '../config/behaviour.js';
import {
  FINISHING_TOOL,
  NATIVE_TOOL_TRANSCRIPT,
  TRANSIENT_PROVIDER_WAITS,
} from '../config/kernel-flags.js';
import { createKernelConfig, type KernelConfig } from '../config/kernel-config.js';

/*
 * The kernel's decision logic as pure specifications: given recorded events, when an input
 * arrives, then these events and this effect. No store, tools or model; each runs in well under
 * a millisecond. The end-to-end scenarios (real tools, real stores) live in test/kernel and feed
 * the frozen corpus in test/golden/sessions.
 */
type Payload = CorrexEvent['payload'];

const WORKSPACE = '/work/project';

function configFor(
  workflow = defaultCodingWorkflow,
  limits = {},
  behaviour?: KernelBehaviour,
): KernelConfig {
  return createKernelConfig({
    ...(behaviour === undefined ? {} : { behaviour }),
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
    limits,
  });
}

const implementOnly = parseWorkflow(
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
          schema: {
            type: 'object',
            properties: { summary: { type: 'string' } },
            required: ['summary'],
          },
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

function result(partial: Partial<InferenceResult>): InferenceResult {
  return {
    text: '',
    toolCalls: [],
    finishReason: partial.toolCalls?.length ? 'tool_calls' : 'stop',
    usage: { inputTokens: 10, outputTokens: 5 },
    modelId: 'model-1',
    latencyMs: 3,
    ...partial,
  };
}

function call(name: string, args: Record<string, unknown>, index = 1) {
  const argsRaw = JSON.stringify(args);
  return { callId: `m${index}`, name, argsRaw, args };
}

function observation(path: string, kind: WorldObservation['kind']): WorldObservation {
  return {
    path,
    kind,
    realPath: path,
    linkTarget: null,
    sha256: kind === 'file' ? 'a'.repeat(64) : null,
    size: kind === 'file' ? 3 : null,
    mtimeMs: kind === 'missing' ? null : 1,
    linkCount: kind === 'file' ? 1 : null,
  };
}

/** A session of `config` that started and asked its first model call (`implement.1.1`). */
function requested(config: KernelConfig, mode: 'auto' | 'prompt' = 'auto') {
  const spec = kernelSpecification(config);
  const start = sessionStart(config, { task: 'write notes', workspace: WORKSPACE, mode });
  const first = spec.given(...start.slice(0, -1)).when(start.at(-1)!);
  const opened = [...start, ...first.decision.events.map((event) => event.payload)];
  const detected: Payload = { type: 'project_checks_detected', checks: [], problems: [] };
  const next = spec.given(...opened).when(detected);
  return [...opened, detected, ...next.decision.events.map((event) => event.payload)];
}

/** The decision that answers the session's checks: its first model call. */
function firstModelCall(config: KernelConfig) {
  const spec = kernelSpecification(config);
  const start = sessionStart(config, { task: 'write notes', workspace: WORKSPACE });
  const first = spec.given(...start.slice(0, -1)).when(start.at(-1)!);
  const opened = [...start, ...first.decision.events.map((event) => event.payload)];
  return spec.given(...opened).when({ type: 'project_checks_detected', checks: [], problems: [] });
}

describe('the kernel as a decider', () => {
  const config = configFor(implementOnly);

  it("starts the workflow and awaits the project's checks before the first stage", () => {
    const start = sessionStart(config, { task: 'write notes', workspace: WORKSPACE });
    kernelSpecification(config)
      .given(...start.slice(0, -1))
      .when(start.at(-1)!)
      .thenEmits([{ type: 'workflow_started', firstStageId: 'implement' }])
      .thenAwaits({ type: 'detect_checks' });
  });

  it('starts the first stage and its model call once the checks are recorded, and awaits the call', () => {
    const start = sessionStart(config, { task: 'write notes', workspace: WORKSPACE });
    const opened = kernelSpecification(config)
      .given(...start.slice(0, -1))
      .when(start.at(-1)!)
      .decision.events.map((event) => event.payload);
    kernelSpecification(config)
      .given(...start, ...opened)
      .when({ type: 'project_checks_detected', checks: [], problems: [] })
      .thenEmits([
        { type: 'brief_checked', references: [], missing: [] },
        { type: 'stage_checkpoint_recorded', stageId: 'implement', attempt: 1, files: [] },
        { type: 'stage_started', stageId: 'implement', attempt: 1 },
        {
          type: 'inference_requested',
          requestId: 'implement.1.1',
          provider: 'p',
          model: 'model-1',
        },
      ])
      .thenAwaits({ type: 'infer', requestId: 'implement.1.1', provider: 'p' });
  });

  it('proposes each call of an answer, then awaits the probe its rules need', () => {
    const history = requested(config);
    const digest = (history.at(-1) as { requestDigest: string }).requestDigest;
    kernelSpecification(config)
      .given(...history)
      .when({
        type: 'inference_completed',
        requestId: 'implement.1.1',
        provider: 'p',
        requestDigest: digest,
        result: result({ toolCalls: [call('write_file', { path: 'notes.txt', content: 'hi' })] }),
      })
      .thenEmits([{ type: 'tool_call_proposed', callId: 'implement.1.1.1', tool: 'write_file' }])
      .thenAwaits({ type: 'probe', callId: 'implement.1.1.1', paths: [`${WORKSPACE}/notes.txt`] });
  });

  function proposedWrite(mode: 'auto' | 'prompt') {
    const history = requested(config, mode);
    const digest = (history.at(-1) as { requestDigest: string }).requestDigest;
    const answered: Payload = {
      type: 'inference_completed',
      requestId: 'implement.1.1',
      provider: 'p',
      requestDigest: digest,
      result: result({ toolCalls: [call('write_file', { path: 'notes.txt', content: 'hi' })] }),
    };
    const proposal = kernelSpecification(config)
      .given(...history)
      .when(answered);
    return [...history, answered, ...proposal.decision.events.map((event) => event.payload)];
  }

  const observedNotes: Payload = {
    type: 'world_observed',
    callId: 'implement.1.1.1',
    observation: observation(`${WORKSPACE}/notes.txt`, 'missing'),
  };

  it('assesses an observed call, approves it in auto mode, records the intent and awaits it', () => {
    kernelSpecification(config)
      .given(...proposedWrite('auto'))
      .when(observedNotes)
      .thenEmits([
        { type: 'tool_call_assessed', callId: 'implement.1.1.1', verdict: 'ALLOW', tier: 'T1' },
        { type: 'approval_granted', callId: 'implement.1.1.1', by: { kind: 'auto', id: 'auto' } },
        {
          type: 'tool_call_started',
          callId: 'implement.1.1.1',
          targets: [{ path: `${WORKSPACE}/notes.txt`, sha256: null }],
        },
      ])
      .thenAwaits({ type: 'execute', callId: 'implement.1.1.1', tool: 'write_file' });
  });

  it('asks a person in prompt mode and waits for nobody but them', () => {
    kernelSpecification(config)
      .given(...proposedWrite('prompt'))
      .when(observedNotes)
      .thenEmits([
        { type: 'tool_call_assessed', callId: 'implement.1.1.1' },
        { type: 'approval_requested', callId: 'implement.1.1.1', tier: 'T1' },
      ])
      .thenAwaits({ type: 'await_approval', callId: 'implement.1.1.1' });
  });

  it('refuses a call to a tool the stage does not grant, with a hint the model can act on', () => {
    const history = requested(config);
    const digest = (history.at(-1) as { requestDigest: string }).requestDigest;
    const decision = kernelSpecification(config)
      .given(...history)
      .when({
        type: 'inference_completed',
        requestId: 'implement.1.1',
        provider: 'p',
        requestDigest: digest,
        result: result({ toolCalls: [call('http_fetch', { url: 'https://example.com' })] }),
      })
      .thenEmits([
        { type: 'tool_call_proposed', tool: 'http_fetch' },
        { type: 'tool_call_rejected', reason: 'tool_not_allowed' },
        { type: 'inference_requested', requestId: 'implement.1.2' },
      ])
      .thenAwaits({ type: 'infer', requestId: 'implement.1.2' }).decision;
    // The next request is built from the history the decision just made: the refusal is in it.
    const infer = decision.effect;
    if (infer?.type !== 'infer') throw new Error('expected a model call');
    expect(infer.request.messages.map((m) => m.content).join('\n')).toContain(
      'does not grant http_fetch',
    );
    // Native transcript: the turn carries its call, and the refusal is that call's result.
    expect(infer.request.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: '',
        toolCalls: [
          {
            callId: 'implement.1.1.1',
            name: 'http_fetch',
            argsRaw: '{"url":"https://example.com"}',
          },
        ],
      },
      {
        role: 'tool',
        callId: 'implement.1.1.1',
        toolName: 'http_fetch',
        content: expect.stringContaining('does not grant http_fetch') as string,
      },
    ]);
  });

  it('renders the transcript as text for a session recorded without native-tool-transcript', () => {
    const legacy = configFor(implementOnly, {}, { kernelVersion: 2, flags: new Set() });
    const history = requested(legacy);
    const digest = (history.at(-1) as { requestDigest: string }).requestDigest;
    const decision = kernelSpecification(legacy)
      .given(...history)
      .when({
        type: 'inference_completed',
        requestId: 'implement.1.1',
        provider: 'p',
        requestDigest: digest,
        result: result({ toolCalls: [call('http_fetch', { url: 'https://example.com' })] }),
      })
      .thenAwaits({ type: 'infer', requestId: 'implement.1.2' }).decision;
    const infer = decision.effect;
    if (infer?.type !== 'infer') throw new Error('expected a model call');
    expect(infer.request.messages.every((m) => m.role !== 'tool' && !('toolCalls' in m))).toBe(
      true,
    );
    expect(infer.request.messages.map((m) => m.content).join('\n')).toContain(
      'Tool call 1: http_fetch {"url":"https://example.com"}',
    );
    // Without finishing-tool the stage still answers in JSON against the response schema.
    expect(infer.request.tools.map((t) => t.name)).not.toContain('finish_note');
    expect(infer.request.responseSchema).toBeDefined();
  });

  it('offers the finishing tool with the artifact schema as its parameters, and no response schema', () => {
    const history = requested(config);
    const requestedEvent = history.at(-1) as { toolNames: string[] };
    expect(requestedEvent.toolNames).toContain('finish_note');
    const decision = firstModelCall(config).thenAwaits({ type: 'infer' }).decision;
    const infer = decision.effect;
    if (infer?.type !== 'infer') throw new Error('expected a model call');
    const finish = infer.request.tools.find((t) => t.name === 'finish_note');
    expect(finish?.inputSchema).toEqual(implementOnly.stages.get('implement')?.artifact.schema);
    expect(infer.request.responseSchema).toBeUndefined();
    expect(infer.request.messages[0]?.content).toContain('call the tool `finish_note` alone');
  });

  it('charges the tool definitions to the budget and the estimate behind budget-request-definitions', () => {
    const without = configFor(
      implementOnly,
      {},
      {
        kernelVersion: 2,
        flags: new Set([NATIVE_TOOL_TRANSCRIPT.name, FINISHING_TOOL.name]),
      },
    );
    const estimate = (c: KernelConfig) =>
      (
        requested(c).findLast((event) => event.type === 'inference_requested') as {
          tokenEstimate: number;
        }
      ).tokenEstimate;
    const decision = firstModelCall(config).decision;
    const infer = decision.effect;
    if (infer?.type !== 'infer') throw new Error('expected a model call');
    const definitions = config.tokenizer.count(
      canonicalJson({ tools: infer.request.tools, responseSchema: null } as never),
    );
    expect(definitions).toBeGreaterThan(100);
    expect(estimate(config) - estimate(without)).toBe(definitions);
  });

  it('refuses a plain-text answer when the finishing tool is due, naming the tool', () => {
    const history = requested(config);
    const digest = (history.at(-1) as { requestDigest: string }).requestDigest;
    const decision = kernelSpecification(config)
      .given(...history)
      .when({
        type: 'inference_completed',
        requestId: 'implement.1.1',
        provider: 'p',
        requestDigest: digest,
        result: result({ text: JSON.stringify({ summary: 'wrote notes' }) }),
      }).decision;
    expect(decision.events.map((event) => event.payload).slice(0, 3)).toMatchObject([
      { type: 'artifact_proposed' },
      {
        type: 'validation_failed',
        validator: 'finishing_tool',
        message: expect.stringContaining('call the tool `finish_note`') as string,
      },
      { type: 'inference_requested', requestId: 'implement.1.2' },
    ]);
  });

  it('refuses a finishing call made alongside other calls and runs the others', () => {
    const history = requested(config);
    const digest = (history.at(-1) as { requestDigest: string }).requestDigest;
    const decision = kernelSpecification(config)
      .given(...history)
      .when({
        type: 'inference_completed',
        requestId: 'implement.1.1',
        provider: 'p',
        requestDigest: digest,
        result: result({
          toolCalls: [
            call('list_dir', { path: '.' }, 1),
            call('finish_note', { summary: 'early' }, 2),
          ],
        }),
      }).decision;
    expect(decision.events.map((event) => event.payload).slice(0, 3)).toMatchObject([
      { type: 'tool_call_proposed', tool: 'list_dir' },
      { type: 'tool_call_proposed', tool: 'finish_note' },
      {
        type: 'tool_call_rejected',
        tool: 'finish_note',
        message: expect.stringContaining('call finish_note alone') as string,
      },
    ]);
  });

  it('keeps the JSON answer for a session recorded without finishing-tool', () => {
    const legacy = configFor(implementOnly, {}, { kernelVersion: 2, flags: new Set() });
    const history = requested(legacy);
    const digest = (history.at(-1) as { requestDigest: string }).requestDigest;
    const decision = kernelSpecification(legacy)
      .given(...history)
      .when({
        type: 'inference_completed',
        requestId: 'implement.1.1',
        provider: 'p',
        requestDigest: digest,
        result: result({ text: JSON.stringify({ summary: 'wrote notes' }) }),
      }).decision;
    expect(decision.events.map((event) => event.payload).slice(0, 3)).toMatchObject([
      { type: 'artifact_proposed', kind: 'note' },
      { type: 'artifact_accepted', kind: 'note' },
      { type: 'stage_completed', stageId: 'implement' },
    ]);
  });

  it('turns a call of the finishing tool into an artifact, validates it and ends the workflow', () => {
    const history = requested(config);
    const digest = (history.at(-1) as { requestDigest: string }).requestDigest;
    const done = kernelSpecification(config)
      .given(...history)
      .when({
        type: 'inference_completed',
        requestId: 'implement.1.1',
        provider: 'p',
        requestDigest: digest,
        result: result({ toolCalls: [call('finish_note', { summary: 'wrote notes' })] }),
      })
      .thenEmits([
        { type: 'artifact_proposed', kind: 'note', stageId: 'implement' },
        { type: 'artifact_accepted', kind: 'note' },
        { type: 'stage_completed', stageId: 'implement' },
        { type: 'transition_taken', from: 'implement', end: 'completed' },
        { type: 'workflow_completed', finalStageId: 'implement' },
      ])
      .thenIdles().decision;
    // The artifact travels whole in the decision: the runner stores what was hashed.
    expect(done.artifacts).toMatchObject([{ kind: 'note', content: { summary: 'wrote notes' } }]);
    expect(done.artifacts[0]?.hash).toBe((done.events[0]?.payload as { hash: string }).hash);
  });

  it('sends an artifact that fails its schema back to the model in the same attempt', () => {
    const history = requested(config);
    const digest = (history.at(-1) as { requestDigest: string }).requestDigest;
    kernelSpecification(config)
      .given(...history)
      .when({
        type: 'inference_completed',
        requestId: 'implement.1.1',
        provider: 'p',
        requestDigest: digest,
        result: result({ toolCalls: [call('finish_note', { nothing: true })] }),
      })
      .thenEmits([
        { type: 'artifact_proposed' },
        { type: 'validation_failed', phase: 'schema', validator: 'schema' },
        { type: 'inference_requested', requestId: 'implement.1.2' },
      ])
      .thenAwaits({ type: 'infer', requestId: 'implement.1.2' });
  });

  it('fails an attempt that used all its turns', () => {
    const bounded = configFor(implementOnly, { maxTurnsPerStage: 1 });
    const history = requested(bounded);
    const digest = (history.at(-1) as { requestDigest: string }).requestDigest;
    kernelSpecification(bounded)
      .given(...history)
      .when({
        type: 'inference_completed',
        requestId: 'implement.1.1',
        provider: 'p',
        requestDigest: digest,
        result: result({ text: 'not json' }),
      })
      .thenEmits([
        { type: 'artifact_proposed' },
        { type: 'validation_failed' },
        { type: 'stage_failed', category: 'inference' },
        { type: 'transition_taken', end: 'failed' },
        { type: 'workflow_failed', category: 'inference' },
      ])
      .thenIdles();
  });

  it("waits out a transient failure's recorded delay and makes the call again in the same attempt", () => {
    const retrying = configFor(
      parseWorkflow(
        {
          ...implementOnly.definition,
          stages: [
            {
              ...implementOnly.definition.stages[0]!,
              retry: { maxAttempts: 2, retryOn: ['provider'], providerWaitMs: 3_000 },
            },
          ],
        },
        { source: 'spec' },
      ),
    );
    const failed = {
      type: 'inference_failed',
      requestId: 'implement.1.1',
      provider: 'p',
      model: 'model-1',
      category: 'rate_limit',
      message: 'slow down',
      retryAfterMs: 2_000,
    } as const;
    kernelSpecification(retrying, { at: '2026-12-01T12:00:00.000Z' })
      .given(...requested(retrying))
      .when(failed)
      .thenEmits([
        { type: 'retry_delay_started', delayMs: 2_000, until: '2026-12-01T12:00:02.000Z' },
      ])
      .thenAwaits({ type: 'wait', until: '2026-12-01T12:00:02.000Z', delayMs: 2_000 });
    // The wait over, the same turn's call is made again under a new request id.
    const waited = [
      ...requested(retrying),
      failed,
      {
        type: 'retry_delay_started',
        requestId: 'implement.1.1',
        provider: 'p',
        delayMs: 2_000,
        until: '2026-12-01T12:00:02.000Z',
      },
    ] as const;
    const again = kernelSpecification(retrying, { at: '2026-12-01T12:00:00.000Z' })
      .given(...waited)
      .when({ type: 'retry_delay_elapsed', until: '2026-12-01T12:00:02.000Z' })
      .thenEmits([{ type: 'inference_requested', requestId: 'implement.1.2' }]);
    // A second wait would pass the stage's bound (3 s): the attempt fails, and its retry follows.
    kernelSpecification(retrying, { at: '2026-12-01T12:00:00.000Z' })
      .given(
        ...waited,
        { type: 'retry_delay_elapsed', until: '2026-12-01T12:00:02.000Z' },
        ...again.decision.events.map((event) => event.payload),
      )
      .when({ ...failed, requestId: 'implement.1.2' })
      .thenEmits([
        {
          type: 'stage_failed',
          category: 'provider',
          message: 'still failing after 1 retry over 2 s of waits: slow down',
        },
        { type: 'transition_taken', from: 'implement', to: 'implement', attempt: 2 },
        { type: 'stage_checkpoint_recorded' },
        { type: 'stage_start_reconciled' },
        { type: 'stage_started', stageId: 'implement', attempt: 2 },
        { type: 'retry_delay_started', delayMs: 2_000 },
      ]);
  });

  it('without transient-provider-waits: a rate-limited call fails its attempt, and the retried attempt waits out the delay', () => {
    const retrying = configFor(
      parseWorkflow(
        {
          ...implementOnly.definition,
          stages: [
            {
              ...implementOnly.definition.stages[0]!,
              retry: { maxAttempts: 2, retryOn: ['provider'] },
            },
          ],
        },
        { source: 'spec' },
      ),
      {},
      {
        kernelVersion: 2,
        flags: new Set(
          [...currentBehaviour().flags].filter((flag) => flag !== TRANSIENT_PROVIDER_WAITS.name),
        ),
      },
    );
    kernelSpecification(retrying, { at: '2026-12-01T12:00:00.000Z' })
      .given(...requested(retrying))
      .when({
        type: 'inference_failed',
        requestId: 'implement.1.1',
        provider: 'p',
        model: 'model-1',
        category: 'rate_limit',
        message: 'slow down',
        retryAfterMs: 2_000,
      })
      .thenEmits([
        { type: 'stage_failed', category: 'provider' },
        { type: 'transition_taken', from: 'implement', to: 'implement', attempt: 2 },
        { type: 'stage_checkpoint_recorded', stageId: 'implement', attempt: 2 },
        {
          type: 'stage_start_reconciled',
          stageId: 'implement',
          attempt: 2,
          reason: 'retry',
          basis: 'as_left',
        },
        { type: 'stage_started', stageId: 'implement', attempt: 2 },
        { type: 'retry_delay_started', delayMs: 2_000, until: '2026-12-01T12:00:02.000Z' },
      ])
      .thenAwaits({ type: 'wait', until: '2026-12-01T12:00:02.000Z', delayMs: 2_000 });
  });

  it('answers nothing but the record when a cancel arrives while a call runs', () => {
    const history = [...proposedWrite('auto'), observedNotes];
    const approved = kernelSpecification(config)
      .given(...proposedWrite('auto'))
      .when(observedNotes);
    kernelSpecification(config)
      .given(...history, ...approved.decision.events.map((event) => event.payload))
      .when({ type: 'workflow_cancelled', by: 'ann' })
      .thenEmits([])
      .thenIdles();
  });

  it('refuses a redirect the workflow does not declare, and keeps waiting on the call', () => {
    const history = requested(configFor());
    kernelSpecification(configFor())
      .given(...history)
      .when({ type: 'redirect_requested', to: 'review', by: 'ann' })
      .thenEmits([{ type: 'redirect_rejected', from: 'plan', to: 'review' }])
      .thenAwaits({ type: 'infer', requestId: 'plan.1.1' });
  });

  it('moves along a declared transition on a redirect and starts the target stage', () => {
    const config = configFor();
    kernelSpecification(config)
      .given(...requested(config))
      .when({ type: 'redirect_requested', to: 'implement', by: 'ann', reason: 'plan is clear' })
      .thenEmits([
        { type: 'stage_redirected', from: 'plan', to: 'implement', by: 'ann' },
        { type: 'transition_taken', from: 'plan', to: 'implement', condition: 'redirect' },
        { type: 'stage_checkpoint_recorded', stageId: 'implement', attempt: 1, files: [] },
        { type: 'stage_started', stageId: 'implement', attempt: 1 },
        { type: 'inference_requested', requestId: 'implement.1.1' },
      ])
      .thenAwaits({ type: 'infer', requestId: 'implement.1.1' });
  });
});
