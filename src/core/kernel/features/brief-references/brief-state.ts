import type { BriefReference } from '../../../context/brief-references.js';
import type { CorrexEvent } from '../../../event-catalog.js';

/** The call id of the session-start probe of the brief's paths (no tool call has it). */
export const BRIEF_PROBE = 'brief';

export type RecordedBrief = {
  readonly references: readonly BriefReference[];
  readonly missing: readonly { readonly path: string; readonly observedSequence: number }[];
  readonly sequence: number;
};

export type BriefObservation = { readonly exists: boolean; readonly sequence: number };

export type RecordedBriefEcho = {
  readonly stageId: string;
  readonly artifactHash: string;
  readonly dropped: readonly BriefReference[];
  readonly invented: readonly BriefReference[];
  readonly sequence: number;
};

export type BriefState = {
  /** The task's references and missing paths (`brief_checked`); null before. */
  readonly brief: RecordedBrief | null;
  /** What the session-start probe of the brief's paths found, by path. */
  readonly observations: { readonly [path: string]: BriefObservation };
  /** The latest plan-versus-brief comparison (`brief_echo_compared`). */
  readonly echo: RecordedBriefEcho | null;
};

export const INITIAL_BRIEF: BriefState = { brief: null, observations: {}, echo: null };

export function evolveBrief(state: BriefState, event: CorrexEvent): BriefState {
  const payload = event.payload;
  switch (payload.type) {
    case 'brief_checked':
      return {
        brief: {
          references: payload.references,
          missing: payload.missing,
          sequence: event.sequence,
        },
        observations: state.observations,
        echo: state.echo,
      };
    case 'brief_echo_compared':
      return {
        brief: state.brief,
        observations: state.observations,
        echo: {
          stageId: payload.stageId,
          artifactHash: payload.artifactHash,
          dropped: payload.dropped,
          invented: payload.invented,
          sequence: event.sequence,
        },
      };
    case 'world_observed':
      if (payload.callId !== BRIEF_PROBE) return state;
      return {
        brief: state.brief,
        observations: {
          ...state.observations,
          [payload.observation.path]: {
            exists: payload.observation.kind !== 'missing',
            sequence: event.sequence,
          },
        },
        echo: state.echo,
      };
    default:
      return state;
  }
}
