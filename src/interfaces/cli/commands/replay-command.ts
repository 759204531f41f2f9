import { Command } from 'commander';
import { UnknownSessionError } from '../../../core/kernel/index.js';
import { replayAnySession } from '../../fork-replay.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import type { CommandContext } from '../cli-context.js';
import { formatJson } from '../format.js';
import { withStore } from '../with-store.js';
import { parseCount } from './events-command.js';

/**
 * `correx replay <id>`: rebuilds a session from its log alone, re-running the kernel's decisions
 * over the recorded inputs with the configuration the session recorded, no model and no tools,
 * and compares every derived event with the recorded one byte for byte.
 */
export function replayCommand(context: CommandContext): Command {
  return new Command('replay')
    .description('rebuild a session from its log without model or tools, comparing every decision')
    .argument('[session]', SESSION_ARGUMENT)
    .option(
      '--verify',
      'print only the verdict: exit 0 when byte-identical, 1 at the first divergence',
    )
    .option(
      '--from <sequence>',
      'trust the log before this sequence and re-decide from there',
      parseCount,
    )
    .option('--json', 'print the report as JSON')
    .action(
      async (
        typed: string | undefined,
        options: { verify?: boolean; from?: number; json?: boolean },
        command: Command,
      ) => {
        await withStore(context, command, async ({ events }) => {
          const sessionId = await resolveSessionRef(events, typed, command);
          if ((await events.lastSequence(sessionId)) === 0)
            throw new UnknownSessionError(sessionId);
          const { nodeSha256 } = await import('../../../infrastructure/system/node-sha256.js');
          const started = Date.now();
          const report = await replayAnySession(events, sessionId, {
            sha256: nodeSha256,
            ...(options.from === undefined ? {} : { fromSequence: Math.max(0, options.from - 1) }),
          });
          const ms = Date.now() - started;
          if (options.json) {
            context.out(
              formatJson(
                report.ok
                  ? {
                      ok: true,
                      events: report.events,
                      inputs: report.inputs,
                      decided: report.decided,
                      status: report.state.session.status,
                    }
                  : { ok: false, divergence: report.divergence },
              ),
            );
          } else if (report.ok) {
            context.out(
              `replay of ${sessionId}: identical — ${report.events} events, ${report.decided} decisions re-derived from ${report.inputs} inputs in ${ms} ms, no model or tool called`,
            );
            if (report.forkedFrom !== undefined)
              context.out(
                `fork of ${report.forkedFrom.parentSessionId} at #${report.forkedFrom.atSequence}: the copied prefix matches the parent's events and hash there; re-decided from #${report.forkedFrom.atSequence + 1}`,
              );
            if (!options.verify) {
              const session = report.state.session;
              context.out(`status    ${session.status}`);
              context.out(`stage     ${session.lastStageId ?? '-'}`);
              context.out(`tokens    ${session.tokens.input} in, ${session.tokens.output} out`);
              if (report.undecidedInput)
                context.out(
                  'note      the log ends with an input not yet decided; `correx resume` decides it',
                );
            }
          } else {
            const divergence = report.divergence;
            context.out(
              `replay of ${sessionId}: DIVERGES at #${divergence.sequence}: ${divergence.reason}`,
            );
            context.out(`  derived:  ${divergence.expected ?? '(nothing)'}`);
            context.out(`  recorded: ${divergence.actual ?? '(nothing)'}`);
          }
          if (!report.ok) context.fail(1);
        });
      },
    );
}
