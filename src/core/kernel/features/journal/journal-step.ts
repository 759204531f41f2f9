import { dueForCompaction, linesCompaction, modelCompaction } from './compact-journal.js';
import { buildSummaryRequest } from './journal-summary-request.js';
import { recordedInferEffect } from '../../decider/recorded-infer-effect.js';
import type { StageContext } from '../../decider/stage-context.js';
import type { SummaryRequest } from '../../decider/stage-run.js';
import { awaitEffect, emit, type Step } from '../../decider/step.js';
import type { TranscriptEntry } from '../../decider/transcript.js';

/**
 * Journal compaction between turns, or null when none is due. With `journal.summary: model`
 * the stage's model is asked for the summary first (`journal_summary_requested`), and its
 * answer is recorded as `journal_compacted`; a failed call, an empty answer or no profile to ask
 * leaves the summary to lines, so compaction never stops a stage.
 */
export function journalStep(context: StageContext): Step | null {
  const { config, run } = context;
  const pending = run.summary;
  if (pending !== null) {
    const older = run.transcript.filter((entry) => entry.sequence <= pending.throughSequence);
    switch (pending.answer.status) {
      case 'requested':
        return awaitEffect(summaryEffect(context, pending, older));
      case 'answered':
        return emit(
          modelCompaction(config, run, older, pending.requestId, pending.answer.text) ??
            linesCompaction(config, run, older),
        );
      case 'failed':
        return emit(linesCompaction(config, run, older));
    }
  }
  const older = dueForCompaction(config, run);
  if (older === null) return null;
  if (config.journalSummary !== 'model') return emit(linesCompaction(config, run, older));
  const built = buildSummaryRequest(config, context.stage, run, older);
  if (!built.ok) return emit(linesCompaction(config, run, older));
  context.built.set(built.requested.requestId, built.request);
  return emit(built.requested);
}

/** The model call a pending summary waits on: the request as recorded, rebuilt after a restart. */
function summaryEffect(
  context: StageContext,
  pending: SummaryRequest,
  older: readonly TranscriptEntry[],
) {
  const { config, run, stage } = context;
  return recordedInferEffect(context.built, pending, () => {
    const rebuilt = buildSummaryRequest(config, stage, run, older);
    return rebuilt.ok
      ? { request: rebuilt.request, requestDigest: rebuilt.requested.requestDigest }
      : null;
  });
}
