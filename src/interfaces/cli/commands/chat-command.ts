import { Command } from 'commander';
import { UnknownSessionError } from '../../../core/kernel/index.js';
import type { RouterFacade, RouterInputMode } from '../../../core/router/router-facade.js';
import { describeSteeringDelivery } from '../../../core/router/steering-delivery.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import type { CommandContext } from '../cli-context.js';
import { withStore } from '../with-store.js';
import { visibleText } from '../../../core/base/visible-text.js';

const HELP = [
  'Type a question about the session, or:',
  '  /steer <note>   a steering note: recorded in the session, read by its next model call',
  '  /deliveries     which steering notes reached a model call, and when',
  '  /help           this list',
  '  /quit           leave (the session keeps running)',
].join('\n');

/** Shown before each line is read, on a terminal: where to type. */
const PROMPT = 'you> ';

/** One exchange with the router, printed as a person reads it. */
async function exchange(
  context: CommandContext,
  facade: RouterFacade,
  sessionId: string,
  input: string,
  mode: RouterInputMode,
  signal: AbortSignal,
): Promise<void> {
  const reply = await facade.onUserInput(sessionId, input, mode, signal);
  context.out(`router: ${reply.content}`);
  if (reply.citedSequences.length > 0)
    context.out(
      `        (cites ${reply.citedSequences.map((sequence) => `#${sequence}`).join(', ')})`,
    );
  if (reply.steeringNote !== null)
    context.out(
      `        steering note recorded as #${reply.steeringNote.sequence}; /deliveries shows when a model call reads it`,
    );
}

/**
 * `correx chat <id>`: a conversation with the router about a session, which may be running in
 * another process. Questions are answered from the session's recorded state; `/steer` (or
 * `--steer`) also records a steering note, the only thing the router may write.
 */
export function chatCommand(context: CommandContext): Command {
  return new Command('chat')
    .description('talk to the router about a session; steer it with /steer <note>')
    .argument('[session]', SESSION_ARGUMENT)
    .option('--ask <question>', 'ask one question and exit')
    .option('--steer <note>', 'send one steering note through the router and exit')
    .action(
      async (
        typed: string | undefined,
        options: { ask?: string; steer?: string },
        command: Command,
      ) => {
        await withStore(context, command, async ({ events }) => {
          const sessionId = await resolveSessionRef(events, typed, command);
          if ((await events.lastSequence(sessionId)) === 0)
            throw new UnknownSessionError(sessionId);
          const router = await context.createRouter(events);
          const abort = new AbortController();
          const stopListening = context.onInterrupt(() => abort.abort());
          try {
            if (options.ask !== undefined || options.steer !== undefined) {
              if (options.ask !== undefined)
                await exchange(
                  context,
                  router.facade,
                  sessionId,
                  options.ask,
                  'normal',
                  abort.signal,
                );
              if (options.steer !== undefined)
                await exchange(
                  context,
                  router.facade,
                  sessionId,
                  options.steer,
                  'steering',
                  abort.signal,
                );
              return;
            }
            context.out(HELP);
            const prompt = () => {
              if (context.terminal) context.status(PROMPT);
            };
            prompt();
            for await (const raw of context.lines(abort.signal)) {
              const line = raw.trim();
              if (abort.signal.aborted) break;
              if (line === '') {
                prompt();
                continue;
              }
              // A slash command is the CLI's own: answered here, never sent to the router model.
              if (line.startsWith('/')) {
                const [name = '', ...rest] = line.split(/\s+/);
                const argument = rest.join(' ');
                if (name === '/quit') break;
                if (name === '/help') context.out(HELP);
                else if (name === '/deliveries') {
                  const deliveries = await router.facade.deliveriesOf(sessionId);
                  if (deliveries.length === 0) context.out('no steering notes in this session');
                  for (const delivery of deliveries)
                    context.out(describeSteeringDelivery(delivery));
                } else if (name === '/steer' && argument !== '') {
                  await talk(argument, 'steering');
                } else if (name === '/steer') {
                  context.out('usage: /steer <note>');
                } else {
                  context.out(
                    `unknown command ${visibleText(name)}; /help lists the commands (nothing was sent to the router)`,
                  );
                }
                prompt();
                continue;
              }
              await talk(line, 'normal');
              prompt();
            }
            async function talk(input: string, mode: RouterInputMode): Promise<void> {
              try {
                await exchange(context, router.facade, sessionId, input, mode, abort.signal);
              } catch (error) {
                // One failed exchange (the model is down) does not end the conversation.
                context.err(`correx: ${(error as Error).message}`);
              }
            }
          } finally {
            if (context.terminal) context.status('');
            stopListening();
            await router.dispose();
          }
        });
      },
    );
}
