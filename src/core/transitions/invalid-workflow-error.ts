import { CorrexError } from '../base/correx-error.js';
import type { WorkflowIssue } from './workflow-graph.js';

/** A workflow definition was rejected at load time; `issues` lists every problem found. */
export class InvalidWorkflowError extends CorrexError {
  readonly source: string;
  readonly issues: readonly WorkflowIssue[];

  constructor(source: string, issues: readonly WorkflowIssue[]) {
    super(
      'invalid_workflow',
      `invalid workflow ${source}:\n${issues.map((issue) => `  - ${issue.message}`).join('\n')}`,
    );
    this.source = source;
    this.issues = issues;
  }
}
