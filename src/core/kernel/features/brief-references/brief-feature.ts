import type { ContextCandidate } from '../../../context/context-candidate.js';
import { briefEchoDiff } from '../../../context/brief-echo-diff.js';
import { extractBriefReferences } from '../../../context/brief-references.js';
import { isPathInside, normalizeAbsolute } from '../../../tools/tool-path.js';
import { BRIEF_REFERENCES } from '../../config/kernel-flags.js';
import type { FeatureView, KernelFeature } from '../../decider/kernel-feature.js';
import { awaitEffect, emit, type Step } from '../../decider/step.js';
import { BRIEF_PROBE, evolveBrief, INITIAL_BRIEF, type BriefState } from './brief-state.js';

/**
 * Before the first stage: the task's references are extracted, the paths it names inside the
 * workspace are probed (a recorded observation each), then `brief_checked` records them with
 * the missing ones. Null once it is recorded.
 */
function nextForBrief(view: FeatureView<BriefState>, task: string): Step | null {
  const { slice, workspace } = view;
  if (slice.brief !== null || workspace === null) return null;
  const references = extractBriefReferences(task);
  const paths = [
    ...new Set(
      references
        .filter((reference) => reference.kind === 'path')
        .map((reference) =>
          normalizeAbsolute(
            reference.value.startsWith('/') ? reference.value : `${workspace}/${reference.value}`,
          ),
        )
        .filter((path) => isPathInside(path, workspace) && path !== workspace),
    ),
  ];
  const unobserved = paths.filter((path) => slice.observations[path] === undefined);
  if (unobserved.length > 0)
    return awaitEffect({ type: 'probe', callId: BRIEF_PROBE, paths: unobserved });
  return emit({
    type: 'brief_checked',
    references,
    missing: paths.flatMap((path) => {
      const observed = slice.observations[path]!;
      return observed.exists ? [] : [{ path, observedSequence: observed.sequence }];
    }),
  });
}

/** What the brief's check and the plan's echo tell every later stage's model. */
function briefCandidates(
  view: FeatureView<BriefState>,
  beforeSequence: number,
): ContextCandidate[] {
  const candidates: ContextCandidate[] = [];
  const brief = view.slice.brief;
  const workspace = view.workspace ?? '/';
  if (brief !== null && brief.missing.length > 0 && brief.sequence < beforeSequence)
    candidates.push({
      id: 'brief:missing',
      layer: 'L1',
      kind: 'validation_feedback',
      source: { kind: 'config', id: 'brief' },
      content: `The task names paths the workspace does not have: ${brief.missing
        .map((m) => `${m.path.slice(workspace.length + 1)} (event #${m.observedSequence})`)
        .join(
          ', ',
        )}. Create them only if the task asks for new files; otherwise the task may name the wrong file: say so.`,
      order: brief.sequence,
      pinned: true,
    });
  const echo = view.slice.echo;
  if (
    echo !== null &&
    echo.sequence < beforeSequence &&
    echo.dropped.length + echo.invented.length > 0
  ) {
    const list = (refs: typeof echo.dropped) => refs.map((r) => `${r.kind} ${r.value}`).join(', ');
    candidates.push({
      id: 'brief:echo',
      layer: 'L1',
      kind: 'validation_feedback',
      source: { kind: 'config', id: 'brief-echo' },
      content: [
        `The ${echo.stageId} artifact compared with the task (event #${echo.sequence}):`,
        ...(echo.dropped.length > 0
          ? [`- the task names, the plan does not: ${list(echo.dropped)}`]
          : []),
        ...(echo.invented.length > 0
          ? [`- the plan names, the task does not: ${list(echo.invented)}`]
          : []),
      ].join('\n'),
      order: echo.sequence,
      pinned: true,
    });
  }
  return candidates;
}

/**
 * Brief references (flag `brief-references`): the task's references are checked against the
 * workspace before the first stage, a planner's accepted artifact is compared with them once
 * (`brief_echo_compared`), and every later pack says which named paths are missing and what the
 * plan dropped or invented.
 */
export const briefFeature: KernelFeature<'brief', BriefState> = {
  name: 'brief',
  flag: BRIEF_REFERENCES,
  events: ['brief_checked', 'brief_echo_compared'],
  state: { initial: INITIAL_BRIEF, evolve: evolveBrief },
  hooks: {
    betweenStages: (view, _next, task) => nextForBrief(view, task),
    contextCandidates: (view, pack) => briefCandidates(view, pack.beforeSequence),
    acceptedArtifact({ slice }, { stage, artifactHash, content }) {
      if (stage.role !== 'planner') return null;
      if (slice.brief === null || slice.echo?.artifactHash === artifactHash) return null;
      const echo = briefEchoDiff(slice.brief.references, content);
      return emit({
        type: 'brief_echo_compared',
        stageId: stage.id,
        artifactHash,
        dropped: [...echo.dropped],
        invented: [...echo.invented],
      });
    },
  },
};
