import type { CorrexEvent } from '../../../event-catalog.js';

/** Review findings, their correlation, and the session's writes in order (CritiqueOutcomeCorrelator). */
export type CritiqueState = {
  readonly findings: readonly {
    readonly id: string;
    readonly paths: readonly string[];
    readonly sequence: number;
    /** The review artifact that raised it. */
    readonly artifactHash: string;
  }[];
  /** Finding ids whose outcome is recorded. */
  readonly correlated: readonly string[];
  /** Review artifacts whose findings are recorded. */
  readonly reviewed: readonly string[];
  readonly writes: readonly { readonly path: string; readonly sequence: number }[];
};

export const INITIAL_CRITIQUE: CritiqueState = {
  findings: [],
  correlated: [],
  reviewed: [],
  writes: [],
};

export function evolveCritique(critique: CritiqueState, event: CorrexEvent): CritiqueState {
  const payload = event.payload;
  switch (payload.type) {
    case 'review_findings_recorded':
      return {
        ...critique,
        reviewed: [...critique.reviewed, payload.artifactHash],
        findings: [
          ...critique.findings,
          ...payload.findings.map((f) => ({
            id: f.id,
            paths: f.paths,
            sequence: event.sequence,
            artifactHash: payload.artifactHash,
          })),
        ],
      };
    case 'critique_outcomes_correlated':
      return {
        ...critique,
        correlated: [...critique.correlated, ...payload.outcomes.map((o) => o.id)],
      };
    case 'tool_receipt': {
      // The session's successful writes with their sequence, for the correlation.
      if (payload.outcome !== 'succeeded') return critique;
      const writes = payload.files
        .filter((file) => file.access === 'write')
        .map((file) => ({ path: file.path, sequence: event.sequence }));
      return writes.length === 0
        ? critique
        : { ...critique, writes: [...critique.writes, ...writes] };
    }
    default:
      return critique;
  }
}
