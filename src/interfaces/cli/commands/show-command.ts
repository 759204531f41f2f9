import { sessionCost, UnknownSessionError } from '../../../core/kernel/index.js';
import { Command } from 'commander';
import { sessionProjection } from '../../../core/sessions/session-projection.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import type { CommandContext } from '../cli-context.js';
import { createEventLines } from '../paired-event-lines.js';
import { formatCost, formatJson, formatTable } from '../format.js';
import { fileChangeDiff } from '../file-change-diff.js';
import { withStore } from '../with-store.js';
import { drivenStatus } from '../driven-status.js';
import { visibleText } from '../../../core/base/visible-text.js';
import { checkReportLines } from '../check-report.js';
import type { CorrexEvent, CorrexEventStore } from '../../../core/event-catalog.js';
import { storedText } from '../headless-run.js';
import { readSessionLogs, runSummary } from '../run-summary.js';
import { runSummaryLines } from '../run-summary-lines.js';
import { nodeSha256 } from '../../../infrastructure/system/node-sha256.js';
import { turnOption } from '../turn-option.js';
import {
  findModelCall,
  ModelCallNotFoundError,
  modelCallContexts,
} from '../../../core/inference/model-call-contexts.js';
import { modelCallLines, modelCallListLines } from '../model-call-context-lines.js';

/** The events the evidence lines of the header are read from. */
const EVIDENCE: ReadonlySet<string> = new Set([
  'project_checks_detected',
  'dod_check_ran',
  'language_diagnostics_recorded',
  'brief_checked',
  'review_findings_recorded',
  'critique_outcomes_correlated',
]);

/** Added lines green, removed red, and only on a terminal. */
function colourDiff(line: string, colour: boolean): string {
  // A diff line is file content: shown escaped, then coloured by correx.
  line = visibleText(line);
  if (!colour || line.startsWith('+++') || line.startsWith('---')) return line;
  if (line.startsWith('+')) return `\x1b[32m${line}\x1b[0m`;
  if (line.startsWith('-')) return `\x1b[31m${line}\x1b[0m`;
  return line;
}

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)}s`;
}

/**
 * `correx show <id>`: a session as a person reads it. A header (status, task, workspace,
 * workflow, failure), time per stage, token usage, then the timeline: stages, tool calls with
 * their verdict and tier, approvals, failures and transitions, each with its sequence number.
 * Everything comes from one pass over the log.
 */
export function showCommand(context: CommandContext): Command {
  return new Command('show')
    .description(
      'a readable timeline of a session: stages, tool calls with verdicts, approvals, failures, transitions',
    )
    .argument('[session]', SESSION_ARGUMENT)
    .option('--json', 'print the session projection as JSON')
    .option('--no-diffs', 'leave out the diffs of file changes')
    .option(
      '--summary',
      'only the summary `correx run` ends with (with --json: the object `run --json` ends with)',
    )
    .option(
      '--context [call]',
      "what the model saw: every model call, or one call's whole context manifest (by its number, request id or `last`); with --json, the rebuilt manifests",
    )
    .option(
      '--turn <n>',
      'with --summary: the summary of one turn of a session with follow-up turns',
    )
    .action(
      async (
        typed: string | undefined,
        options: {
          json?: boolean;
          diffs?: boolean;
          summary?: boolean;
          turn?: string;
          context?: string | true;
        },
        command: Command,
      ) => {
        await withStore(context, command, async ({ events }) => {
          const sessionId = await resolveSessionRef(events, typed, command);
          if (options.summary === true) return showSummary(context, events, sessionId, options);
          if (options.context !== undefined)
            return showContext(context, events, sessionId, options.context, options.json === true);
          let state = sessionProjection.initial();
          const timeline: string[] = [];
          const proposed = new Map<string, { tool: string; argsRaw: string }>();
          const stageOfRequest = new Map<string, string>();
          const stageTokens = new Map<string, { input: number; output: number }>();
          const checkEvents: CorrexEvent[] = [];
          const all: CorrexEvent[] = [];
          /** Where each model call's answer ends in the timeline, to add its cost. */
          const answerLines = new Map<string, { index: number; sequence: number }>();
          const view = createEventLines();
          for await (const event of events.stream(sessionId)) {
            state = sessionProjection.evolve(state, event);
            all.push(event);
            if (EVIDENCE.has(event.payload.type)) checkEvents.push(event);
            view
              .lines(event)
              .forEach((line, index) =>
                timeline.push(
                  `${index === 0 ? String(event.sequence).padStart(5) : '     '}  ${line}`,
                ),
              );
            const payload = event.payload;
            if (payload.type === 'inference_completed')
              answerLines.set(payload.requestId, {
                index: timeline.length,
                sequence: event.sequence,
              });
            if (payload.type === 'tool_call_proposed') proposed.set(payload.callId, payload);
            if (
              payload.type === 'inference_requested' ||
              payload.type === 'journal_summary_requested'
            )
              stageOfRequest.set(payload.requestId, payload.stageId);
            if (payload.type === 'inference_completed') {
              const stage = stageOfRequest.get(payload.requestId) ?? '?';
              const sum = stageTokens.get(stage) ?? { input: 0, output: 0 };
              stageTokens.set(stage, {
                input: sum.input + payload.result.usage.inputTokens,
                output: sum.output + payload.result.usage.outputTokens,
              });
            }
            if (
              options.diffs !== false &&
              payload.type === 'tool_receipt' &&
              payload.outcome === 'succeeded'
            ) {
              const call = proposed.get(payload.callId);
              const diff = call === undefined ? [] : fileChangeDiff(call.tool, call.argsRaw);
              for (const diffLine of diff)
                timeline.push(`         ${colourDiff(diffLine, context.terminal)}`);
            }
          }
          for (const line of view.flush()) timeline.push(`       ${line}`);
          if (state.lastSequence === 0) throw new UnknownSessionError(sessionId);
          if (options.json) return context.out(formatJson(state));
          const cost = sessionCost(all);
          // Each priced model call gets a line with what it cost, after what it said.
          if (cost.priced)
            for (const [requestId, at] of [...answerLines].reverse())
              timeline.splice(
                at.index,
                0,
                `${String(at.sequence).padStart(5)}    model call ${formatCost(cost.byRequest.get(requestId) ?? 0)}`,
              );
          const status = await drivenStatus(context, command, sessionId, state.status);
          const header = [
            `session   ${sessionId}`,
            `status    ${status}${state.activeStage ? ` (in stage ${state.activeStage.stageId})` : ''}${status === state.status ? '' : `; continue with: correx resume ${sessionId}`}`,
            `task      ${state.task ?? '?'}`,
            `workspace ${state.workspace ?? '?'}`,
            `workflow  ${state.workflowId ?? '?'}`,
            `tokens    ${state.tokens.input} in, ${state.tokens.output} out`,
            ...(cost.priced ? [`cost      ${formatCost(cost.total)}`] : []),
            ...(state.failure
              ? [`failure   ${state.failure.category}: ${state.failure.message}`]
              : []),
            ...checkReportLines(checkEvents),
            ...(state.pendingApprovals.length > 0
              ? [
                  `waiting   for approval of ${state.pendingApprovals.map((p) => `${p.callId} (${p.tool}, ${p.tier})`).join(', ')}`,
                ]
              : []),
          ];
          const stages = Object.entries(state.timings);
          context.out(
            [
              ...header,
              '',
              stages.length > 0
                ? formatTable(
                    [
                      'STAGE',
                      'ATTEMPTS',
                      'TIME',
                      'TOKENS IN',
                      'TOKENS OUT',
                      ...(cost.priced ? ['COST'] : []),
                    ],
                    stages.map(([stageId, t]) => [
                      stageId,
                      String(t.runs),
                      seconds(t.totalMs),
                      String(stageTokens.get(stageId)?.input ?? 0),
                      String(stageTokens.get(stageId)?.output ?? 0),
                      ...(cost.priced ? [formatCost(cost.byStage.get(stageId) ?? 0)] : []),
                    ]),
                  )
                : 'no finished stages yet',
              '',
              ...timeline,
            ]
              .map((line, index) => (index < header.length ? visibleText(line) : line))
              .join('\n'),
          );
        });
      },
    );
}

/** `show --summary`: the run summary read from the store now, as `run` printed it at its end. */
async function showSummary(
  context: CommandContext,
  store: CorrexEventStore,
  sessionId: string,
  options: { json?: boolean; turn?: string },
): Promise<void> {
  const logs = await readSessionLogs(store, sessionId);
  if ((logs.get(sessionId) ?? []).length === 0) throw new UnknownSessionError(sessionId);
  const turn =
    options.turn === undefined ? undefined : turnOption(options.turn, logs.get(sessionId)!);
  const summary = runSummary(
    sessionId,
    logs,
    storedText(context.correxHome),
    nodeSha256,
    turn === undefined ? {} : { turn },
  );
  if (options.json) return context.out(JSON.stringify(summary));
  for (const line of runSummaryLines(summary).slice(1)) context.out(line);
}

/**
 * `show --context [call]`: what each model call saw, its manifest rebuilt from the log (whole or
 * by reference alike); with a call, that one's items.
 */
async function showContext(
  context: CommandContext,
  store: CorrexEventStore,
  sessionId: string,
  ref: string | true,
  json: boolean,
): Promise<void> {
  const events = await store.read(sessionId);
  if (events.length === 0) throw new UnknownSessionError(sessionId);
  const calls = modelCallContexts(events);
  if (ref === true) {
    if (json) return context.out(JSON.stringify(calls));
    for (const line of modelCallListLines(sessionId, calls)) context.out(line);
    return;
  }
  const call = findModelCall(calls, ref);
  if (call === undefined) throw new ModelCallNotFoundError(sessionId, ref, calls.length);
  if (json) return context.out(JSON.stringify(call));
  for (const line of modelCallLines(call, calls.indexOf(call) + 1)) context.out(line);
}
