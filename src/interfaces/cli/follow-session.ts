import { ALWAYS_ALLOW_REASON, recordGrant } from '../record-grant.js';
import type { CorrexEventStore } from '../../core/event-catalog.js';
import type { RunOutcome } from '../../core/kernel/index.js';
import type { HostedRun, SessionHost } from '../session-host.js';
import type { CommandContext } from './cli-context.js';
import { checkReportLines } from './check-report.js';
import { describePendingCall } from './pending-call.js';
import { askApproval } from './approval-prompt.js';
import { describeGrantScope } from '../always-allow-scope.js';
import { visibleText } from '../../core/base/visible-text.js';
import type { GrantScope } from '../../core/approvals/approval-events.js';
import { EXIT_CODES } from './exit-codes.js';

const POLL_MS = 250;

/** How a run without a person at its terminal waits for an approval (`--wait-for-approval`). */
export type ApprovalWait = {
  /** How long one call may wait for a decision before the run stops with the session open. */
  readonly timeoutMs?: number;
  /** Told when a call starts waiting (in `sessionId`, a sub-session's maybe), and until when. */
  readonly onWaiting?: (wait: {
    readonly sessionId: string;
    readonly callId: string;
    readonly until: number | null;
    /** Nobody can decide here and no wait was asked for: the run stops now (exit 4). */
    readonly unattended?: boolean;
  }) => Promise<void> | void;
  /**
   * No terminal to ask on and no `--wait-for-approval`: a call that needs a person stops the
   * run at once with the session open (exit 4), said on stderr, instead of waiting silently.
   */
  readonly unattended?: boolean;
};

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
  /** Where the store is: the driver lock is held there while an approval is asked. */
  location?: string,
  approvalWait: ApprovalWait = {},
): Promise<number> {
  const sessionId = first.sessionId;
  let interrupts = 0;
  /** The pause or cancel a Ctrl-C asked for, once it is in the log. */
  let recorded: Promise<void> = Promise.resolve();
  /** Whether a Ctrl-C here cancelled the session (it may land after the run stopped, paused). */
  let cancelled = false;
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
        (events) => {
          if (events.some((event) => event.payload.type === 'workflow_cancelled')) cancelled = true;
        },
        (error: unknown) => context.err(`correx: ${(error as Error).message}`),
      );
    waiting.abort();
  });
  try {
    let run = first;
    for (;;) {
      const outcome = await run.done;
      if (outcome.waiting?.kind !== 'approval' || interrupts > 0) {
        // A Ctrl-C still being recorded comes first: a cancel that lands once a pause took
        // effect ends the session, and the report says so (not "paused").
        for (let pending; pending !== recorded;) await (pending = recorded);
        const final =
          cancelled && outcome.status !== 'cancelled'
            ? { ...outcome, status: 'cancelled' as const }
            : outcome;
        if (final.status === 'completed' || final.status === 'failed')
          for (const line of checkReportLines(await store.read(sessionId))) context.out(line);
        return await report(context, store, sessionId, final);
      }
      // The run stopped to wait; this process still attends the session, so others see it
      // driven, and the lock is free again before it resumes here.
      const attending =
        location === undefined ? undefined : await context.attendSession?.(location, sessionId);
      let decided: boolean;
      try {
        decided = await awaitDecision(
          context,
          host,
          store,
          sessionId,
          outcome,
          waiting.signal,
          approvalWait,
        );
        await recorded;
      } finally {
        await attending?.release();
      }
      if (!decided && interrupts === 0) return EXIT_CODES.waitingForPerson;
      run = await host.resume(sessionId);
    }
  } finally {
    stopListening();
  }
}

/** What the session's end means for the person and the exit code. */
async function report(
  context: CommandContext,
  store: CorrexEventStore,
  id: string,
  outcome: RunOutcome,
): Promise<number> {
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
    case 'failed': {
      const failure = outcome.state.session.failure;
      // A provider that can never serve the stage is a setup problem: say what to change.
      if (failure?.category === 'configuration') {
        context.err(`correx: model configuration: ${await configurationMessage(store, id)}`);
        context.out(`session ${id} failed; see: correx show ${id}`);
        return 2;
      }
      context.out(`session ${id} failed; see: correx show ${id}`);
      return 1;
    }
    case 'cancelled':
      context.out(`session ${id} ${outcome.status}; see: correx show ${id}`);
      return 1;
    default:
      context.out(`session ${id} is ${outcome.status}; continue with: correx resume ${id}`);
      return 0;
  }
}

/** The provider's own refusal (the last `inference_failed` of category `configuration`). */
async function configurationMessage(store: CorrexEventStore, id: string): Promise<string> {
  const events = await store.read(id);
  for (const event of events.reverse()) {
    const payload = event.payload;
    if (payload.type === 'inference_failed' && payload.category === 'configuration')
      return payload.message;
  }
  return 'the model provider cannot serve this session';
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
  approvalWait: ApprovalWait,
): Promise<boolean> {
  const waitingFor = outcome.waiting?.kind === 'approval' ? outcome.waiting : undefined;
  const callId = waitingFor?.callId ?? '';
  // A stage that delegated to a sub-session waits on the child's approval: it is decided there.
  const target = waitingFor?.sessionId ?? sessionId;
  const seen = await store.lastSequence(target);
  const done = new AbortController();
  const stop = () => done.abort();
  interrupted.addEventListener('abort', stop, { once: true });
  context.out(
    `approval needed for ${visibleText(callId)}${target === sessionId ? '' : ` in sub-session ${target}`}:`,
  );
  const view = await describePendingCall(store, target, callId, host.driverTakes?.bind(host));
  for (const line of view.lines) context.out(line);
  context.out(
    `  answer here, or elsewhere: correx approve ${target} ${callId}  |  correx deny ${target} ${callId} --reason ...`,
  );
  if (approvalWait.unattended === true && context.ask === undefined) {
    await approvalWait.onWaiting?.({ sessionId: target, callId, until: null, unattended: true });
    done.abort();
    interrupted.removeEventListener('abort', stop);
    return false;
  }
  const until = approvalWait.timeoutMs === undefined ? null : Date.now() + approvalWait.timeoutMs;
  await approvalWait.onWaiting?.({ sessionId: target, callId, until });
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((settle) => {
    if (until !== null) timer = setTimeout(() => settle(false), until - Date.now());
  });
  // The policy's approval timeout: at the recorded deadline the wait ends here and the session
  // is driven again, which records `approval_timed_out` and denies the call. This process holds
  // the session while it waits, so nobody else could.
  const deadline = waitingFor?.deadline === undefined ? null : Date.parse(waitingFor.deadline);
  const pastDeadline =
    deadline === null ? new Promise<never>(() => {}) : reached(deadline, done.signal);
  try {
    const elsewhere = changed(store, target, seen, done.signal);
    // An answer given elsewhere aborts the question; that rejection is expected.
    const here =
      context.ask === undefined
        ? new Promise<never>(() => {})
        : askHere().catch((error: unknown) => {
            if (!done.signal.aborted) throw error;
          });
    return await Promise.race([
      elsewhere.then(() => true),
      here.then(() => true),
      pastDeadline.then(() => true),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
    done.abort();
    interrupted.removeEventListener('abort', stop);
  }

  async function askHere(): Promise<void> {
    const always = view.alwaysAllow;
    const answer = await askApproval(
      context.ask!,
      context.out,
      {
        callId: visibleText(callId),
        always: always === null ? null : visibleText(describeGrantScope(always)),
      },
      done.signal,
    );
    switch (answer.kind) {
      case 'approve':
        await host.command(target, { type: 'approve', callId, by: context.user });
        return;
      case 'deny':
        await host.command(target, {
          type: 'deny',
          callId,
          by: context.user,
          reason: answer.reason,
        });
        return;
      case 'always': {
        const grantId = await recordAlwaysAllow(context, store, target, always!);
        await host.command(target, {
          type: 'approve',
          callId,
          by: context.user,
          reason: `always allowed: ${grantId}`,
        });
        context.out(
          `  added ${grantId}: ${visibleText(describeGrantScope(always!))} (revoke: correx revoke ${target} ${grantId})`,
        );
        return;
      }
      case 'withdrawn':
        context.out(
          `  not decided here; the call still waits: correx approve ${target} ${callId}  |  correx deny ${target} ${callId} --reason ...`,
        );
        // Only an answer from elsewhere (or Ctrl-C) ends the wait now.
        return new Promise<never>(() => {});
    }
  }
}

/** Records the exact grant "always allow" stands for, as `correx grant` would; returns its id. */
async function recordAlwaysAllow(
  context: CommandContext,
  store: CorrexEventStore,
  sessionId: string,
  scope: GrantScope,
): Promise<string> {
  const { grantId } = await recordGrant(context, store, sessionId, {
    scope,
    stageId: null,
    expiresAt: null,
    by: context.user,
    reason: ALWAYS_ALLOW_REASON,
  });
  return grantId;
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

/**
 * Resolves once this machine's clock reads `instant` or later (the runner compares the deadline
 * with the same clock, so it then records the timeout), or never once `signal` aborts.
 */
async function reached(instant: number, signal: AbortSignal): Promise<void> {
  while (Date.now() < instant) {
    if (signal.aborted) return new Promise<never>(() => {});
    await new Promise<void>((done) => {
      const timer = setTimeout(done, Math.min(instant - Date.now() + 1, 60_000));
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          done();
        },
        { once: true },
      );
    });
  }
}
