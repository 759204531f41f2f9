import type { CorrexEvent } from '../../../event-catalog.js';
import type { JsonValue } from '../../../events/canonical-json.js';
import { extractBriefReferences } from '../../../context/brief-references.js';
import { normalizeAbsolute } from '../../../tools/tool-path.js';
import type { AcceptedArtifactFacts } from '../../decider/kernel-feature.js';
import type { CritiqueState } from './critique-state.js';

type Payload = CorrexEvent['payload'];

/**
 * The CritiqueOutcomeCorrelator's events for a reviewer's accepted artifact (`critique-outcomes`):
 * first the outcomes of the open findings of the previous review, then (for a rework verdict)
 * this review's notes as findings. Null when both are recorded, or not a reviewer's.
 */
export function critiqueEvent(
  critique: CritiqueState,
  accepted: AcceptedArtifactFacts,
): Payload | null {
  const { stage, run, artifactHash } = accepted;
  const content: JsonValue = accepted.content;
  if (stage.role !== 'reviewer') return null;
  // A review's own findings are judged by the next review, not by itself.
  const open = critique.findings.filter(
    (f) => !critique.correlated.includes(f.id) && f.artifactHash !== artifactHash,
  );
  if (open.length > 0)
    return {
      type: 'critique_outcomes_correlated',
      stageId: run.stageId,
      attempt: run.attempt,
      outcomes: open.map((finding) => {
        const writes = critique.writes.filter((w) => w.sequence > finding.sequence);
        const changed =
          finding.paths.length === 0
            ? writes.length > 0
            : finding.paths.some((path) => writes.some((w) => w.path === path));
        const runs = accepted.checkRuns.filter((r) => r.sequence > finding.sequence);
        return {
          id: finding.id,
          changed,
          checksPassed: runs.length === 0 ? null : runs.every((r) => r.passed),
        };
      }),
    };
  const record = content as { verdict?: unknown; notes?: unknown } | null;
  if (record === null || typeof record !== 'object' || record.verdict !== 'rework') return null;
  if (critique.reviewed.includes(artifactHash)) return null;
  const notes = Array.isArray(record.notes)
    ? record.notes.filter((n): n is string => typeof n === 'string')
    : [];
  const workspace = accepted.workspace ?? '/';
  return {
    type: 'review_findings_recorded',
    stageId: run.stageId,
    attempt: run.attempt,
    artifactHash,
    findings: notes.map((note, index) => ({
      // Numbered across the session: a stage's later visit restarts its attempts, not its findings.
      id: `${run.stageId}.${critique.findings.length + index + 1}`,
      note,
      paths: extractBriefReferences(note)
        .filter((r) => r.kind === 'path')
        .map((r) =>
          normalizeAbsolute(r.value.startsWith('/') ? r.value : `${workspace}/${r.value}`),
        ),
    })),
  };
}
