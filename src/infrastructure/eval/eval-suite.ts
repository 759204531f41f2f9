import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { CorrexError } from '../../core/base/correx-error.js';
import { packageAssets } from '../system/package-assets.js';
import { resolveGitWorkspace, type TaskWorkspaceSource } from './task-workspace.js';

/** `assets/eval/` of the package. */
const BUILTIN_SUITES = packageAssets('eval/');

/**
 * A workspace: a folder relative to the suite, or a commit of a git repository (`git`: the
 * repository's folder, relative to the suite; `ref`: a commit, branch or tag).
 */
const WorkspaceSchema = z.union([
  z.string().min(1),
  z.strictObject({ git: z.string().min(1), ref: z.string().min(1) }),
]);

const EvalTaskSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  /** What kind of task it is (bug fix, refactor...), for the report. */
  kind: z.string().optional(),
  task: z.string().min(1),
  /** The task's own workspace, relative to the suite; default: the suite's. */
  workspace: WorkspaceSchema.optional(),
  /** Files written over the copied workspace before the run (path → content). */
  files: z.record(z.string(), z.string()).optional(),
  checks: z.strictObject({
    /** The project's own test command, run confined in the workspace after the session. */
    command: z.array(z.string()).min(1),
    /** Files that must exist afterwards. */
    requiredFiles: z.array(z.string()).optional(),
    /** Globs (workspace-relative) of files the session must leave byte-identical. */
    forbiddenChanges: z.array(z.string()).optional(),
  }),
});
export type EvalTask = Omit<z.infer<typeof EvalTaskSchema>, 'workspace'> & {
  /** What each run's workspace is made from: a folder copied, or a commit's tree written out. */
  readonly source: TaskWorkspaceSource;
};

const EvalSuiteSchema = z.strictObject({
  name: z.string(),
  description: z.string().optional(),
  workspace: WorkspaceSchema.optional(),
  tasks: z.array(EvalTaskSchema).min(1),
});

export type EvalSuite = {
  readonly name: string;
  readonly folder: string;
  readonly tasks: readonly EvalTask[];
};

/** The suite is missing or malformed. */
export class EvalSuiteError extends CorrexError {
  constructor(message: string) {
    super('usage', message);
  }
}

/**
 * Loads a suite: `builtin` (shipped in assets/eval/builtin), or a folder holding `suite.json`
 * (`{ name, workspace?, tasks: [{ id, task, workspace?, files?, checks }] }`; a workspace is a
 * folder or `{ git, ref }`).
 */
export function loadEvalSuite(nameOrFolder: string): EvalSuite {
  const folder =
    nameOrFolder === 'builtin' ? join(BUILTIN_SUITES, 'builtin') : resolve(nameOrFolder);
  const file = join(folder, 'suite.json');
  if (!existsSync(file)) throw new EvalSuiteError(`no suite at ${folder} (it holds no suite.json)`);
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new EvalSuiteError(`${file}: not JSON: ${(error as Error).message}`);
  }
  const parsed = EvalSuiteSchema.safeParse(raw);
  if (!parsed.success)
    throw new EvalSuiteError(
      `${file}: ${parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ')}`,
    );
  const suite = parsed.data;
  // A git reference is resolved once per suite and repository: every run sees the same commit.
  const resolved = new Map<string, TaskWorkspaceSource>();
  const tasks = suite.tasks.map(({ workspace, ...task }) => {
    const named = workspace ?? suite.workspace;
    if (named === undefined)
      throw new EvalSuiteError(`${file}: task ${task.id} names no workspace (nor does the suite)`);
    if (typeof named !== 'string') {
      const repository = resolve(folder, named.git);
      const key = `${repository}\n${named.ref}`;
      const source = resolved.get(key) ?? resolveGitWorkspace(repository, named.ref);
      resolved.set(key, source);
      return { ...task, source };
    }
    const workspaceFolder = resolve(folder, named);
    if (!existsSync(workspaceFolder) || !statSync(workspaceFolder).isDirectory())
      throw new EvalSuiteError(
        `${file}: task ${task.id}: workspace ${workspaceFolder} is not a folder`,
      );
    return { ...task, source: { kind: 'folder' as const, folder: workspaceFolder } };
  });
  return { name: suite.name, folder, tasks };
}

/** Where a `scripted:<name>` model keeps its per-task scripts: `<suite>/models/<name>/`, or a folder. */
export function scriptedModelFolder(suite: EvalSuite, name: string): string {
  const inSuite = join(suite.folder, 'models', name);
  const folder = existsSync(inSuite) ? inSuite : resolve(name);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new EvalSuiteError(
      `scripted:${name}: no folder of scripts (looked in ${inSuite} and ${resolve(name)})`,
    );
  return folder;
}
