import { resolve } from 'node:path';
import { formatEventLine } from '../event-line.js';
import { Command, Option } from 'commander';
import { OperatorModeSchema } from '../../../core/approvals/approval-tier.js';
import { CorrexError } from '../../../core/base/correx-error.js';
import { parseDuration } from '../../../core/base/duration.js';
import type { SessionBudgets } from '../../../core/kernel/index.js';
import type { BudgetKind } from '../../../core/sessions/budget-events.js';
import { askWorkspaceTrust } from './trust-command.js';
import type { CommandContext } from '../cli-context.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import { followSession } from '../follow-session.js';
import { createSessionProgress } from '../session-progress.js';
import { withStore } from '../with-store.js';
import {
  announceWait,
  JSON_HELP,
  refuseUnattendedPrompt,
  storedText,
  WAIT_HELP,
  waitDuration,
  type HeadlessOptions,
  type HeadlessRun,
} from '../headless-run.js';
import { createJsonEventStream } from '../json-event-stream.js';
import { readSessionLogs, runSummary } from '../run-summary.js';
import { runSummaryLines } from '../run-summary-lines.js';
import { nodeSha256 } from '../../../infrastructure/system/node-sha256.js';
import type { HostedRun, SessionHost } from '../../session-host.js';
import type { CorrexEventStore } from '../../../core/event-catalog.js';

/** Drives one session in this process with live progress, then reports how it ended. */
export async function drive(
  context: CommandContext,
  command: Command,
  headless: HeadlessOptions,
  begin: (host: SessionHost, store: CorrexEventStore, headless: HeadlessRun) => Promise<HostedRun>,
): Promise<void> {
  const waitMs = waitDuration(headless.waitForApproval);
  await withStore(
    context,
    command,
    async ({ events, location }) => {
      const json = headless.json === true;
      const stream = json ? createJsonEventStream(events, context.out) : undefined;
      // With --json, standard output carries the stream alone: what a person reads goes to stderr.
      const human: CommandContext = json ? { ...context, out: context.err } : context;
      const progress = createSessionProgress(human, context.terminal);
      try {
        const host = await context.createSessionHost({
          store: events,
          location,
          onEvent: (event) => {
            progress.onEvent(event);
            stream?.onEvent(event);
          },
        });
        const run = await begin(host, events, {
          follow: (sessionId, after) => stream?.follow(sessionId, after),
          checkMode: (mode) => refuseUnattendedPrompt(context, mode, headless),
        });
        stream?.follow(run.sessionId, 0);
        human.out(`session ${run.sessionId}`);
        if (run.worktree !== undefined) {
          const { path, branch, base, uncommitted } = run.worktree;
          human.out(`worktree ${path} on branch ${branch} (from ${base})`);
          if (uncommitted.length > 0)
            human.out(
              `note: ${uncommitted.length} uncommitted change(s) in the original tree are not in the worktree and stay where they are`,
            );
        }
        await followSession(human, host, events, run, location, {
          ...(waitMs === undefined ? {} : { timeoutMs: waitMs }),
          // Any mode may meet a call only a person decides (auto: T3); with nobody to ask and
          // no wait asked for, the run stops there at once, never waiting silently.
          ...(context.ask === undefined && headless.waitForApproval === undefined
            ? { unattended: true }
            : {}),
          // A terminal shows the question itself; the stream and a run without one are told here.
          ...(context.ask === undefined || stream !== undefined
            ? { onWaiting: (wait) => announceWait(context, events, run.sessionId, wait, stream) }
            : {}),
        });
        // In a session with follow-up turns, the run reports the turn it drove.
        const summary = runSummary(
          run.sessionId,
          await readSessionLogs(events, run.sessionId),
          storedText(context.correxHome),
          nodeSha256,
          { turn: 'latest' },
        );
        for (const line of runSummaryLines(summary)) human.out(line);
        if (stream !== undefined) await stream.write(summary);
        if (summary.exitCode !== 0) context.fail(summary.exitCode);
      } finally {
        progress.dispose();
      }
    },
    { create: true },
  );
}

type BudgetOptions = { maxTokens?: string; maxCost?: string; maxDuration?: string };

/** The budgets given on the command line; a value that is not a positive amount is a usage error. */
function budgetsOf(options: BudgetOptions): SessionBudgets {
  const amount = (flag: string, text: string) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0)
      throw new CorrexError(
        'usage',
        `${flag} takes a positive number, got ${JSON.stringify(text)}`,
      );
    return value;
  };
  const duration = (text: string) => {
    const ms = parseDuration(text);
    if (ms === null)
      throw new CorrexError(
        'usage',
        `--max-duration takes a duration such as 90s, 30m or 2h, got ${JSON.stringify(text)}`,
      );
    return ms;
  };
  return {
    ...(options.maxTokens === undefined
      ? {}
      : { maxTokens: amount('--max-tokens', options.maxTokens) }),
    ...(options.maxCost === undefined ? {} : { maxCostUsd: amount('--max-cost', options.maxCost) }),
    ...(options.maxDuration === undefined ? {} : { maxDurationMs: duration(options.maxDuration) }),
  };
}

function raisedBudgets(budgets: SessionBudgets): [BudgetKind, number][] {
  const raised: [BudgetKind, number][] = [];
  if (budgets.maxTokens !== undefined) raised.push(['tokens', budgets.maxTokens]);
  if (budgets.maxCostUsd !== undefined) raised.push(['cost', budgets.maxCostUsd]);
  if (budgets.maxDurationMs !== undefined) raised.push(['duration', budgets.maxDurationMs]);
  return raised;
}

/** `correx run "<task>"` and `correx resume <id>`: real sessions with a configured model. */
export function runCommands(context: CommandContext): Command[] {
  const run = new Command('run')
    .description('run a task on a workspace with the configured model (see harness.yaml)')
    .argument('<task>', 'what the agent should do')
    .option('--workspace <dir>', 'the folder the agent works in (default: the current folder)')
    .option('--workflow <name|file>', 'a workflow from harness.yaml or a workflow YAML file')
    .option('--model <profile>', 'a model profile from harness.yaml (runs every stage)')
    .addOption(
      new Option('--mode <mode>', 'approval mode (default: harness.yaml, else prompt)').choices(
        OperatorModeSchema.options,
      ),
    )
    .option('--max-tokens <n>', 'stop before a model call once the session used this many tokens')
    .option('--max-cost <usd>', "stop once the session cost this much (by the profiles' prices)")
    .option('--max-duration <time>', 'stop once the session ran this long (90s, 30m, 2h)')
    .option('--json', JSON_HELP)
    .option('--wait-for-approval [duration]', WAIT_HELP)
    .option(
      '--worktree',
      'work in a git worktree on branch correx/<session>, a commit per accepted stage (see correx merge)',
    )
    .addHelpText(
      'after',
      '\nIn prompt mode each gated call is shown with its findings and tier and asked here (or decided\nwith `correx approve`/`deny` from another terminal). Ctrl-C pauses; a second Ctrl-C cancels.\nWithout a terminal, prompt mode needs --wait-for-approval (or another --mode).\nExit codes: 0 completed, 1 failed, 2 usage or configuration, 3 store unavailable,\n4 waiting for a person (approval, pause, budget; resumable), 5 cancelled. See docs/headless.md.',
    )
    .action(
      async (
        task: string,
        options: {
          workspace?: string;
          workflow?: string;
          model?: string;
          mode?: string;
          worktree?: boolean;
        } & BudgetOptions &
          HeadlessOptions,
        command: Command,
      ) => {
        const budgets = budgetsOf(options);
        // The workspace's own hooks, servers and widenings: asked about here, on a terminal only.
        if (options.json !== true)
          await askWorkspaceTrust(context, resolve(context.cwd, options.workspace ?? '.'));
        await drive(context, command, options, (host, _store, headless) =>
          host.start({
            checkMode: headless.checkMode,
            ...(Object.keys(budgets).length === 0 ? {} : { budgets }),
            task,
            workspace: options.workspace ?? context.cwd,
            ...(options.workflow === undefined ? {} : { workflow: options.workflow }),
            ...(options.model === undefined ? {} : { modelProfile: options.model }),
            ...(options.mode === undefined ? {} : { mode: OperatorModeSchema.parse(options.mode) }),
            ...(options.worktree === true ? { worktree: true } : {}),
          }),
        );
      },
    );

  const resume = new Command('resume')
    .description(
      'continue a paused or interrupted session here (or, with --retry, a failed one), with the configuration it recorded at its start',
    )
    .argument('[session]', SESSION_ARGUMENT)
    .option('--max-tokens <n>', 'raise the token budget of a session that stopped at it')
    .option('--max-cost <usd>', 'raise its cost budget')
    .option('--max-duration <time>', 'raise its duration budget (90s, 30m, 2h)')
    .option(
      '--retry',
      'run a failed session again from the stage that failed (recorded as session_retried)',
    )
    .option('--reason <text>', 'why it is retried (recorded with --retry)')
    .option('--json', JSON_HELP)
    .option('--wait-for-approval [duration]', WAIT_HELP)
    .action(
      async (
        typed: string | undefined,
        options: BudgetOptions & HeadlessOptions & { retry?: boolean; reason?: string },
        command: Command,
      ) => {
        const budgets = budgetsOf(options);
        await drive(context, command, options, async (host, store, headless) => {
          const sessionId = await resolveSessionRef(store, typed, command);
          // Its mode is recorded at its start (after its configuration).
          for (const event of await store.read(sessionId, { limit: 10 }))
            if (event.payload.type === 'session_created') headless.checkMode(event.payload.mode);
          // The stream starts with what this resume appends.
          headless.follow(sessionId, await store.lastSequence(sessionId));
          // First the retry, so a budget raised with it applies to the session running again.
          if (options.retry === true) {
            const recorded = await host.command(sessionId, {
              type: 'retry',
              by: context.user,
              ...(options.reason === undefined ? {} : { reason: options.reason }),
            });
            // With --json the stream carries them.
            if (options.json !== true)
              for (const event of recorded) {
                const line = formatEventLine(event);
                if (line !== null) context.out(line);
              }
          }
          for (const [budget, limit] of raisedBudgets(budgets))
            await host.command(sessionId, {
              type: 'raise_budget',
              budget,
              limit,
              by: context.user,
            });
          // A paused session is resumed by a person's command; an interrupted one just needs a driver.
          if (options.retry !== true)
            await host.command(sessionId, { type: 'resume', by: context.user });
          return host.resume(sessionId);
        });
      },
    );
  const continueCommand = new Command('continue')
    .description(
      'ask a session whose workflow ended (completed, failed or cancelled) for a follow-up turn in the same workspace',
    )
    .argument('<session>', SESSION_ARGUMENT)
    .argument('<request>', 'what the agent should do next')
    .option(
      '--workflow <name|file>',
      "the workflow of this turn (chat, default-coding, one from harness.yaml, or a YAML file; default: the last turn's)",
    )
    .addOption(
      new Option(
        '--mode <mode>',
        "approval mode from this turn on (default: the session's)",
      ).choices(OperatorModeSchema.options),
    )
    .option('--json', JSON_HELP)
    .option('--wait-for-approval [duration]', WAIT_HELP)
    .addHelpText(
      'after',
      '\nThe request is recorded (turn_requested); before the turn runs, the files the session changed are\ncompared with what its log left, and any edited outside correx are reported and kept (see\ndocs/conversations.md). Exit codes as for correx run.',
    )
    .action(
      async (
        typed: string,
        request: string,
        options: HeadlessOptions & { workflow?: string; mode?: string },
        command: Command,
      ) => {
        await drive(context, command, options, async (host, store, headless) => {
          const sessionId = await resolveSessionRef(store, typed, command);
          let mode =
            options.mode === undefined ? undefined : OperatorModeSchema.parse(options.mode);
          if (mode === undefined)
            for (const event of await store.read(sessionId))
              if (event.payload.type === 'session_created') mode = event.payload.mode;
              else if (event.payload.type === 'turn_requested' && event.payload.mode !== undefined)
                mode = event.payload.mode;
          if (mode !== undefined) headless.checkMode(mode);
          // The stream starts with the request this command records.
          const before = await store.lastSequence(sessionId);
          headless.follow(sessionId, before);
          const run = await host.continue(sessionId, {
            text: request,
            requestedBy: context.user,
            ...(options.workflow === undefined ? {} : { workflow: options.workflow }),
            ...(options.mode === undefined ? {} : { mode: OperatorModeSchema.parse(options.mode) }),
          });
          // Recorded before the drive watched it: said here (with --json the stream carries it).
          for (const event of await store.read(sessionId, { afterSequence: before, limit: 5 }))
            if (event.payload.type === 'turn_requested') {
              const line = formatEventLine(event);
              if (line !== null) (options.json === true ? context.err : context.out)(line);
            }
          return run;
        });
      },
    );
  return [run, resume, continueCommand];
}
