import type { ContextCandidate } from './context-candidate.js';

/**
 * The small curated operating-guidance entry every stage receives (spec 001): verify observed
 * state, create required project setup, resolve necessary scope edges without re-deliberating.
 */
export const OPERATING_GUIDANCE = [
  'Operating guidance:',
  '- Verify observed state before acting on it: read a file or run a check instead of assuming its content.',
  '- Create the project setup the task requires (directories, manifests, configuration) when it is missing.',
  '- Resolve small scope edges the task needs and move on; do not re-deliberate decisions already made.',
].join('\n');

export function operatingGuidanceCandidate(): ContextCandidate {
  return {
    id: 'operating-guidance',
    layer: 'L0',
    kind: 'guidance',
    source: { kind: 'builtin', id: 'operating-guidance-v1' },
    content: OPERATING_GUIDANCE,
    order: 0,
  };
}
