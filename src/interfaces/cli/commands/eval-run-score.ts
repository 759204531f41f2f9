import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { matchGlob } from '../../../core/policies/path-glob.js';
import type { EvalTask } from '../../../infrastructure/eval/eval-suite.js';
import type { SandboxSettings } from '../../../infrastructure/sandbox/confined-process.js';
import { runWorkspaceCheck } from '../../../infrastructure/sandbox/workspace-check.js';

/** SHA-256 of each workspace file a forbidden-change glob names, before the run. */
export function protectedHashes(workspace: string, task: EvalTask): Map<string, string> {
  const hashes = new Map<string, string>();
  const globs = task.checks.forbiddenChanges ?? [];
  if (globs.length === 0) return hashes;
  for (const path of listFiles(workspace))
    if (globs.some((glob) => matchGlob(glob, path)))
      hashes.set(
        path,
        createHash('sha256')
          .update(readFileSync(join(workspace, path)))
          .digest('hex'),
      );
  return hashes;
}

function listFiles(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(root, join(entry.parentPath, entry.name)));
}

/**
 * Why a run did not pass, empty when it did: the session did not complete, the project's own
 * test command fails (run confined in the workspace), a required file is missing, or a file a
 * forbidden-change glob names was changed or created since `before` (`protectedHashes`).
 */
export async function scoreEvalRun(
  task: EvalTask,
  workspace: string,
  before: ReadonlyMap<string, string>,
  status: string,
  homeDirectory: string,
  sandbox: SandboxSettings,
): Promise<string[]> {
  const failures: string[] = [];
  if (status !== 'completed') failures.push(`session ${status}`);
  const run = await runWorkspaceCheck(
    task.checks.command,
    workspace,
    homeDirectory,
    sandbox,
    120_000,
  );
  if (!run.passed) failures.push(`${task.checks.command.join(' ')} fails (exit ${run.ending})`);
  for (const path of task.checks.requiredFiles ?? [])
    if (!existsSync(join(workspace, path))) failures.push(`${path} is missing`);
  const after = protectedHashes(workspace, task);
  for (const [path, hash] of before)
    if (after.get(path) !== hash) failures.push(`${path} changed (forbidden)`);
  for (const path of after.keys())
    if (!before.has(path)) failures.push(`${path} created (forbidden)`);
  return failures;
}
