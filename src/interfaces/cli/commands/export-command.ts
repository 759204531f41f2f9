import { Command } from 'commander';
import type { CorrexEvent, CorrexEventStore } from '../../../core/event-catalog.js';
import type { CommandContext } from '../cli-context.js';
import { withStore } from '../with-store.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import { UnknownSessionError } from '../../../core/kernel/index.js';

/** A session's events and, recursively, those of the sub-sessions its stages started. */
async function sessionTree(
  store: CorrexEventStore,
  sessionId: string,
): Promise<Map<string, readonly CorrexEvent[]>> {
  const tree = new Map<string, readonly CorrexEvent[]>();
  const pending = [sessionId];
  while (pending.length > 0) {
    const id = pending.pop()!;
    if (tree.has(id)) continue;
    const events = await store.read(id);
    tree.set(id, events);
    for (const event of events)
      if (event.payload.type === 'subagent_started') pending.push(event.payload.childSessionId);
  }
  return tree;
}

/** `correx export otel <id>`: a trace for any recorded session, with its recorded times. */
export function exportCommand(context: CommandContext): Command {
  const otel = new Command('otel')
    .description(
      "send a recorded session's trace (stages, model and tool calls, approvals) over OTLP/HTTP, with the times it recorded",
    )
    .argument('[session]', SESSION_ARGUMENT)
    .option(
      '--endpoint <url>',
      'the OTLP/HTTP base URL (default: OTEL_EXPORTER_OTLP_ENDPOINT, else http://localhost:4318)',
    )
    .action(async (typed: string | undefined, options: { endpoint?: string }, command: Command) => {
      await withStore(context, command, async ({ events }) => {
        const sessionId = await resolveSessionRef(events, typed, command);
        const tree = await sessionTree(events, sessionId);
        if ((tree.get(sessionId) ?? []).length === 0) throw new UnknownSessionError(sessionId);
        const { spans } = await context.exportTrace(
          sessionId,
          tree,
          options.endpoint === undefined ? {} : { endpoint: options.endpoint },
        );
        context.out(`sent ${spans} spans of session ${sessionId}`);
      });
    });
  return new Command('export')
    .description('send recorded sessions to other systems')
    .addCommand(otel);
}
