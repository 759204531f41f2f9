import type { PayloadOf } from '../events/event-definition.js';
import type { PayloadShape } from '../events/event-envelope.js';
import type { Projection } from '../events/projection.js';
import type { artifactAccepted, artifactProposed } from './artifact-events.js';

type ArtifactRef = { readonly hash: string; readonly kind: string; readonly stageId: string };

/** A session's artifacts as the events record them (content stays in the ArtifactStore). */
export type ArtifactsState = {
  /** Every proposed artifact, by hash, with its lineage. */
  readonly proposed: {
    readonly [hash: string]: ArtifactRef & {
      readonly attempt: number;
      readonly inferenceEventId: string | null;
      readonly parents: readonly string[];
    };
  };
  /** Accepted artifacts in acceptance order. */
  readonly accepted: readonly ArtifactRef[];
  /** The latest accepted artifact of each stage: what supersedes what. */
  readonly latestByStage: { readonly [stageId: string]: string };
};

type ArtifactPayload = PayloadOf<typeof artifactProposed> | PayloadOf<typeof artifactAccepted>;

/** Folds `artifact_proposed` and `artifact_accepted`; every other type is ignored. */
export const artifactProjection: Projection<ArtifactsState, PayloadShape> = {
  name: 'artifacts',
  version: 1,
  initial: () => ({ proposed: {}, accepted: [], latestByStage: {} }),
  evolve(state, event) {
    const type = event.payload.type;
    if (type !== 'artifact_proposed' && type !== 'artifact_accepted') return state;
    // The codec checked the payload against its type's schema when it was read.
    const payload = event.payload as ArtifactPayload;
    if (payload.type === 'artifact_proposed') {
      const { hash, kind, stageId, attempt, inferenceEventId, parents } = payload;
      return {
        ...state,
        proposed: {
          ...state.proposed,
          [hash]: { hash, kind, stageId, attempt, inferenceEventId, parents },
        },
      };
    }
    const { hash, kind, stageId } = payload;
    if (state.accepted.some((ref) => ref.hash === hash)) return state;
    return {
      ...state,
      accepted: [...state.accepted, { hash, kind, stageId }],
      latestByStage: { ...state.latestByStage, [stageId]: hash },
    };
  },
};
