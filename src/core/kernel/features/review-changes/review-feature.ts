import { REVIEW_SEES_CHANGES } from '../../config/kernel-flags.js';
import type { KernelFeature } from '../../decider/kernel-feature.js';
import type { CorrexEvent } from '../../../event-catalog.js';
import { isFileChangeTool, recordedChangeDiff, type RecordedChange } from './recorded-changes.js';

/** Successful `write_file`/`edit_file` calls with their arguments: the diff a reviewer sees. */
export type ReviewState = { readonly changes: readonly RecordedChange[] };

export const INITIAL_REVIEW: ReviewState = { changes: [] };

export function evolveReview(review: ReviewState, event: CorrexEvent): ReviewState {
  const payload = event.payload;
  if (
    payload.type !== 'tool_receipt' ||
    payload.outcome !== 'succeeded' ||
    !isFileChangeTool(payload.tool)
  )
    return review;
  return {
    changes: [
      ...review.changes,
      { tool: payload.tool, args: payload.args, sequence: event.sequence },
    ],
  };
}

/**
 * Review of changes (flag `review-sees-changes`): a reviewer's pack carries the session's file
 * changes as a diff built from the recorded `write_file`/`edit_file` calls that succeeded.
 */
export const reviewFeature: KernelFeature<'review', ReviewState> = {
  name: 'review',
  flag: REVIEW_SEES_CHANGES,
  events: [],
  state: { initial: INITIAL_REVIEW, evolve: evolveReview },
  hooks: {
    contextCandidates({ slice }, { stage, beforeSequence }) {
      if (stage.role !== 'reviewer') return [];
      const changes = slice.changes.filter((change) => change.sequence < beforeSequence);
      const diff = recordedChangeDiff(changes);
      return [
        {
          id: 'evidence:changes',
          layer: 'L1',
          kind: 'tool_result',
          source: { kind: 'config', id: 'evidence-changes' },
          content:
            diff.length === 0
              ? 'The session recorded no file changes by write_file or edit_file.'
              : `The session's file changes, from the recorded calls:\n${diff.join('\n')}`,
          order: changes.at(-1)?.sequence ?? 0,
        },
      ];
    },
  },
};
