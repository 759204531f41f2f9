import { formatEventLine } from '../event-line.js';
import { Command, Option } from 'commander';
import { OperatorModeSchema } from '../../../core/approvals/approval-tier.js';
import { CorrexError } from '../../../core/base/correx-error.js';
import { parseDuration } from '../../../core/base/duration.js';
import type { SessionBudgets } from '../../../core/kernel/budget.js';
import type { BudgetKind } from '../../../core/sessions/budget-events.js';
import type { CommandContext } from '../cli-context.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import { followSession } from '../follow-session.js';
import { createSessionProgress } from '../session-progress.js';
import { withStore } from '../with-store.js';
import type { HostedRun, SessionHost } from '../../session-host.js';
import type { CorrexEventStore } from '../../../core/event-catalog.js';

/** Drives one session in this process with live progress, then reports how it ended. */
async function drive(
  context: CommandContext,
  command: Command,
  begin: (host: SessionHost, store: CorrexEventStore) => Promise<HostedRun>,
): Promise<void> {
  await withStore(
    context,
    command,
    async ({ events, location }) => {
      const progress = createSessionProgress(context, context.terminal);
      try {
        const host = await context.createSessionHost({
          store: events,
          location,
          onEvent: progress.onEvent,
        });
        const run = await begin(host, events);
        context.out(`session ${run.sessionId}`);
        if (run.worktree !== undefined) {
          const { path, branch, base, uncommitted } = run.worktree;
          context.out(`worktree ${path} on branch ${branch} (from ${base})`);
          if (uncommitted.length > 0)
            context.out(
              `note: ${uncommitted.length} uncommitted change(s) in the original tree are not in the worktree and stay where they are`,
            );
        }
        const code = await followSession(context, host, events, run, location);
        if (code !== 0) context.fail(code);
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
    .option(
      '--worktree',
      'work in a git worktree on branch correx/<session>, a commit per accepted stage (see correx merge)',
    )
    .addHelpText(
      'after',
      '\nIn prompt mode each gated call is shown with its findings and tier and asked here (or decided\nwith `correx approve`/`deny` from another terminal). Ctrl-C pauses; a second Ctrl-C cancels.',
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
        } & BudgetOptions,
        command: Command,
      ) => {
        const budgets = budgetsOf(options);
        await drive(context, command, (host) =>
          host.start({
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
    .action(
      async (
        typed: string | undefined,
        options: BudgetOptions & { retry?: boolean; reason?: string },
        command: Command,
      ) => {
        const budgets = budgetsOf(options);
        await drive(context, command, async (host, store) => {
          const sessionId = await resolveSessionRef(store, typed, command);
          // First the retry, so a budget raised with it applies to the session running again.
          if (options.retry === true) {
            const recorded = await host.command(sessionId, {
              type: 'retry',
              by: context.user,
              ...(options.reason === undefined ? {} : { reason: options.reason }),
            });
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
  return [run, resume];
}
