import { Command } from 'commander';
import { CorrexError } from '../../../core/base/correx-error.js';
import type { CorrexEventStore } from '../../../core/event-catalog.js';
import { replay } from '../../../core/events/replay.js';
import type { KernelCommand } from '../../../core/kernel/index.js';
import { recordCommand } from '../../../core/kernel/index.js';
import { sessionProjection } from '../../../core/sessions/session-projection.js';
import type { CommandContext } from '../cli-context.js';
import { formatJson, formatTable } from '../format.js';
import { parsePersonName } from '../person-name-option.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import { storeLocation, withStore } from '../with-store.js';

const POLL_MS = 250;
/** How long `redirect` waits for a live driver to decide it before saying it is still pending. */
const REDIRECT_WAIT_MS = 30_000;

/**
 * `[session] <second>` with the global `--last`: `correx approve --last call-1` names the call
 * in the first place. Returns the typed session (undefined with --last) and the second value.
 */
function sessionAnd(
  command: Command,
  first: string | undefined,
  second: string | undefined,
  what: string,
): [string | undefined, string] {
  const last = (command.optsWithGlobals() as { last?: boolean }).last === true;
  const [session, other] = last && second === undefined ? [undefined, first] : [first, second];
  if (other === undefined) throw new CorrexError('usage', `missing the ${what}`);
  return [session, other];
}

/**
 * Records one command and says what it became (the event types, or that nothing changed); a
 * refusal is printed with its reason and exits 1. Returns the session and the last sequence.
 */
async function record(
  context: CommandContext,
  command: Command,
  typed: string | undefined,
  kernelCommand: KernelCommand,
  afterRecording?: (events: CorrexEventStore, sessionId: string, sequence: number) => Promise<void>,
) {
  await withStore(context, command, async ({ events }) => {
    const sessionId = await resolveSessionRef(events, typed, command);
    // A steering note to a finished session is refused by the kernel's command (one place).
    const stored = await recordCommand(context, events, sessionId, kernelCommand);
    if (stored.length === 0)
      return context.out(
        `nothing to record: session ${sessionId} is already ${kernelCommand.type === 'resume' ? 'running' : 'there'}`,
      );
    for (const event of stored) {
      if (
        event.payload.type === 'lifecycle_rejected' ||
        event.payload.type === 'redirect_rejected'
      ) {
        context.err(`correx: refused: ${event.payload.message}`);
        context.fail(1);
      } else {
        context.out(`recorded ${event.payload.type} as #${event.sequence} in session ${sessionId}`);
      }
    }
    if (afterRecording !== undefined && stored.length > 0)
      await afterRecording(events, sessionId, stored.at(-1)!.sequence);
  });
}

/**
 * A redirect is decided by the session itself (the workflow says which moves are allowed): with
 * a live driver, wait for its answer and print a refusal with its reason (exit 1); with none, say
 * that it is decided when the session runs again.
 */
function awaitRedirectOutcome(context: CommandContext, command: Command) {
  return async (events: CorrexEventStore, sessionId: string, requested: number) => {
    const driver = await context.sessionDriver?.(storeLocation(context, command), sessionId);
    if (driver === null) {
      context.out(
        `nobody drives session ${sessionId} now: the redirect is decided when it runs again (correx resume ${sessionId})`,
      );
      return;
    }
    const started = Date.now();
    while (Date.now() - started < REDIRECT_WAIT_MS) {
      for (const event of await events.read(sessionId, { afterSequence: requested })) {
        const payload = event.payload;
        if (payload.type === 'redirect_rejected') {
          context.err(`correx: refused: ${payload.message}`);
          context.fail(1);
          return;
        }
        if (payload.type === 'stage_redirected') {
          context.out(`redirected: ${payload.from} → ${payload.to}`);
          return;
        }
      }
      await new Promise((done) => setTimeout(done, POLL_MS));
    }
    context.out(
      `the session has not decided the redirect yet; see: correx events ${sessionId} --from ${requested}`,
    );
  };
}

/**
 * `correx approvals | approve | deny | steer | redirect | pause | cancel`: a person's decisions
 * about a session, which may be running or waiting in another process. Each is recorded as the
 * kernel would record it; a waiting session continues when it is resumed.
 */
export function sessionCommands(context: CommandContext): Command[] {
  const approvals = new Command('approvals')
    .description('list the tool calls of a session that wait for a person to approve or deny them')
    .argument('[session]', SESSION_ARGUMENT)
    .option('--json', 'print JSON')
    .action(async (typed: string | undefined, options: { json?: boolean }, command: Command) => {
      await withStore(context, command, async ({ events }) => {
        const sessionId = await resolveSessionRef(events, typed, command);
        const { state } = await replay(events, sessionProjection, sessionId);
        if (options.json) return context.out(formatJson(state.pendingApprovals));
        if (state.pendingApprovals.length === 0)
          return context.out(`no approvals pending in session ${sessionId}`);
        context.out(
          formatTable(
            ['CALL', 'TOOL', 'TIER'],
            state.pendingApprovals.map((p) => [p.callId, p.tool, p.tier]),
          ),
        );
      });
    });

  const approve = new Command('approve')
    .description('approve a pending tool call (recorded with who approved it and why)')
    .argument('[session]', SESSION_ARGUMENT)
    .argument('[call]', 'call id (see `correx approvals`)')
    .option('--reason <text>', 'why')
    .option('--by <name>', 'who approves (default: $USER)', parsePersonName)
    .action(
      async (
        first: string | undefined,
        second: string | undefined,
        options: { reason?: string; by?: string },
        command: Command,
      ) => {
        const [typed, callId] = sessionAnd(command, first, second, 'call id');
        await record(context, command, typed, {
          type: 'approve',
          callId,
          by: options.by ?? context.user,
          ...(options.reason === undefined ? {} : { reason: options.reason }),
        });
      },
    );

  const deny = new Command('deny')
    .description('deny a pending tool call; it does not run')
    .argument('[session]', SESSION_ARGUMENT)
    .argument('[call]', 'call id (see `correx approvals`)')
    .requiredOption('--reason <text>', 'why (the model is told)')
    .option('--by <name>', 'who denies (default: $USER)', parsePersonName)
    .action(
      async (
        first: string | undefined,
        second: string | undefined,
        options: { reason: string; by?: string },
        command: Command,
      ) => {
        const [typed, callId] = sessionAnd(command, first, second, 'call id');
        await record(context, command, typed, {
          type: 'deny',
          callId,
          by: options.by ?? context.user,
          reason: options.reason,
        });
      },
    );

  const steer = new Command('steer')
    .description("add a steering note that the session's next context pack carries")
    .argument('[session]', SESSION_ARGUMENT)
    .argument('[note]', 'what the model should take into account')
    .option('--stage <stage>', 'only for this stage')
    .action(
      async (
        first: string | undefined,
        second: string | undefined,
        options: { stage?: string },
        command: Command,
      ) => {
        const [typed, note] = sessionAnd(command, first, second, 'note');
        await record(context, command, typed, {
          type: 'steer',
          content: note,
          ...(options.stage === undefined ? {} : { stageId: options.stage }),
        });
      },
    );

  const redirect = new Command('redirect')
    .description(
      'move a running session to another stage, along a transition its workflow declares from the current one',
    )
    .argument('[session]', SESSION_ARGUMENT)
    .argument('[stage]', 'the stage to move to')
    .option('--reason <text>', 'why (the model of the target stage is told)')
    .option('--by <name>', 'who (default: $USER)', parsePersonName)
    .action(
      async (
        first: string | undefined,
        second: string | undefined,
        options: { reason?: string; by?: string },
        command: Command,
      ) => {
        const [typed, stage] = sessionAnd(command, first, second, 'stage');
        await record(
          context,
          command,
          typed,
          {
            type: 'redirect',
            to: stage,
            by: options.by ?? context.user,
            ...(options.reason === undefined ? {} : { reason: options.reason }),
          },
          awaitRedirectOutcome(context, command),
        );
      },
    );

  const lifecycle = (type: 'pause' | 'cancel', description: string) =>
    new Command(type)
      .description(description)
      .argument('[session]', SESSION_ARGUMENT)
      .option('--reason <text>', 'why')
      .option('--by <name>', 'who (default: $USER)', parsePersonName)
      .action(
        async (
          typed: string | undefined,
          options: { reason?: string; by?: string },
          command: Command,
        ) => {
          await record(context, command, typed, {
            type,
            by: options.by ?? context.user,
            ...(options.reason === undefined ? {} : { reason: options.reason }),
          });
        },
      );

  return [
    approvals,
    approve,
    deny,
    steer,
    redirect,
    lifecycle('pause', 'pause a session: nothing more runs until it is resumed'),
    lifecycle('cancel', 'cancel a session; a running tool or model call is stopped'),
  ];
}
