/** The id of the summary request of the compaction through `throughSequence`. */
export function summaryRequestId(
  run: { readonly stageId: string; readonly attempt: number },
  throughSequence: number,
): string {
  return `${run.stageId}.${run.attempt}.summary.${throughSequence}`;
}

/** True for a summary request's id: a turn's is `<stage>.<attempt>.<turn>`, and stage ids hold no dot. */
export function isSummaryRequestId(requestId: string): boolean {
  return /^[^.]+\.\d+\.summary\.\d+$/.test(requestId);
}
