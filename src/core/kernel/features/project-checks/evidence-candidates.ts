import type { ContextCandidate } from '../../../context/context-candidate.js';
import type { WorkflowStage } from '../../../transitions/workflow.js';
import { relativeInside } from '../../../tools/tool-path.js';
import { latestCheckRuns } from './check-summary.js';
import type { KernelConfig } from '../../config/kernel-config.js';
import { CHECKS_BY_DEFAULT } from '../../config/kernel-flags.js';
import type { KernelState, StageRunState } from '../../decider/kernel-state.js';
import { layeredEntries } from '../../../base/layered-record.js';

/**
 * What the recorded evidence adds to a pack (sessions with `checks-by-default`): the failure of
 * the previous stage attempt (a failed check's diagnostics reach the stage that must fix them),
 * and for a reviewer the checks' latest results and the files the session wrote, so a review
 * reads the log's facts rather than the implementer's account of them.
 */
export function evidenceCandidates(
  config: KernelConfig,
  state: KernelState,
  stage: WorkflowStage,
  run: StageRunState,
  beforeSequence: number,
): ContextCandidate[] {
  const candidates: ContextCandidate[] = [];
  if (!config.behaviour.flags.has(CHECKS_BY_DEFAULT.name)) return candidates;
  const failure = state.lastStageFailure;
  const ownAttempt = failure?.stageId === run.stageId && failure.attempt === run.attempt;
  if (failure !== null && !ownAttempt && failure.sequence < beforeSequence)
    candidates.push({
      id: `failure:${failure.eventId}`,
      layer: 'L1',
      kind: 'validation_feedback',
      source: { kind: 'event', id: failure.eventId },
      content: `Stage ${failure.stageId} (attempt ${failure.attempt}) failed (event #${failure.sequence}); fix what it names:\n${failure.message}`,
      order: failure.sequence,
      pinned: true,
    });
  if (stage.role === 'reviewer') {
    const runs = latestCheckRuns(state.checkRuns.filter((r) => r.sequence < beforeSequence));
    const workspace = state.session.workspace ?? '/';
    const written = Object.keys(layeredEntries(state.written)).map(
      (path) => relativeInside(path, workspace) ?? path,
    );
    const lines = [
      'Evidence recorded in this session (the log, not a claim):',
      runs.length === 0
        ? '- no checks have run'
        : runs
            .map(
              (r) =>
                `- check \`${r.name}\` (${r.command}) in stage ${r.stageId}: ${r.passed ? 'passed' : `failed, exit ${r.exitCode ?? 'none'}`} (event #${r.sequence})`,
            )
            .join('\n'),
      written.length === 0
        ? '- no file writes were recorded'
        : `- files written: ${written.join(', ')}`,
    ];
    candidates.push({
      id: 'evidence:checks',
      layer: 'L1',
      kind: 'validation_feedback',
      source: { kind: 'config', id: 'evidence' },
      content: lines.join('\n'),
      order: state.checkRuns.at(-1)?.sequence ?? 0,
      pinned: true,
    });
  }
  return candidates;
}
