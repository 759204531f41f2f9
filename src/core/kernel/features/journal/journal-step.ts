import { dueForCompaction, linesCompaction, modelCompaction } from './compact-journal.js';
import { buildSummaryRequest } from './journal-summary-request.js';
import { recordedInferEffect } from '../../decider/recorded-infer-effect.js';
import type { KernelConfig } from '../../config/kernel-config.js';
import type { WorkflowStage } from '../../../transitions/workflow.js';
import type { StageRunState } from '../../decider/stage-run.js';
import type { BuiltRequests } from '../../decider/step.js';
import type { SummaryRequest } from '../../decider/stage-run.js';
import { awaitEffect, emit, type Step } from '../../decider/step.js';
import type { TranscriptEntry } from '../../decider/transcript.js';

/** What the journal's step reads of a running stage. */
type JournalContext = {
  readonly config: KernelConfig;
  readonly run: StageRunState;
  readonly stage: WorkflowStage;
  readonly built: BuiltRequests;
};

/**
 * Journal compaction between turns, or null when none is due. With `journal.summary: model`
 * the stage's model is asked for the summary first (`journal_summary_requested`), and its
 * answer is recorded as `journal_compacted`; a failed call, an empty answer or no profile to ask
 * leaves the summary to lines, so compaction never stops a stage.
 */
export function journalStep(context: JournalContext): Step | null {
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
  context: JournalContext,
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
