import { Command } from 'commander';
import { replay } from '../../../core/events/replay.js';
import type { KernelCommand } from '../../../core/kernel/kernel-input.js';
import { sessionProjection } from '../../../core/sessions/session-projection.js';
import type { CommandContext } from '../cli-context.js';
import { parsePersonName } from '../person-name-option.js';
import { formatJson, formatTable } from '../format.js';
import { recordCommand } from '../../../core/kernel/record-command.js';
import { withStore } from '../with-store.js';

/** Records one command and says what it became (the event types, or that nothing changed). */
async function record(
  context: CommandContext,
  command: Command,
  sessionId: string,
  kernelCommand: KernelCommand,
) {
  await withStore(context, command, async ({ events }) => {
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
  });
}

/**
 * `correx approvals | approve | deny | steer | pause | cancel`: a person's decisions about a
 * session, which may be running or waiting in another process. Each is recorded as the kernel
 * would record it; a waiting session continues when it is resumed.
 */
export function sessionCommands(context: CommandContext): Command[] {
  const approvals = new Command('approvals')
    .description('list the tool calls of a session that wait for a person to approve or deny them')
    .argument('<session>', 'session id')
    .option('--json', 'print JSON')
    .action(async (sessionId: string, options: { json?: boolean }, command: Command) => {
      await withStore(context, command, async ({ events }) => {
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
    .argument('<session>', 'session id')
    .argument('<call>', 'call id (see `correx approvals`)')
    .option('--reason <text>', 'why')
    .option('--by <name>', 'who approves (default: $USER)', parsePersonName)
    .action(
      async (
        sessionId: string,
        callId: string,
        options: { reason?: string; by?: string },
        command: Command,
      ) => {
        await record(context, command, sessionId, {
          type: 'approve',
          callId,
          by: options.by ?? context.user,
          ...(options.reason === undefined ? {} : { reason: options.reason }),
        });
      },
    );

  const deny = new Command('deny')
    .description('deny a pending tool call; it does not run')
    .argument('<session>', 'session id')
    .argument('<call>', 'call id (see `correx approvals`)')
    .requiredOption('--reason <text>', 'why (the model is told)')
    .option('--by <name>', 'who denies (default: $USER)', parsePersonName)
    .action(
      async (
        sessionId: string,
        callId: string,
        options: { reason: string; by?: string },
        command: Command,
      ) => {
        await record(context, command, sessionId, {
          type: 'deny',
          callId,
          by: options.by ?? context.user,
          reason: options.reason,
        });
      },
    );

  const steer = new Command('steer')
    .description("add a steering note that the session's next context pack carries")
    .argument('<session>', 'session id')
    .argument('<note>', 'what the model should take into account')
    .option('--stage <stage>', 'only for this stage')
    .action(
      async (sessionId: string, note: string, options: { stage?: string }, command: Command) => {
        await record(context, command, sessionId, {
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
    .argument('<session>', 'session id')
    .argument('<stage>', 'the stage to move to')
    .option('--reason <text>', 'why (the model of the target stage is told)')
    .option('--by <name>', 'who (default: $USER)', parsePersonName)
    .action(
      async (
        sessionId: string,
        stage: string,
        options: { reason?: string; by?: string },
        command: Command,
      ) => {
        await record(context, command, sessionId, {
          type: 'redirect',
          to: stage,
          by: options.by ?? context.user,
          ...(options.reason === undefined ? {} : { reason: options.reason }),
        });
      },
    );

  const lifecycle = (type: 'pause' | 'cancel', description: string) =>
    new Command(type)
      .description(description)
      .argument('<session>', 'session id')
      .option('--reason <text>', 'why')
      .option('--by <name>', 'who (default: $USER)', parsePersonName)
      .action(
        async (sessionId: string, options: { reason?: string; by?: string }, command: Command) => {
          await record(context, command, sessionId, {
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
