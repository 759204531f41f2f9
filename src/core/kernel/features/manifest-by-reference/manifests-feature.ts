import type { CorrexEvent } from '../../../event-catalog.js';
import {
  emptyManifestHistory,
  foldManifestReference,
  type ManifestHistory,
} from '../../../inference/manifest-history.js';
import { MANIFEST_BY_REFERENCE } from '../../config/kernel-flags.js';
import type { KernelFeature } from '../../decider/kernel-feature.js';

/** The manifests recorded by reference so far, with the one `event` records, if it does. */
function evolveManifests(manifests: ManifestHistory, event: CorrexEvent): ManifestHistory {
  const payload = event.payload;
  return payload.type === 'inference_requested' && payload.manifestRef !== undefined
    ? foldManifestReference(manifests, payload.requestId, payload.manifestRef)
    : manifests;
}

/**
 * Manifests by reference (flag `manifest-by-reference`): the slice holds the history of the
 * manifests recorded by reference, which the next request is written against
 * (decider/stage-request.ts). It stays as recorded in a fork: it says what each model call was
 * sent (decider/kernel-state.ts keeps it out of the fork's rebase). No hooks.
 */
export const manifestsFeature: KernelFeature<'manifests', ManifestHistory> = {
  name: 'manifests',
  flag: MANIFEST_BY_REFERENCE,
  events: [],
  state: { initial: emptyManifestHistory, evolve: evolveManifests },
  hooks: {},
};
