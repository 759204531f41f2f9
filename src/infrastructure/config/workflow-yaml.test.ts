import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { tempDir } from '../../../test/support/temp-dir.js';
import {
  defaultCodingWorkflow,
  defaultCodingWorkflowDefinition,
} from '../../core/transitions/default-coding-workflow.js';
import { evaluateTransition } from '../../core/transitions/evaluate-transition.js';
import { InvalidWorkflowError } from '../../core/transitions/invalid-workflow-error.js';
import {
  loadWorkflowDirectory,
  loadWorkflowYamlFile,
  parseWorkflowYaml,
  WorkflowFileError,
} from './workflow-yaml.js';

const review = `id: docs-review
initialStage: draft
stages:
  - id: draft
    role: writer
    instructions: Write the page.
    allowedTools: [read_file, write_file]
    artifact:
      kind: page
      schema:
        type: object
        properties:
          title: { type: string, minLength: 1 }
        required: [title]
    retry: { maxAttempts: 2, retryOn: [inference] }
    transitions:
      - when: { on: success }
        to: check
      - when: { on: failure }
        end: failed
  - id: check
    role: reviewer
    instructions: Approve or ask for changes.
    artifact: { kind: verdict, schema: { type: object } }
    verdicts: [approved, changes]
    transitions:
      - when: { on: verdict, verdict: approved }
        end: completed
      - when: { on: verdict, verdict: changes }
        to: draft
        maxTraversals: 2
      - when: { on: verdict, verdict: changes }
        end: failed
`;

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected an error');
}

describe('parseWorkflowYaml', () => {
  it('loads a workflow whose artifact schema is JSON Schema, and it evaluates like a TypeScript one', () => {
    const workflow = parseWorkflowYaml(review, 'workflows/docs-review.yaml');
    expect(workflow.stages.get('draft')!.artifactSchema.safeParse({ title: '' }).success).toBe(
      false,
    );
    expect(
      evaluateTransition(
        workflow,
        { stageId: 'check', attempt: 1, cycles: { 'check->draft': 2 } },
        { kind: 'completed', verdict: 'changes' },
      ),
    ).toMatchObject({
      kind: 'end',
      result: 'failed',
    });
  });

  it('reads the same schema as TypeScript: the default workflow written as YAML is the same workflow', () => {
    const yaml = stringify(defaultCodingWorkflowDefinition());
    expect(parseWorkflowYaml(yaml, 'default.yaml').definition).toEqual(
      defaultCodingWorkflow.definition,
    );
  });

  it('reads a harness.yaml with the workflow under `workflow:`', () => {
    const harness = `model: local\nworkflow:\n${review.replace(/^/gm, '  ')}`;
    expect(parseWorkflowYaml(harness, 'harness.yaml').id).toBe('docs-review');
    const broken = harness.replace('to: check', 'to: chek');
    expect((caught(() => parseWorkflowYaml(broken, 'harness.yaml')) as Error).message).toContain(
      'harness.yaml:20:15: stage `draft`: transition 1 goes to `chek`, which is not a stage',
    );
  });

  it('names the file, line, column and stage of a graph problem', () => {
    const error = caught(() =>
      parseWorkflowYaml(review.replace('verdict: approved }', 'verdict: approve }'), 'review.yaml'),
    );
    expect(error).toBeInstanceOf(InvalidWorkflowError);
    const issue = (error as InvalidWorkflowError).issues[0]!;
    expect(issue).toMatchObject({
      code: 'unknown_verdict',
      stageId: 'check',
      line: 27,
      column: 39,
    });
    expect(issue.message).toBe(
      'review.yaml:27:39: stage `check`: transition 1 routes on verdict `approve`, which the stage does not declare (verdicts: approved, changes)',
    );
  });

  it('names the line of a shape problem', () => {
    const error = caught(() =>
      parseWorkflowYaml(review.replace('maxAttempts: 2', 'maxAttempts: 0'), 'review.yaml'),
    ) as InvalidWorkflowError;
    expect(error.issues[0]).toMatchObject({ code: 'invalid_shape', stageId: 'draft', line: 15 });
    expect(error.issues[0]!.message).toMatch(
      /^review\.yaml:15:\d+: stage `draft`: stages\[0\]\.retry\.maxAttempts: /,
    );
  });

  it('rejects an unbounded cycle written in YAML', () => {
    const error = caught(() =>
      parseWorkflowYaml(review.replace('        maxTraversals: 2\n', ''), 'review.yaml'),
    ) as InvalidWorkflowError;
    expect(error.issues.map((issue) => issue.code)).toEqual(['unbounded_cycle']);
    expect(error.message).toContain('cycle draft → check → draft has no exit bound');
  });

  it('reports YAML syntax errors and duplicate keys with their position', () => {
    const syntax = caught(() => parseWorkflowYaml('id: x\nstages: [\n', 'bad.yaml'));
    expect(syntax).toBeInstanceOf(WorkflowFileError);
    expect((syntax as WorkflowFileError).code).toBe('workflow_file');
    expect((syntax as Error).message).toMatch(/^bad\.yaml:\d+:\d+: invalid YAML: /);
    const duplicate = caught(() => parseWorkflowYaml('id: x\nid: y\n', 'dup.yaml'));
    expect((duplicate as Error).message).toMatch(/^dup\.yaml:2:1: invalid YAML: .*unique/i);
  });
});

describe('loading files', () => {
  const dir = tempDir();

  it('loads every YAML file of a workflows directory and refuses a duplicate id', async () => {
    const workflows = join(dir, 'workflows');
    const { mkdirSync } = await import('node:fs');
    mkdirSync(workflows);
    writeFileSync(join(workflows, 'a.yaml'), review);
    writeFileSync(join(workflows, 'b.yml'), stringify(defaultCodingWorkflowDefinition()));
    writeFileSync(join(workflows, 'notes.txt'), 'not a workflow');
    expect([...(await loadWorkflowDirectory(workflows)).keys()]).toEqual([
      'docs-review',
      'default-coding',
    ]);
    writeFileSync(join(workflows, 'c.yaml'), review);
    await expect(loadWorkflowDirectory(workflows)).rejects.toThrow(
      /c\.yaml: defines workflow `docs-review`, already defined in a\.yaml/,
    );
  });

  it('names a file it cannot read', async () => {
    await expect(loadWorkflowYamlFile(join(dir, 'missing.yaml'))).rejects.toBeInstanceOf(
      WorkflowFileError,
    );
  });
});
