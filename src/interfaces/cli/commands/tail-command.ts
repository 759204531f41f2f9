import { Command } from 'commander';
import { UnknownSessionError } from '../../../core/kernel/index.js';
import { sessionProjection } from '../../../core/sessions/session-projection.js';
import { isFinalStatus } from '../../../core/sessions/session-status.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import type { CommandContext } from '../cli-context.js';
import { createEventLines } from '../paired-event-lines.js';
import { formatEventJson } from '../event-json.js';
import { colourLine } from '../session-progress.js';
import { withStore } from '../with-store.js';
import { parseCount } from './events-command.js';

const POLL_MS = 250;
/** Events read per page; a full page means more are there already: read on without waiting. */
const PAGE = 500;

/**
 * `correx tail <id>`: follows a session that runs in another process (or the server), printing
 * each event as it is appended, until the session finishes or Ctrl-C. Reads only; a reader never
 * disturbs the writer.
 */
export function tailCommand(context: CommandContext): Command {
  return new Command('tail')
    .description('follow a live session from another terminal until it finishes (Ctrl-C stops)')
    .argument('[session]', SESSION_ARGUMENT)
    .option('--from <sequence>', 'start at this sequence (default 1)', parseCount)
    .option('--json', 'print NDJSON, one canonical envelope per line')
    .action(
      async (
        typed: string | undefined,
        options: { from?: number; json?: boolean },
        command: Command,
      ) => {
        await withStore(context, command, async ({ events }) => {
          const sessionId = await resolveSessionRef(events, typed, command);
          const stop = new AbortController();
          const stopListening = context.onInterrupt(() => stop.abort());
          try {
            if ((await events.lastSequence(sessionId)) === 0)
              throw new UnknownSessionError(sessionId);
            let state = sessionProjection.initial();
            let after = 0;
            const view = createEventLines();
            const from = options.from ?? 0;
            while (!stop.signal.aborted) {
              const page = await events.read(sessionId, { afterSequence: after, limit: PAGE });
              for (const event of page) {
                state = sessionProjection.evolve(state, event);
                after = event.sequence;
                if (event.sequence < from) {
                  // Still seen, so a call proposed before --from pairs with what comes after.
                  view.lines(event);
                  continue;
                }
                if (options.json) {
                  context.out(formatEventJson(event));
                } else {
                  view
                    .lines(event)
                    .forEach((line, index) =>
                      context.out(
                        `${index === 0 ? String(event.sequence).padStart(5) : '     '}  ${colourLine(line, context.terminal)}`,
                      ),
                    );
                }
              }
              // Catching up on a long log: the next page is there, no reason to wait for it.
              if (page.length === PAGE) continue;
              if (isFinalStatus(state.status) && (await events.lastSequence(sessionId)) === after)
                break;
              await new Promise((done) => setTimeout(done, POLL_MS));
            }
            if (!options.json) context.out(`session ${sessionId} ${state.status} (#${after})`);
          } finally {
            stopListening();
          }
        });
      },
    );
}
