import type { CorrexEvent } from '../event-catalog.js';
import type { KernelConfig } from './kernel-config.js';
import type { StageRunState } from './stage-run.js';

const LINE_LIMIT = 200;

/**
 * JournalCompaction: when a stage attempt's journal outgrows the configured size, every entry
 * but the newest few is folded into one summary: one line per entry (who, what kind, the first
 * line of what was said, cut), earlier summaries kept whole. Pure and derived from recorded
 * entries only, so it needs no model and replays byte for byte. Returns null when not due.
 */
export function compactJournal(
  config: KernelConfig,
  run: StageRunState,
): Extract<CorrexEvent['payload'], { type: 'journal_compacted' }> | null {
  const { compactJournalAfter, compactJournalKeep } = config.limits;
  if (run.transcript.length <= compactJournalAfter) return null;
  const older = run.transcript.slice(0, run.transcript.length - compactJournalKeep);
  const last = older.at(-1);
  if (last === undefined) return null;
  const lines = older.map((entry) => {
    if (entry.kind === 'summary') return entry.content;
    const first = entry.content.split('\n', 1)[0] ?? '';
    const cut = first.length > LINE_LIMIT ? `${first.slice(0, LINE_LIMIT)}…` : first;
    return `- ${entry.role === 'assistant' ? 'you' : 'correx'} (${entry.kind}): ${cut}`;
  });
  return {
    type: 'journal_compacted',
    stageId: run.stageId,
    attempt: run.attempt,
    throughSequence: last.sequence,
    entries: older.length,
    summary: [`Summary of earlier turns in this stage (${older.length} entries):`, ...lines].join(
      '\n',
    ),
  };
}
