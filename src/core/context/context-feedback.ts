/**
 * ContextFeedback (spec 001): which pack entries the model's later calls referred to. A tool
 * result about a file (a read, an edit) whose path the model names again in a later call is
 * in use and rises in relevance; one whose path no later call names falls with every turn that
 * passes it by. Derived only from recorded events (the receipts and the answered calls), so a
 * replay ranks exactly as the live run did. Relevance orders eviction inside a layer.
 */
export type FeedbackSubject = {
  readonly id: string;
  /** The paths (or symbols) the entry is about. */
  readonly subjects: readonly string[];
  readonly sequence: number;
};

/** A later model turn: its sequence and the text of its calls (names and raw arguments). */
export type FeedbackTurn = { readonly sequence: number; readonly calls: string };

const BASE = 0.5;
const USE_GAIN = 0.15;
const IDLE_LOSS = 0.1;
const FLOOR = 0.05;
const CEILING = 0.95;

/**
 * The relevance of each entry with subjects: 0.5, plus 0.15 for each later turn whose calls
 * name one of its subjects, minus 0.1 for each later turn since the last such use (or since
 * the entry, when never used), within 0.05..0.95.
 */
export function feedbackRelevance(
  entries: readonly FeedbackSubject[],
  turns: readonly FeedbackTurn[],
): Map<string, number> {
  const ordered = [...turns].sort((a, b) => a.sequence - b.sequence);
  const relevance = new Map<string, number>();
  for (const entry of entries) {
    if (entry.subjects.length === 0) continue;
    let uses = 0;
    let idle = 0;
    for (const turn of ordered) {
      if (turn.sequence <= entry.sequence) continue;
      if (entry.subjects.some((subject) => mentions(turn.calls, subject))) {
        uses += 1;
        idle = 0;
      } else idle += 1;
    }
    const score = BASE + USE_GAIN * uses - IDLE_LOSS * idle;
    relevance.set(entry.id, Math.round(Math.min(CEILING, Math.max(FLOOR, score)) * 100) / 100);
  }
  return relevance;
}

/** Whether `text` names `subject` as a whole path (not `a.ts` inside `data.tsx`). */
function mentions(text: string, subject: string): boolean {
  let from = 0;
  for (;;) {
    const at = text.indexOf(subject, from);
    if (at < 0) return false;
    const before = text[at - 1];
    const after = text[at + subject.length];
    if (
      (before === undefined || !/[\w.-]/.test(before)) &&
      (after === undefined || !/[\w.-]/.test(after))
    )
      return true;
    from = at + 1;
  }
}
