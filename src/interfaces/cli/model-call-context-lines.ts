import type { ModelCallContext } from '../../core/inference/model-call-contexts.js';
import { formatTable } from './format.js';

/*
 * `correx show <session> --context [call]`: what the model saw. Without a call, one row per model
 * call (pack tokens against the budget, what it held and left out, what came in and went since
 * the stage's previous call); with one, that call's whole manifest, item by item.
 */

export function modelCallListLines(
  sessionId: string,
  calls: readonly ModelCallContext[],
): string[] {
  if (calls.length === 0) return [`session ${sessionId} made no model calls`];
  return [
    `${calls.length} model call${calls.length === 1 ? '' : 's'} of session ${sessionId} (show one with --context <n|request id|last>)`,
    '',
    formatTable(
      [
        '#',
        'SEQ',
        'REQUEST',
        'STAGE',
        'PROFILE',
        'PACK/BUDGET',
        'ITEMS',
        'LEFT OUT',
        'CHANGE',
        'REPORTED IN',
      ],
      calls.map((call, index) => [
        String(index + 1),
        String(call.sequence),
        call.requestId,
        call.stageId,
        call.profileId,
        `${call.manifest.totalTokens}/${call.manifest.budgetTokens}`,
        String(call.manifest.included.length),
        String(call.manifest.excluded.length),
        call.change === null
          ? 'first'
          : `+${call.change.added.length} -${call.change.dropped.length}`,
        call.reportedInputTokens === null ? '-' : String(call.reportedInputTokens),
      ]),
    ),
  ];
}

export function modelCallLines(call: ModelCallContext, position: number): string[] {
  const { manifest } = call;
  const reported =
    call.reportedInputTokens === null
      ? 'no answer recorded'
      : `the model reported ${call.reportedInputTokens} input tokens`;
  const change =
    call.change === null
      ? ['changed   (the first call of its stage)']
      : [
          `came in   ${call.change.added.length === 0 ? 'nothing' : call.change.added.join(', ')}`,
          `went out  ${call.change.dropped.length === 0 ? 'nothing' : call.change.dropped.join(', ')}`,
        ];
  return [
    `model call ${call.requestId} (#${position}, sequence ${call.sequence}), stage ${call.stageId}`,
    `model     ${call.profileId} (${call.provider} ${call.model})`,
    `pack      ${manifest.totalTokens} of ${manifest.budgetTokens} tokens (${manifest.tokenizer}); whole request about ${call.tokenEstimate}; ${reported}`,
    `digest    ${call.packDigest} (manifest recorded ${call.recordedAs === 'whole' ? 'whole' : 'by reference'})`,
    `tools     ${call.toolNames.length === 0 ? 'none' : call.toolNames.join(', ')}`,
    ...change,
    '',
    `IN THE PACK (${manifest.included.length})`,
    formatTable(
      ['LAYER', 'KIND', 'ID', 'TOKENS', 'COMPRESSED', 'SOURCE', 'CONTENT SHA-256'],
      manifest.included.map((entry) => [
        entry.layer,
        entry.kind,
        entry.id,
        entry.compression === 'none'
          ? String(entry.tokens)
          : `${entry.tokens} of ${entry.originalTokens}`,
        entry.compression === 'none'
          ? '-'
          : `${entry.compression}${entry.compressedBecause === undefined ? '' : ` (${entry.compressedBecause.replace('_', ' ')})`}`,
        `${entry.source.kind} ${entry.source.id}`,
        entry.contentSha256.slice(0, 12),
      ]),
    ),
    '',
    `LEFT OUT (${manifest.excluded.length})`,
    manifest.excluded.length === 0
      ? 'nothing'
      : formatTable(
          ['LAYER', 'KIND', 'ID', 'TOKENS', 'WHY', 'SOURCE'],
          manifest.excluded.map((item) => [
            item.layer,
            item.kind,
            item.id,
            String(item.tokens),
            item.reason === 'duplicate' && item.duplicateOf !== undefined
              ? `duplicate of ${item.duplicateOf}`
              : item.reason.replace('_', ' '),
            `${item.source.kind} ${item.source.id}`,
          ]),
        ),
  ];
}
