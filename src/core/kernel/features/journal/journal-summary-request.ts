import type { PayloadOf } from '../../../events/event-definition.js';
import type { journalSummaryRequested } from '../../../context/journal-events.js';
import type { InferenceRequest } from '../../../inference/inference-request.js';
import { inferenceRequestDigest } from '../../../inference/request-digest.js';
import type { WorkflowStage } from '../../../transitions/workflow.js';
import type { KernelConfig } from '../../config/kernel-config.js';
import { routeStage } from '../../decider/route-stage.js';
import type { StageRunState } from '../../decider/stage-run.js';
import { summaryRequestId } from './summary-request-id.js';
import type { TranscriptEntry } from '../../decider/transcript.js';

/** How much of one journal entry the summarising model reads: a long tool output is cut. */
const ENTRY_CHARS = 2_000;

export type SummaryRequestBuilt =
  | {
      readonly ok: true;
      readonly provider: string;
      readonly request: InferenceRequest;
      readonly requested: PayloadOf<typeof journalSummaryRequested>;
    }
  | { readonly ok: false; readonly message: string };

/**
 * The model call that asks the stage's own model (the profile that serves the stage) to
 * summarise `older`, the entries a compaction folds: no tools, at most
 * `compactJournalMaxTokens` of output. The entries go in newest first until the profile's
 * context window (less its output) is full, so the call never outgrows what the model takes.
 * Pure: the same entries and config give the same request, so a pending one can be rebuilt.
 */
export function buildSummaryRequest(
  config: KernelConfig,
  stage: WorkflowStage,
  run: StageRunState,
  older: readonly TranscriptEntry[],
): SummaryRequestBuilt {
  const routed = routeStage(config, stage);
  if (!routed.ok) return routed;
  const { profile } = routed;
  const maxOutputTokens = Math.min(profile.maxOutputTokens, config.limits.compactJournalMaxTokens);
  const instructions = [
    'You keep the working memory of a coding agent. Below is the older part of its journal in one',
    `stage (\`${stage.id}\`, the ${stage.role}): its own turns and what correx answered them.`,
    'Summarise it for the agent to read instead: what was done, what was learned about the code,',
    'what was decided and why, and what is still open. Keep file paths, commands, error messages',
    `and numbers exactly. Write at most about ${maxOutputTokens} tokens. Answer with the summary`,
    'only.',
  ].join(' ');
  const budget = profile.contextWindow - maxOutputTokens - config.tokenizer.count(instructions);
  const lines: string[] = [];
  let used = 0;
  for (let index = older.length - 1; index >= 0; index--) {
    const line = journalLine(older[index]!);
    const cost = config.tokenizer.count(line) + 1;
    if (used + cost > budget) break;
    used += cost;
    lines.unshift(line);
  }
  const left = older.length - lines.length;
  const journal = [
    `The journal, oldest first (${older.length} entries${left === 0 ? '' : `; the ${left} oldest did not fit and are left out`}):`,
    ...lines,
  ].join('\n');
  const request: InferenceRequest = {
    model: profile.model,
    messages: [
      { role: 'system', content: instructions },
      { role: 'user', content: journal },
    ],
    tools: [],
    limits: { maxOutputTokens, timeoutMs: config.limits.inferenceTimeoutMs },
  };
  const throughSequence = older.at(-1)!.sequence;
  return {
    ok: true,
    provider: profile.provider,
    request,
    requested: {
      type: 'journal_summary_requested',
      requestId: summaryRequestId(run, throughSequence),
      stageId: run.stageId,
      attempt: run.attempt,
      throughSequence,
      entries: older.length,
      provider: profile.provider,
      model: profile.model,
      profileId: profile.id,
      requestDigest: inferenceRequestDigest(request, config.sha256),
      tokenEstimate: config.tokenizer.count(instructions) + used,
    },
  };
}

function journalLine(entry: TranscriptEntry): string {
  const who =
    entry.kind === 'summary' ? 'earlier summary' : entry.role === 'assistant' ? 'agent' : 'correx';
  const content =
    entry.content.length > ENTRY_CHARS
      ? `${entry.content.slice(0, ENTRY_CHARS)}… (${entry.content.length - ENTRY_CHARS} more characters)`
      : entry.content;
  return `[${who}, ${entry.kind}] ${content}`;
}
