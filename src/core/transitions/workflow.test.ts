import { describe, expect, it } from 'vitest';
import { CorrexError } from '../base/correx-error.js';
import {
  defaultCodingWorkflow,
  defaultCodingWorkflowDefinition,
} from './default-coding-workflow.js';
import { InvalidWorkflowError } from './invalid-workflow-error.js';
import type { WorkflowDefinitionInput } from './workflow-definition.js';
import { parseWorkflow, safeParseWorkflow } from './workflow.js';

type StageInput = WorkflowDefinitionInput['stages'][number];

const stage = (
  id: string,
  transitions: StageInput['transitions'],
  extra: Partial<StageInput> = {},
): StageInput => ({
  id,
  role: 'worker',
  instructions: `do ${id}`,
  artifact: { kind: id, schema: { type: 'object' } },
  transitions,
  ...extra,
});
const workflow = (stages: StageInput[], initialStage = 'a'): WorkflowDefinitionInput => ({
  id: 'test',
  initialStage,
  stages,
});

function issuesOf(input: unknown) {
  const result = safeParseWorkflow(input, { source: 'test.yaml' });
  if (result.success) throw new Error('expected the workflow to be rejected');
  return result.error.issues.map(({ code, stageId, message }) => ({ code, stageId, message }));
}

describe('parseWorkflow', () => {
  it('accepts the default coding workflow and compiles each artifact schema', () => {
    expect([...defaultCodingWorkflow.stages.keys()]).toEqual([
      'plan',
      'implement',
      'verify',
      'review',
      'recovery',
    ]);
    const review = defaultCodingWorkflow.stages.get('review')!;
    expect(
      review.artifactSchema.safeParse({
        verdict: 'approved',
        reviewedArtifact: 'a'.repeat(64),
        notes: [],
      }).success,
    ).toBe(true);
    expect(
      review.artifactSchema.safeParse({ verdict: 'maybe', reviewedArtifact: 'x', notes: [] })
        .success,
    ).toBe(false);
  });

  it('survives a round trip through JSON: a definition is plain data', () => {
    const json = JSON.parse(JSON.stringify(defaultCodingWorkflowDefinition())) as unknown;
    expect(parseWorkflow(json).definition).toEqual(defaultCodingWorkflow.definition);
  });

  it('applies defaults for optional stage fields', () => {
    const wf = parseWorkflow(
      workflow([stage('a', [{ when: { on: 'success' }, end: 'completed' }])]),
    );
    expect(wf.stages.get('a')).toMatchObject({
      allowedTools: [],
      capabilities: [],
      verdicts: [],
      retry: { maxAttempts: 1, retryOn: [] },
      requiresApproval: false,
    });
  });

  it('rejects a transition to an unknown stage, naming the stage', () => {
    expect(
      issuesOf(
        workflow([
          stage('a', [
            { when: { on: 'success' }, to: 'nowhere' },
            { when: { on: 'failure' }, end: 'completed' },
          ]),
        ]),
      ),
    ).toContainEqual({
      code: 'unknown_stage',
      stageId: 'a',
      message: 'stage `a`: transition 1 goes to `nowhere`, which is not a stage',
    });
  });

  it('rejects an unknown initial stage', () => {
    expect(
      issuesOf(workflow([stage('a', [{ when: { on: 'success' }, end: 'completed' }])], 'b'))[0],
    ).toMatchObject({
      code: 'unknown_stage',
      message: expect.stringContaining('initial stage `b` is not defined') as string,
    });
  });

  it('rejects an unreachable stage', () => {
    const issues = issuesOf(
      workflow([
        stage('a', [{ when: { on: 'success' }, end: 'completed' }]),
        stage('b', [{ when: { on: 'success' }, end: 'completed' }]),
      ]),
    );
    expect(issues).toEqual([
      {
        code: 'unreachable_stage',
        stageId: 'b',
        message: 'stage `b` is unreachable from the initial stage `a`',
      },
    ]);
  });

  it('rejects a workflow with no terminal stage', () => {
    const issues = issuesOf(workflow([stage('a', [{ when: { on: 'success' }, end: 'failed' }])]));
    expect(issues).toEqual([
      {
        code: 'no_terminal_stage',
        stageId: undefined,
        message:
          'workflow `test` has no terminal stage: no transition ends it with `end: completed`',
      },
    ]);
  });

  it('rejects a stage that can never reach an end', () => {
    const issues = issuesOf(
      workflow([
        stage('a', [
          { when: { on: 'success' }, to: 'b' },
          { when: { on: 'failure' }, end: 'completed' },
        ]),
        stage('b', []),
      ]),
    );
    expect(issues).toContainEqual(
      expect.objectContaining({ code: 'dead_end_stage', stageId: 'b' }),
    );
  });

  it('rejects a condition on a verdict the stage does not declare', () => {
    const issues = issuesOf(
      workflow([
        stage('a', [{ when: { on: 'verdict', verdict: 'approve' }, end: 'completed' }], {
          verdicts: ['approved', 'rework'],
        }),
      ]),
    );
    expect(issues).toEqual([
      {
        code: 'unknown_verdict',
        stageId: 'a',
        message:
          'stage `a`: transition 1 routes on verdict `approve`, which the stage does not declare (verdicts: approved, rework)',
      },
    ]);
  });

  it('rejects a cycle without an exit bound and accepts it once one edge is bounded', () => {
    const cyclic = (bound?: number) =>
      workflow([
        stage('a', [{ when: { on: 'success' }, to: 'b' }]),
        stage(
          'b',
          [
            {
              when: { on: 'verdict', verdict: 'again' },
              to: 'a',
              ...(bound ? { maxTraversals: bound } : {}),
            },
            { when: { on: 'verdict', verdict: 'ok' }, end: 'completed' },
          ],
          { verdicts: ['again', 'ok'] },
        ),
      ]);
    expect(issuesOf(cyclic())).toEqual([
      {
        code: 'unbounded_cycle',
        stageId: 'a',
        message:
          'stage `a`: cycle a → b → a has no exit bound: set `maxTraversals` on one of its transitions (a->b, b->a)',
      },
    ]);
    expect(safeParseWorkflow(cyclic(2)).success).toBe(true);
  });

  it('rejects an unbounded self-loop', () => {
    const issues = issuesOf(
      workflow([
        stage('a', [
          { when: { on: 'failure' }, to: 'a' },
          { when: { on: 'success' }, end: 'completed' },
        ]),
      ]),
    );
    expect(issues).toContainEqual(
      expect.objectContaining({ code: 'unbounded_cycle', stageId: 'a' }),
    );
  });

  it('rejects duplicate stages', () => {
    const issues = issuesOf(
      workflow([
        stage('a', [{ when: { on: 'success' }, end: 'completed' }]),
        stage('a', [{ when: { on: 'success' }, end: 'completed' }]),
      ]),
    );
    expect(issues).toContainEqual({
      code: 'duplicate_stage',
      stageId: 'a',
      message: 'stage `a` is defined twice',
    });
  });

  it('rejects a bad shape with the stage and the path of the problem', () => {
    const issues = issuesOf(
      workflow([
        stage('a', [{ when: { on: 'success' }, end: 'completed' }]),
        stage('b', [{ when: { on: 'success' }, to: 'a', end: 'completed' }], {
          retry: { maxAttempts: 0, retryOn: ['bogus' as 'tool'] },
        }),
      ]),
    );
    expect(issues.map((issue) => issue.message)).toEqual([
      expect.stringMatching(/^stage `b`: stages\[1\]\.retry\.maxAttempts: /),
      expect.stringMatching(/^stage `b`: stages\[1\]\.retry\.retryOn\[0\]: /),
      'stage `b`: stages[1].transitions[0]: a transition needs exactly one of `to` (a stage) or `end` (completed|failed)',
    ]);
    expect(issues.every((issue) => issue.code === 'invalid_shape' && issue.stageId === 'b')).toBe(
      true,
    );
  });

  it('rejects an artifact schema that is not usable JSON Schema', () => {
    const issues = issuesOf(
      workflow([
        stage('a', [{ when: { on: 'success' }, end: 'completed' }], {
          artifact: { kind: 'x', schema: { type: 'strng' } },
        }),
      ]),
    );
    expect(issues).toEqual([
      {
        code: 'invalid_artifact_schema',
        stageId: 'a',
        message: expect.stringContaining(
          'stage `a`: artifact schema is not a usable JSON Schema',
        ) as string,
      },
    ]);
  });

  it('throws InvalidWorkflowError listing every problem under the source name', () => {
    const bad = workflow([stage('a', [{ when: { on: 'success' }, to: 'zzz' }])]);
    const error = (() => {
      try {
        parseWorkflow(bad, { source: 'workflows/bad.yaml' });
      } catch (caught) {
        return caught;
      }
      return undefined;
    })();
    expect(error).toBeInstanceOf(InvalidWorkflowError);
    expect(CorrexError.isInstance(error) && error.code).toBe('invalid_workflow');
    expect((error as Error).message).toMatch(
      /^invalid workflow workflows\/bad\.yaml:\n {2}- stage `a`: transition 1 goes to `zzz`/,
    );
    expect((error as InvalidWorkflowError).issues.length).toBeGreaterThanOrEqual(2);
  });
});
