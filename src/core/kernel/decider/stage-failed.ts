import type { CorrexEvent } from '../../event-catalog.js';
import type { FailureCategory } from '../../sessions/failure-category.js';
import type { StageRunState } from './stage-run.js';

/** The `stage_failed` payload that ends a stage attempt; the retry policy decides what follows. */
export function stageFailed(
  run: StageRunState,
  category: FailureCategory,
  message: string,
): CorrexEvent['payload'] {
  return { type: 'stage_failed', stageId: run.stageId, attempt: run.attempt, category, message };
}
