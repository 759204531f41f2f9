import type { WorkflowStage } from '../../../transitions/workflow.js';
import type { Effect } from '../../decider/effect.js';
import type { StageRunState } from '../../decider/stage-run.js';
import { layeredEntries, type LayeredRecord } from '../../../base/layered-record.js';

const CHECKED_ROLES: ReadonlySet<string> = new Set(['verifier', 'reviewer']);
const SOURCE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

export type DiagnosticsVerdict =
  | { readonly kind: 'none' }
  | { readonly kind: 'await'; readonly effect: Extract<Effect, { type: 'run_diagnostics' }> }
  | { readonly kind: 'failed'; readonly message: string };

/**
 * Where a verifier or reviewer attempt stands on the language server's diagnostics of the
 * TypeScript/JavaScript files the session wrote (`lsp-diagnostics`, diagnostics-feature.ts): not asked yet (await),
 * an error in one of them (failed, with the diagnostics for the model), or nothing to stop it.
 * A server that was unavailable is recorded and reported, not a failure of the work.
 */
export function diagnosticsVerdict(
  stage: WorkflowStage,
  run: StageRunState,
  written: LayeredRecord<true>,
  workspaceRoot: string | null,
): DiagnosticsVerdict {
  if (!CHECKED_ROLES.has(stage.role)) return { kind: 'none' };
  const files = Object.keys(layeredEntries(written)).filter((path) => SOURCE.test(path));
  if (files.length === 0) return { kind: 'none' };
  const recorded = run.diagnostics;
  if (recorded === null)
    return {
      kind: 'await',
      effect: { type: 'run_diagnostics', stageId: run.stageId, attempt: run.attempt, files },
    };
  const workspace = workspaceRoot ?? '/';
  const errors = recorded.files.flatMap((file) =>
    file.diagnostics
      .filter((d) => d.severity === 'error')
      .map(
        (d) =>
          `${file.path.startsWith(`${workspace}/`) ? file.path.slice(workspace.length + 1) : file.path}:${d.line}:${d.column}: error${d.code === null ? '' : ` TS${d.code}`}: ${d.message}`,
      ),
  );
  if (errors.length === 0) return { kind: 'none' };
  return {
    kind: 'failed',
    message: `${recorded.server} reports errors in files this session wrote (event #${recorded.sequence}):\n${errors.slice(0, 30).join('\n')}`,
  };
}
