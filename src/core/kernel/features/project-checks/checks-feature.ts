import { layeredEntries } from '../../../base/layered-record.js';
import type { ContextCandidate } from '../../../context/context-candidate.js';
import { relativeInside } from '../../../tools/tool-path.js';
import { CHECKS_BY_DEFAULT } from '../../config/kernel-flags.js';
import type { FeatureView, KernelFeature, PackFacts } from '../../decider/kernel-feature.js';
import { awaitEffect } from '../../decider/step.js';
import { latestCheckRuns } from './check-summary.js';
import { evolveChecks, INITIAL_CHECKS, type ChecksState } from './checks-state.js';

/**
 * What the recorded evidence adds to a pack: the failure of the previous stage attempt (a failed
 * check's diagnostics reach the stage that must fix them), and for a reviewer the checks' latest
 * results and the files the session wrote, so a review reads the log's facts rather than the
 * implementer's account of them.
 */
function evidenceCandidates(view: FeatureView<ChecksState>, pack: PackFacts): ContextCandidate[] {
  const { stage, run, beforeSequence } = pack;
  const candidates: ContextCandidate[] = [];
  const failure = pack.lastStageFailure;
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
    const checkRuns = view.slice.checkRuns;
    const runs = latestCheckRuns(checkRuns.filter((r) => r.sequence < beforeSequence));
    const workspace = view.workspace ?? '/';
    const written = Object.keys(layeredEntries(pack.written)).map(
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
      order: checkRuns.at(-1)?.sequence ?? 0,
      pinned: true,
    });
  }
  return candidates;
}

/**
 * Project checks by default (flag `checks-by-default`): the project's checks are detected once,
 * before the first stage (a recorded observation), and join the definition of done of verifier
 * and reviewer stages (`stage-checks.ts`); a pack shows the latest failed attempt, and a
 * reviewer's the checks' results and the files written. The slice (the detected checks and
 * every check run) is folded whatever the flag: definition-of-done checks run without it.
 */
export const checksFeature: KernelFeature<'checks', ChecksState> = {
  name: 'checks',
  flag: CHECKS_BY_DEFAULT,
  events: ['project_checks_detected'],
  state: { initial: INITIAL_CHECKS, evolve: evolveChecks },
  hooks: {
    betweenStages({ slice, workspace }) {
      return slice.projectChecks === null && workspace !== null
        ? awaitEffect({ type: 'detect_checks' })
        : null;
    },
    contextCandidates: evidenceCandidates,
  },
};
