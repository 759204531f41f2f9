import type { CorrexEvent } from '../../../event-catalog.js';
import type { ContextManifest } from '../../../inference/context-manifest.js';
import type { ContextManifestReference } from '../../../inference/context-manifest-reference.js';
import { manifestByReference } from '../../../inference/manifest-by-reference.js';
import {
  emptyManifestHistory,
  foldManifestReference,
  type ManifestHistory,
} from '../../../inference/manifest-history.js';
import { MANIFEST_BY_REFERENCE } from '../../config/kernel-flags.js';
import type { KernelConfig } from '../../config/kernel-config.js';
import type { KernelFeature } from '../../decider/kernel-feature.js';

/** The manifests recorded by reference so far, with the one `event` records, if it does. */
function evolveManifests(manifests: ManifestHistory, event: CorrexEvent): ManifestHistory {
  const payload = event.payload;
  return payload.type === 'inference_requested' && payload.manifestRef !== undefined
    ? foldManifestReference(manifests, payload.requestId, payload.manifestRef)
    : manifests;
}

/**
 * How a model call's `inference_requested` records its context manifest: under the flag by
 * reference, against the history of those recorded before; else whole.
 */
export function recordedManifest(
  config: KernelConfig,
  history: ManifestHistory,
  manifest: ContextManifest,
): { readonly manifestRef: ContextManifestReference } | { readonly manifest: ContextManifest } {
  return config.behaviour.flags.has(MANIFEST_BY_REFERENCE.name)
    ? { manifestRef: manifestByReference(history, manifest, config.sha256) }
    : { manifest };
}

/**
 * Manifests by reference (flag `manifest-by-reference`): the slice holds the history of the
 * manifests recorded by reference, which the next request is written against
 * (`recordedManifest`, called where the ladder builds the request: decider/stage-request.ts). It stays as recorded in a fork: it says what each model call was
 * sent (decider/kernel-state.ts keeps it out of the fork's rebase). No hooks.
 */
export const manifestsFeature: KernelFeature<'manifests', ManifestHistory> = {
  name: 'manifests',
  flag: MANIFEST_BY_REFERENCE,
  events: [],
  state: { initial: emptyManifestHistory, evolve: evolveManifests },
  hooks: {},
};
