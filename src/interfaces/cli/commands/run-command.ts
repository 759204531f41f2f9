import { Command, Option } from 'commander';
import { OperatorModeSchema } from '../../../core/approvals/approval-tier.js';
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
        const code = await followSession(context, host, events, run, location);
        if (code !== 0) context.fail(code);
      } finally {
        progress.dispose();
      }
    },
    { create: true },
  );
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
    .addHelpText(
      'after',
      '\nIn prompt mode each gated call is shown with its findings and tier and asked here (or decided\nwith `correx approve`/`deny` from another terminal). Ctrl-C pauses; a second Ctrl-C cancels.',
    )
    .action(
      async (
        task: string,
        options: { workspace?: string; workflow?: string; model?: string; mode?: string },
        command: Command,
      ) => {
        await drive(context, command, (host) =>
          host.start({
            task,
            workspace: options.workspace ?? context.cwd,
            ...(options.workflow === undefined ? {} : { workflow: options.workflow }),
            ...(options.model === undefined ? {} : { modelProfile: options.model }),
            ...(options.mode === undefined ? {} : { mode: OperatorModeSchema.parse(options.mode) }),
          }),
        );
      },
    );

  const resume = new Command('resume')
    .description(
      'continue a paused or interrupted session here, with the configuration it recorded at its start',
    )
    .argument('[session]', SESSION_ARGUMENT)
    .action(async (typed: string | undefined, _options: unknown, command: Command) => {
      await drive(context, command, async (host, store) => {
        const sessionId = await resolveSessionRef(store, typed, command);
        // A paused session is resumed by a person's command; an interrupted one just needs a driver.
        await host.command(sessionId, { type: 'resume', by: context.user });
        return host.resume(sessionId);
      });
    });
  return [run, resume];
}
