import type { ContextCandidate } from '../../../context/context-candidate.js';
import { briefEchoDiff } from '../../../context/brief-echo-diff.js';
import { extractBriefReferences } from '../../../context/brief-references.js';
import type { CorrexEvent } from '../../../event-catalog.js';
import type { JsonValue } from '../../../events/canonical-json.js';
import { isPathInside, normalizeAbsolute } from '../../../tools/tool-path.js';
import type { WorkflowStage } from '../../../transitions/workflow.js';
import type { KernelConfig } from '../../config/kernel-config.js';
import { BRIEF_REFERENCES } from '../../config/kernel-flags.js';
import { BRIEF_PROBE, type KernelState } from '../../decider/kernel-state.js';
import { awaitEffect, emit, type Step } from '../../decider/step.js';

type Payload = CorrexEvent['payload'];

/**
 * Before the first stage (`brief-references`): the task's references are extracted, the paths
 * it names inside the workspace are probed (a recorded observation each), then `brief_checked`
 * records them with the missing ones. Null once it is recorded, or without the flag.
 */
export function nextForBrief(config: KernelConfig, state: KernelState): Step | null {
  if (!config.behaviour.flags.has(BRIEF_REFERENCES.name) || state.brief !== null) return null;
  const workspace = state.session.workspace;
  if (workspace === null) return null;
  const references = extractBriefReferences(state.session.task ?? '');
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
  const unobserved = paths.filter((path) => state.briefObservations[path] === undefined);
  if (unobserved.length > 0)
    return awaitEffect({ type: 'probe', callId: BRIEF_PROBE, paths: unobserved });
  return emit({
    type: 'brief_checked',
    references,
    missing: paths.flatMap((path) => {
      const observed = state.briefObservations[path]!;
      return observed.exists ? [] : [{ path, observedSequence: observed.sequence }];
    }),
  });
}

/** A planner's accepted artifact compared with the brief, once per artifact; null when done or off. */
export function briefEchoEvent(
  config: KernelConfig,
  state: KernelState,
  stage: WorkflowStage,
  artifactHash: string,
  content: JsonValue,
): Payload | null {
  if (!config.behaviour.flags.has(BRIEF_REFERENCES.name) || stage.role !== 'planner') return null;
  if (state.brief === null || state.briefEcho?.artifactHash === artifactHash) return null;
  const echo = briefEchoDiff(state.brief.references, content);
  return {
    type: 'brief_echo_compared',
    stageId: stage.id,
    artifactHash,
    dropped: [...echo.dropped],
    invented: [...echo.invented],
  };
}

/** What the brief's check and the plan's echo tell every later stage's model. */
export function briefCandidates(
  config: KernelConfig,
  state: KernelState,
  beforeSequence: number,
): ContextCandidate[] {
  if (!config.behaviour.flags.has(BRIEF_REFERENCES.name)) return [];
  const candidates: ContextCandidate[] = [];
  const brief = state.brief;
  const workspace = state.session.workspace ?? '/';
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
  const echo = state.briefEcho;
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
