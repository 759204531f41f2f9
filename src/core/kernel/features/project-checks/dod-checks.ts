import { isPathInside, normalizeAbsolute } from '../../../tools/tool-path.js';
import type { WorkflowStage } from '../../../transitions/workflow.js';
import type { CheckResult } from '../../decider/stage-run.js';

/** One problem a check reported about a file, parsed from its recorded output. */
export type Diagnostic = {
  readonly path: string;
  readonly line: number | null;
  readonly message: string;
};

// `path:line:col: message`, `path:line: message`, `path(line,col): message` (tsc), `path:line:col - message`.
const DIAGNOSTIC =
  /^(?<path>[^\s:()][^:()]*?)(?::(?<line1>\d+)(?::\d+)?|\((?<line2>\d+)(?:,\d+)?\))\s*(?::|-)\s*(?<message>\S.*)$/;

/** The file diagnostics in a check's output, with paths made absolute against the workspace. */
export function parseDiagnostics(output: string, workspaceRoot: string): Diagnostic[] {
  const diagnostics: Diagnostic[] = [];
  for (const raw of output.split('\n')) {
    const match = DIAGNOSTIC.exec(raw.trim());
    if (match?.groups === undefined) continue;
    const { path, line1, line2, message } = match.groups;
    const absolute = normalizeAbsolute(path!.startsWith('/') ? path! : `${workspaceRoot}/${path!}`);
    if (!isPathInside(absolute, workspaceRoot)) continue;
    const line = line1 ?? line2;
    diagnostics.push({
      path: absolute,
      line: line === undefined ? null : Number(line),
      message: message!,
    });
  }
  return diagnostics;
}

/** A check a stage runs before it completes. */
export type StageCheck = {
  readonly name: string;
  readonly command: string;
  /** Its failure is reported, not fatal (harness.yaml `checks.advisory`). */
  readonly advisory: boolean;
  /**
   * A stage's own definition-of-done check forgives diagnostics only about files the session did
   * not write; a project check (its tests) fails on any failure.
   */
  readonly forgivesUnwritten: boolean;
};

export type CheckVerdict =
  | { readonly done: false; readonly next: { readonly name: string; readonly command: string } }
  | {
      readonly done: true;
      readonly failures: readonly string[];
      readonly advisoryFailures: readonly string[];
    };

/** A stage's own definition-of-done checks, as it has always run them. */
export function definitionOfDoneChecks(stage: WorkflowStage): StageCheck[] {
  return (stage.definitionOfDone?.checks ?? []).map((check) => ({
    name: check.name,
    command: check.command,
    advisory: false,
    forgivesUnwritten: true,
  }));
}

/**
 * Where a stage's checks stand. A check passes when it exits 0, or (a definition-of-done check)
 * when it failed only with diagnostics about files this session did not write (problems that were
 * there before are not this stage's to fix); diagnostics about written files, or a failure
 * without any file diagnostic, fail it. An advisory check's failure is listed apart.
 */
export function evaluateChecks(
  checks: readonly StageCheck[],
  results: readonly CheckResult[],
  written: readonly string[],
  workspaceRoot: string,
  /** Name the `dod_check_ran` sequence in a failure (sessions recorded with `checks-by-default`). */
  citeEvidence = false,
): CheckVerdict {
  const failures: string[] = [];
  const advisoryFailures: string[] = [];
  for (const check of checks) {
    const result = results.find((candidate) => candidate.name === check.name);
    if (result === undefined)
      return { done: false, next: { name: check.name, command: check.command } };
    if (result.outcome === 'completed' && result.exitCode === 0) continue;
    const diagnostics = parseDiagnostics(result.output, workspaceRoot);
    const counted = diagnostics.filter((diagnostic) => written.includes(diagnostic.path));
    if (
      check.forgivesUnwritten &&
      result.outcome === 'completed' &&
      diagnostics.length > 0 &&
      counted.length === 0
    )
      continue;
    const why =
      counted.length > 0
        ? counted
            .slice(0, 20)
            .map(
              (d) =>
                `${d.path.slice(workspaceRoot.length + 1)}${d.line === null ? '' : `:${d.line}`}: ${d.message}`,
            )
            .join('\n')
        : `${result.outcome}, exit code ${result.exitCode ?? 'none'}:\n${result.output.slice(-2000)}`;
    const kind = check.forgivesUnwritten ? 'definition-of-done check' : 'check';
    const line = `${kind} \`${check.name}\` (${check.command}) failed${citeEvidence ? ` (event #${result.sequence})` : ''}:\n${why}`;
    (check.advisory ? advisoryFailures : failures).push(line);
  }
  return { done: true, failures, advisoryFailures };
}
