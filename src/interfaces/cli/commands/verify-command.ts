import { Command } from 'commander';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import type { CommandContext } from '../cli-context.js';
import { formatJson } from '../format.js';
import { withStore } from '../with-store.js';

export function verifyCommand(context: CommandContext): Command {
  return new Command('verify')
    .description("recompute a session's hash chain; exits 1 at the first broken link")
    .argument('[session]', SESSION_ARGUMENT)
    .option('--json', 'print JSON')
    .action(async (typed: string | undefined, options: { json?: boolean }, command: Command) => {
      await withStore(context, command, async ({ events }) => {
        const sessionId = await resolveSessionRef(events, typed, command);
        const result = await events.verify(sessionId);
        if (options.json) context.out(formatJson(result));
        else if (result.ok)
          context.out(`ok: ${result.lastSequence} events, head ${result.headHash}`);
        else context.out(`BROKEN at sequence ${result.sequence}: ${result.detail}`);
        if (!result.ok) context.fail(1);
      });
    });
}
