import { describe, expect, it } from 'vitest';
import { artifactProjection } from '../artifacts/artifact-projection.js';
import { createArtifact, type Artifact, type ArtifactDraft } from '../artifacts/artifact.js';
import { sessionProjection } from '../sessions/session-projection.js';
import {
  defaultCodingWorkflow,
  defaultCodingWorkflowDefinition,
} from '../transitions/default-coding-workflow.js';
import { parseWorkflow } from '../transitions/workflow.js';
import type { ArtifactValidator, ValidationContext } from './artifact-validator.js';
import { createDefaultValidatorRegistry } from './default-validators.js';
import { artifactApprovalKey, validateArtifact } from './validate-artifact.js';
import { validationContextOf } from './validation-context.js';
import { createValidatorRegistry, ValidatorRegistrationError } from './validator-registry.js';

const planDraft = (content: unknown = {}): ArtifactDraft => ({
  kind: 'plan',
  sessionId: 's1',
  stageId: 'plan',
  content: {
    summary: 'Fix the date parser',
    steps: ['edit the parser', 'add a test'],
    files: [
      { path: 'src/dates.ts', change: 'modify' },
      { path: 'test/dates.test.ts', change: 'create' },
    ],
    ...(content as object),
  },
  lineage: { inferenceEventId: 'inference-1', parents: [] },
});
const plan = createArtifact(planDraft());

const context = (overrides: Partial<ValidationContext> = {}): ValidationContext => ({
  sessionId: 's1',
  activeStage: { stageId: 'plan', attempt: 1 },
  acceptedArtifacts: [],
  grantedApprovals: [],
  observations: [
    { path: 'src/dates.ts', exists: true },
    { path: 'test/dates.test.ts', exists: false },
  ],
  ...overrides,
});

const registry = createDefaultValidatorRegistry();
const run = (
  artifact: Artifact,
  ctx = context(),
  reg = registry,
  workflow = defaultCodingWorkflow,
) => validateArtifact({ workflow, registry: reg, context: ctx, artifact });

describe('validateArtifact', () => {
  it('accepts an artifact that passes every phase with exactly one artifact_accepted', () => {
    expect(run(plan)).toEqual({
      accepted: true,
      events: [{ type: 'artifact_accepted', hash: plan.hash, kind: 'plan', stageId: 'plan' }],
    });
  });

  describe('routing', () => {
    it.each<[string, Artifact, ValidationContext, string]>([
      [
        'another session',
        createArtifact({ ...planDraft(), sessionId: 's2' }),
        context(),
        'belongs to session `s2`, not `s1`',
      ],
      [
        'a stage that is not running',
        plan,
        context({ activeStage: { stageId: 'implement', attempt: 1 } }),
        'the running stage is `implement`',
      ],
      ['no running stage', plan, context({ activeStage: null }), 'no stage is running'],
      [
        'a kind the stage does not produce',
        createArtifact({ ...planDraft(), kind: 'change' }),
        context(),
        'produces `plan` artifacts, not `change`',
      ],
      [
        'an unknown stage',
        createArtifact({ ...planDraft(), stageId: 'deploy' }),
        context({ activeStage: { stageId: 'deploy', attempt: 1 } }),
        'has no stage `deploy`',
      ],
      [
        'a forged hash',
        { ...plan, content: { summary: 'other' } },
        context(),
        'hash does not match',
      ],
      [
        'a parent that was never accepted',
        createArtifact({
          ...planDraft(),
          lineage: { inferenceEventId: null, parents: ['a'.repeat(64)] },
        }),
        context(),
        'is not an accepted artifact',
      ],
    ])('rejects %s before any later phase runs', (_, artifact, ctx, message) => {
      let semanticCalls = 0;
      const spy: ArtifactValidator = {
        name: 'spy',
        kinds: ['plan', 'change'],
        validate: () => (semanticCalls++, []),
      };
      const result = run(artifact, ctx, registry.register(spy));
      expect(result).toMatchObject({ accepted: false, phase: 'routing' });
      expect(result.events).toContainEqual({
        type: 'validation_failed',
        hash: artifact.hash,
        stageId: artifact.stageId,
        phase: 'routing',
        validator: 'routing',
        message: expect.stringContaining(message) as string,
      });
      expect(semanticCalls).toBe(0);
    });
  });

  it('rejects content that does not match the stage schema, naming each path', () => {
    const bad = createArtifact(planDraft({ steps: [], files: [{ path: 'x', change: 'rename' }] }));
    const result = run(bad);
    expect(result).toMatchObject({ accepted: false, phase: 'schema' });
    expect(result.events).toHaveLength(1);
    expect(result.events[0]).toMatchObject({ phase: 'schema', validator: 'schema' });
    expect(result.events[0]!.type === 'validation_failed' && result.events[0]!.message).toMatch(
      /^the `plan` artifact does not match its schema: steps: .*; files\[0\]\.change: /,
    );
  });

  describe('semantic: plan files must match the observed workspace', () => {
    it.each([
      [
        { path: 'src/missing.ts', change: 'modify' },
        '`src/missing.ts` was never observed in the workspace',
      ],
      [
        { path: 'test/dates.test.ts', change: 'delete' },
        '`test/dates.test.ts` does not exist in the workspace, so it cannot be deleted',
      ],
      [
        { path: './src/dates.ts', change: 'create' },
        '`./src/dates.ts` already exists: plan to `modify` it',
      ],
    ])('%o', (file, message) => {
      const result = run(createArtifact(planDraft({ files: [file] })));
      expect(result).toEqual({
        accepted: false,
        phase: 'semantic',
        events: [
          expect.objectContaining({
            phase: 'semantic',
            validator: 'plan-files-observed',
            message: expect.stringContaining(message) as string,
          }),
        ],
      });
    });
  });

  describe('semantic: a review must reference the artifact it reviews', () => {
    const change = createArtifact({
      kind: 'change',
      sessionId: 's1',
      stageId: 'implement',
      content: { summary: 'done', filesChanged: ['src/dates.ts'] },
      lineage: { inferenceEventId: 'i2', parents: [] },
    });
    const reviewOf = (target: string, parents: string[]) =>
      createArtifact({
        kind: 'review',
        sessionId: 's1',
        stageId: 'review',
        content: { verdict: 'rework', reviewedArtifact: target, notes: ['handle leap years'] },
        lineage: { inferenceEventId: 'i3', parents },
      });
    const reviewing = context({
      activeStage: { stageId: 'review', attempt: 1 },
      acceptedArtifacts: [{ hash: change.hash, kind: 'change', stageId: 'implement' }],
    });

    it('accepts a review of an accepted change that lists it as a parent', () => {
      expect(run(reviewOf(change.hash, [change.hash]), reviewing).accepted).toBe(true);
    });

    it('rejects a review of an unknown artifact, and one whose lineage omits it', () => {
      expect(run(reviewOf('b'.repeat(64), []), reviewing).events[0]).toMatchObject({
        validator: 'review-references-artifact',
        message: expect.stringContaining(
          `review one of: ${change.hash} (change from implement)`,
        ) as string,
      });
      expect(run(reviewOf(change.hash, []), reviewing).events[0]).toMatchObject({
        message: expect.stringContaining(
          "must also be listed in the review's lineage parents",
        ) as string,
      });
    });

    it('rejects a verdict the stage does not declare at the schema phase', () => {
      const { hash: _hash, ...draft } = reviewOf(change.hash, [change.hash]);
      const bad = createArtifact({
        ...draft,
        content: { verdict: 'maybe', reviewedArtifact: change.hash, notes: [] },
      });
      expect(run(bad, reviewing)).toMatchObject({ accepted: false, phase: 'schema' });
    });
  });

  describe('extensions cannot bypass the pipeline', () => {
    const extra = (validate: ArtifactValidator['validate']): ArtifactValidator => ({
      name: 'extra',
      kinds: ['plan'],
      validate,
    });

    it('a validator that throws fails the artifact', () => {
      const result = run(
        plan,
        context(),
        registry.register(
          extra(() => {
            throw new Error('boom');
          }),
        ),
      );
      expect(result).toMatchObject({
        accepted: false,
        phase: 'semantic',
        events: [{ validator: 'extra', message: expect.stringContaining('boom') as string }],
      });
    });

    it('a validator that tries to change the artifact fails it and changes nothing', () => {
      const result = run(
        plan,
        context(),
        registry.register(
          extra(({ artifact }) => {
            (artifact.content as { summary: string }).summary = 'rewritten';
            return [];
          }),
        ),
      );
      expect(result.accepted).toBe(false);
      expect((plan.content as { summary: string }).summary).toBe('Fix the date parser');
    });

    it('a validator that returns anything but messages fails the artifact', () => {
      const result = run(
        plan,
        context(),
        registry.register(extra(() => 'ok' as unknown as string[])),
      );
      expect(result).toMatchObject({ accepted: false, phase: 'semantic' });
    });

    it('every failing validator is reported, each with its own event', () => {
      const reg = createValidatorRegistry([
        extra(() => ['first']),
        { name: 'more', kinds: ['plan'], validate: () => ['second', 'third'] },
      ]);
      expect(
        run(plan, context(), reg).events.map(
          (event) => event.type === 'validation_failed' && [event.validator, event.message],
        ),
      ).toEqual([
        ['extra', 'first'],
        ['more', 'second'],
        ['more', 'third'],
      ]);
    });

    it('the registry refuses reserved, duplicate, malformed and kindless validators', () => {
      const ok = extra(() => []);
      expect(() => registry.register({ ...ok, name: 'schema' })).toThrow(
        ValidatorRegistrationError,
      );
      expect(() => registry.register({ ...ok, name: 'plan-files-observed' })).toThrow(
        /already registered/,
      );
      expect(() => registry.register({ ...ok, name: 'Bad Name' })).toThrow(/lowercase/);
      expect(() => registry.register({ ...ok, kinds: [] })).toThrow(/names no artifact kinds/);
      expect(registry.names).toEqual(['plan-files-observed', 'review-references-artifact']);
    });
  });

  it('a stage that requires approval accepts only once its approval is granted', () => {
    const definition = defaultCodingWorkflowDefinition();
    const gated = parseWorkflow({
      ...definition,
      stages: definition.stages.map((stage) =>
        stage.id === 'plan' ? { ...stage, requiresApproval: true } : stage,
      ),
    });
    expect(run(plan, context(), registry, gated)).toMatchObject({
      accepted: false,
      phase: 'approval',
      events: [
        {
          phase: 'approval',
          validator: 'approval',
          message: expect.stringContaining(artifactApprovalKey(plan.hash)) as string,
        },
      ],
    });
    expect(
      run(plan, context({ grantedApprovals: [artifactApprovalKey(plan.hash)] }), registry, gated)
        .accepted,
    ).toBe(true);
  });
});

describe('validationContextOf', () => {
  it('reads the running stage, accepted artifacts and granted approvals from the projections', () => {
    const events = [
      {
        type: 'session_created',
        task: 't',
        workspace: '/w',
        workflowId: 'default-coding',
        mode: 'prompt',
      },
      { type: 'workflow_started', workflowId: 'default-coding', firstStageId: 'plan' },
      { type: 'stage_started', stageId: 'plan', attempt: 1 },
      {
        type: 'approval_requested',
        callId: artifactApprovalKey(plan.hash),
        tool: 'artifact',
        tier: 'T1',
        reason: 'plan',
      },
      {
        type: 'approval_granted',
        callId: artifactApprovalKey(plan.hash),
        by: { kind: 'human', id: 'alice' },
      },
    ].map((payload, index) => ({
      eventId: `e${index}`,
      sessionId: 's1',
      sequence: index + 1,
      timestamp: '2026-11-30T12:00:00.000Z',
      version: 1,
      causationId: null,
      correlationId: null,
      payload,
      position: index + 1,
      hash: '',
    }));
    const session = events.reduce(sessionProjection.evolve, sessionProjection.initial());
    const artifacts = events.reduce(artifactProjection.evolve, artifactProjection.initial());
    const ctx = validationContextOf(session, artifacts, context().observations);
    expect(ctx).toEqual(context({ grantedApprovals: [artifactApprovalKey(plan.hash)] }));
    expect(run(plan, ctx).accepted).toBe(true);
  });
});
