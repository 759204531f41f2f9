import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { MAX_CONFIG_FILE_BYTES, readBoundedFile } from '../system/bounded-file-read.js';
import { basename, join } from 'node:path';
import { LineCounter, parseDocument, type Document } from 'yaml';
import { CorrexError } from '../../core/base/correx-error.js';
import { InvalidWorkflowError } from '../../core/transitions/invalid-workflow-error.js';
import type { WorkflowIssue } from '../../core/transitions/workflow-graph.js';
import { safeParseWorkflow, type Workflow } from '../../core/transitions/workflow.js';

/** A workflow file is not readable YAML, or a directory holds two workflows with one id. */
export class WorkflowFileError extends CorrexError {
  readonly file: string;

  constructor(file: string, message: string, options?: { cause?: unknown }) {
    super('workflow_file', `${file}: ${message}`, options);
    this.file = file;
  }
}

/**
 * Parses a workflow from YAML text and validates it with core's one workflow schema and graph
 * checks. The text is either a workflow definition or a `harness.yaml` with the definition under
 * `workflow:`. Every problem names the file, the line and column, and the stage. Throws
 * `WorkflowFileError` for YAML syntax and `InvalidWorkflowError` for a bad workflow.
 */
export function parseWorkflowYaml(text: string, file: string): Workflow {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const syntax = document.errors[0];
  if (syntax) {
    const at = lineCounter.linePos(syntax.pos[0]);
    throw new WorkflowFileError(
      `${file}:${at.line}:${at.col}`,
      `invalid YAML: ${syntax.message.split('\n')[0]}`,
    );
  }
  const data: unknown = document.toJS({ maxAliasCount: 100 });
  const nested =
    typeof data === 'object' && data !== null && 'workflow' in data && !('stages' in data);
  const prefix = nested ? ['workflow'] : [];
  const result = safeParseWorkflow(nested ? (data as { workflow: unknown }).workflow : data, {
    source: file,
  });
  if (result.success) return result.workflow;
  const located = result.error.issues.map((issue) =>
    locate(issue, document, lineCounter, prefix, file),
  );
  throw new InvalidWorkflowError(file, located);
}

/** Reads and parses one workflow file. */
export async function loadWorkflowYamlFile(path: string): Promise<Workflow> {
  return (await readWorkflowYamlFile(path)).workflow;
}

/** Like loadWorkflowYamlFile, with the SHA-256 of the bytes read (for `session_configured`). */
export async function readWorkflowYamlFile(
  path: string,
): Promise<{ readonly workflow: Workflow; readonly sha256: string }> {
  let bytes: Buffer;
  try {
    bytes = await readBoundedFile(path, {
      maxBytes: MAX_CONFIG_FILE_BYTES,
      what: 'the workflow file',
    });
  } catch (error) {
    throw new WorkflowFileError(path, `cannot read: ${(error as Error).message}`, { cause: error });
  }
  return {
    workflow: parseWorkflowYaml(bytes.toString('utf8'), path),
    sha256: createHash('sha256').update(bytes).digest('hex'),
  };
}

/**
 * Loads every `*.yaml` / `*.yml` file of a directory (such as `workflows/`), in name order, and
 * refuses two files that define the same workflow id.
 */
export async function loadWorkflowDirectory(dir: string): Promise<Map<string, Workflow>> {
  const names = (await readdir(dir)).filter((name) => /\.ya?ml$/.test(name)).sort();
  const workflows = new Map<string, Workflow>();
  const origin = new Map<string, string>();
  for (const name of names) {
    const path = join(dir, name);
    const workflow = await loadWorkflowYamlFile(path);
    const earlier = origin.get(workflow.id);
    if (earlier !== undefined) {
      throw new WorkflowFileError(
        path,
        `defines workflow \`${workflow.id}\`, already defined in ${basename(earlier)}`,
      );
    }
    origin.set(workflow.id, path);
    workflows.set(workflow.id, workflow);
  }
  return workflows;
}

/** Adds the line and column of the closest node on the issue's path. */
function locate(
  issue: WorkflowIssue,
  document: Document,
  lineCounter: LineCounter,
  prefix: readonly string[],
  file: string,
): WorkflowIssue {
  const path = [...prefix, ...issue.path];
  for (let length = path.length; length >= 0; length--) {
    const node = document.getIn(path.slice(0, length), true) as
      { range?: [number, number, number] } | undefined;
    if (node && typeof node === 'object' && node.range) {
      const { line, col } = lineCounter.linePos(node.range[0]);
      return { ...issue, line, column: col, message: `${file}:${line}:${col}: ${issue.message}` };
    }
  }
  return { ...issue, message: `${file}: ${issue.message}` };
}
