import type { CorrexEventStore } from '../../core/event-catalog.js';
import type { RunOutcome } from '../../core/kernel/run-session.js';
import type { HostedRun, SessionHost } from '../session-host.js';
import type { CommandContext } from './cli-context.js';
import { describePendingCall } from './pending-call.js';

const POLL_MS = 250;

/**
 * Stays with a session this process drives until it finishes or pauses: asks for approvals on
 * the terminal (and takes a decision made in another process, whichever comes first), turns the
 * first Ctrl-C into a pause and the second into a cancel. Returns the exit code.
 */
export async function followSession(
  context: CommandContext,
  host: SessionHost,
  store: CorrexEventStore,
  first: HostedRun,
): Promise<number> {
  const sessionId = first.sessionId;
  let interrupts = 0;
  /** The pause or cancel a Ctrl-C asked for, once it is in the log. */
  let recorded: Promise<void> = Promise.resolve();
  const waiting = new AbortController();
  const stopListening = context.onInterrupt(() => {
    interrupts += 1;
    const type = interrupts === 1 ? 'pause' : 'cancel';
    context.err(
      interrupts === 1
        ? 'correx: pausing after the current step (Ctrl-C again cancels the session)'
        : 'correx: cancelling the session',
    );
    recorded = host
      .command(sessionId, { type, by: context.user, reason: 'Ctrl-C at the terminal' })
      .then(
        () => undefined,
        (error: unknown) => context.err(`correx: ${(error as Error).message}`),
      );
    waiting.abort();
  });
  try {
    let run = first;
    for (;;) {
      const outcome = await run.done;
      if (outcome.waiting?.kind !== 'approval' || interrupts > 0)
        return report(context, sessionId, outcome);
      await awaitDecision(context, host, store, sessionId, outcome, waiting.signal);
      await recorded;
      run = await host.resume(sessionId);
    }
  } finally {
    stopListening();
  }
}

/** What the session's end means for the person and the exit code. */
function report(context: CommandContext, id: string, outcome: RunOutcome): number {
  switch (outcome.status) {
    case 'completed':
      context.out(`session ${id} completed`);
      return 0;
    case 'paused':
      context.out(`session ${id} paused; continue with: correx resume ${id}`);
      return 0;
    case 'running':
      if (outcome.waiting?.kind === 'budget') {
        const flag = {
          tokens: '--max-tokens N',
          cost: '--max-cost USD',
          duration: '--max-duration 1h',
        }[outcome.waiting.budget];
        context.out(
          `session ${id} stopped at its ${outcome.waiting.budget} budget (${outcome.waiting.limit}); raise it to go on: correx resume ${id} ${flag}`,
        );
        return 0;
      }
      context.out(`session ${id} is ${outcome.status}; continue with: correx resume ${id}`);
      return 0;
    case 'failed':
    case 'cancelled':
      context.out(`session ${id} ${outcome.status}; see: correx show ${id}`);
      return 1;
    default:
      context.out(`session ${id} is ${outcome.status}; continue with: correx resume ${id}`);
      return 0;
  }
}

/**
 * Waits until the pending approval is decided: here on the terminal when there is one, or by
 * anyone else (`correx approve` in another terminal, the web page), seen as a new event.
 */
async function awaitDecision(
  context: CommandContext,
  host: SessionHost,
  store: CorrexEventStore,
  sessionId: string,
  outcome: RunOutcome,
  interrupted: AbortSignal,
): Promise<void> {
  const waitingFor = outcome.waiting?.kind === 'approval' ? outcome.waiting : undefined;
  const callId = waitingFor?.callId ?? '';
  // A stage that delegated to a sub-session waits on the child's approval: it is decided there.
  const target = waitingFor?.sessionId ?? sessionId;
  const seen = await store.lastSequence(target);
  const done = new AbortController();
  const stop = () => done.abort();
  interrupted.addEventListener('abort', stop, { once: true });
  context.out(
    `approval needed for ${callId}${target === sessionId ? '' : ` in sub-session ${target}`}:`,
  );
  for (const line of await describePendingCall(store, target, callId)) context.out(line);
  context.out(
    `  answer here, or elsewhere: correx approve ${target} ${callId}  |  correx deny ${target} ${callId} --reason ...`,
  );
  try {
    const elsewhere = changed(store, target, seen, done.signal);
    // An answer given elsewhere aborts the question; that rejection is expected.
    const here =
      context.ask === undefined
        ? new Promise<never>(() => {})
        : askHere().catch((error: unknown) => {
            if (!done.signal.aborted) throw error;
          });
    await Promise.race([elsewhere, here]);
  } finally {
    done.abort();
    interrupted.removeEventListener('abort', stop);
  }

  async function askHere(): Promise<void> {
    const answer = (
      await context.ask!(`approve ${callId}? [y]es / [n]o (then a reason): `, done.signal)
    ).trim();
    if (/^y(es)?$/i.test(answer)) {
      await host.command(target, { type: 'approve', callId, by: context.user });
      return;
    }
    const reason = /^n(o)?$/i.test(answer)
      ? (await context.ask!('reason (the model is told): ', done.signal)).trim() || 'denied'
      : answer.replace(/^n(o)?\s+/i, '') || 'denied';
    await host.command(target, { type: 'deny', callId, by: context.user, reason });
  }
}

/** Resolves once the session has an event after `after` (or on abort). */
async function changed(
  store: CorrexEventStore,
  sessionId: string,
  after: number,
  signal: AbortSignal,
): Promise<void> {
  while (!signal.aborted) {
    if ((await store.lastSequence(sessionId)) > after) return;
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}
