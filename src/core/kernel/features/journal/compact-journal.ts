import { estimateTokens } from '../../../context/tokenizer.js';
import type { CorrexEvent } from '../../../event-catalog.js';
import type { KernelConfig } from '../../config/kernel-config.js';
import { BOUNDED_JOURNAL_SUMMARY } from '../../config/kernel-flags.js';
import type { StageRunState } from '../../decider/stage-run.js';
import type { TranscriptEntry } from '../../decider/transcript.js';

const LINE_LIMIT = 200;

type JournalCompacted = Extract<CorrexEvent['payload'], { type: 'journal_compacted' }>;

/** One line per journal entry: who, what kind, the first line of what was said, cut. */
function entryLine(entry: TranscriptEntry): string {
  const first = entry.content.split('\n', 1)[0] ?? '';
  const cut = first.length > LINE_LIMIT ? `${first.slice(0, LINE_LIMIT)}…` : first;
  return `- ${entry.role === 'assistant' ? 'you' : 'correx'} (${entry.kind}): ${cut}`;
}

/**
 * The newest lines that fit in `maxTokens` together with the heading. An earlier summary
 * contributes its lines (not its heading), so what it carried is folded in line by line and
 * the oldest lines are the ones to go.
 */
function boundedSummary(older: readonly TranscriptEntry[], maxTokens: number): string {
  const lines = older.flatMap((entry) =>
    entry.kind === 'summary' ? entry.content.split('\n').slice(1) : [entryLine(entry)],
  );
  const heading = (omitted: number) =>
    `Summary of earlier turns in this stage (${older.length} entries${
      omitted === 0 ? '' : `; the ${omitted} oldest lines left out`
    }):`;
  let budget = maxTokens - estimateTokens(heading(lines.length));
  let first = lines.length;
  while (first > 0) {
    const cost = estimateTokens(lines[first - 1]!) + 1;
    if (cost > budget) break;
    budget -= cost;
    first -= 1;
  }
  return [heading(first), ...lines.slice(first)].join('\n');
}

/** The entries a compaction folds now (all but the newest `compactJournalKeep`), or null. */
export function dueForCompaction(
  config: KernelConfig,
  run: StageRunState,
): readonly TranscriptEntry[] | null {
  const { compactJournalAfter, compactJournalKeep } = config.limits;
  if (run.transcript.length <= compactJournalAfter) return null;
  const older = run.transcript.slice(0, run.transcript.length - compactJournalKeep);
  return older.length === 0 ? null : older;
}

/**
 * JournalCompaction in lines: `older` folded into one summary, a line per entry. Pure and
 * derived from recorded entries only, so it needs no model and replays byte for byte. With
 * `bounded-journal-summary` the summary is capped at `compactJournalMaxTokens`; sessions
 * recorded before it keep earlier summaries whole, as they did.
 */
export function linesCompaction(
  config: KernelConfig,
  run: StageRunState,
  older: readonly TranscriptEntry[],
): JournalCompacted {
  const summary = config.behaviour.flags.has(BOUNDED_JOURNAL_SUMMARY.name)
    ? boundedSummary(older, config.limits.compactJournalMaxTokens)
    : [
        `Summary of earlier turns in this stage (${older.length} entries):`,
        ...older.map((entry) => (entry.kind === 'summary' ? entry.content : entryLine(entry))),
      ].join('\n');
  return {
    type: 'journal_compacted',
    stageId: run.stageId,
    attempt: run.attempt,
    throughSequence: older.at(-1)!.sequence,
    entries: older.length,
    summary,
  };
}

/**
 * The compaction of `older` into the summary a model wrote (answering `requestId`), under a
 * heading that says so, cut to `compactJournalMaxTokens`: the model's word is not trusted to
 * keep the bound. Null for an empty answer, which leaves the compaction to lines.
 */
export function modelCompaction(
  config: KernelConfig,
  run: StageRunState,
  older: readonly TranscriptEntry[],
  requestId: string,
  text: string,
): JournalCompacted | null {
  const written = text.trim();
  if (written === '') return null;
  const heading = `Summary of earlier turns in this stage (${older.length} entries, written by the model):`;
  return {
    ...linesCompaction(config, run, older),
    summary: cutToTokens(
      `${heading}\n${written}`,
      config.limits.compactJournalMaxTokens,
      config.tokenizer.count,
    ),
    requestId,
  };
}

/** The longest prefix of `text` that counts at most `maxTokens` (a cut text ends in "…"). */
function cutToTokens(text: string, maxTokens: number, count: (text: string) => number): string {
  if (count(text) <= maxTokens) return text;
  let fits = 0;
  let over = text.length;
  while (over - fits > 1) {
    const middle = Math.floor((fits + over) / 2);
    if (count(`${text.slice(0, middle)}…`) <= maxTokens) fits = middle;
    else over = middle;
  }
  return `${text.slice(0, fits)}…`;
}
