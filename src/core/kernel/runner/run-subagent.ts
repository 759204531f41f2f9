import type { CorrexEvent } from '../../event-catalog.js';
import { replay } from '../../events/replay.js';
import { isFinalStatus } from '../../sessions/session-status.js';
import type { Effect } from '../decider/effect.js';
import { childKernelConfig } from '../config/kernel-config.js';
import type { KernelCommand } from '../decider/kernel-input.js';
import { kernelProjection, type KernelState } from '../decider/kernel-state.js';
import type {
  RunOutcome,
  RunSessionOptions,
  SessionRun,
  StartSession,
} from './run-session-types.js';

type Payload = CorrexEvent['payload'];
type FinishedArtifact = NonNullable<Extract<Payload, { type: 'subagent_finished' }>['artifact']>;

/** What driving a sub-session gave: its recorded end, or why it stopped without one. */
export type SubagentRunResult = {
  /** `subagent_finished` once the child ended; empty while it is still open. */
  readonly results: Payload[];
  /** Why the child stopped while open (approval, pause, this runner's stop); null once it ended. */
  readonly waiting: RunOutcome['waiting'];
};

/**
 * Performs `run_subagent`: drives the stage's sub-session in this process, on the same store
 * and ports, under the parent's configuration with the sub-workflow (the child records its own
 * `session_configured`). A child with no events is started (`start` with `parent`, its first
 * events correlated to `subagent_started`); an existing one is re-attached (a paused child is
 * resumed), so a crash or a stop mid-child never starts a second one; an ended one is only read.
 * `attach` hands the running child to the parent's runner, which forwards cancel, pause and
 * redirect to it; aborting `signal` stops the child's runner without recording anything.
 */
export async function runSubagent(
  options: RunSessionOptions,
  parent: KernelState,
  effect: Extract<Effect, { type: 'run_subagent' }>,
  signal: AbortSignal,
  attach: (child: SessionRun | null) => void,
  start: StartSession,
): Promise<SubagentRunResult> {
  const childId = effect.childSessionId;
  const config = childKernelConfig(options.config, effect.workflowId);
  const existing = await replay(options.store, kernelProjection, childId);
  let state = existing.state;
  if (existing.sequence === 0 || !isFinalStatus(state.session.status)) {
    const command: KernelCommand | undefined =
      existing.sequence === 0
        ? {
            type: 'start',
            task: effect.task,
            workspace: parent.session.workspace ?? '/',
            workflowId: effect.workflowId,
            mode: parent.mode,
            parent: {
              sessionId: options.sessionId,
              stageId: effect.stageId,
              attempt: effect.attempt,
              eventId: effect.startedEventId,
            },
          }
        : state.session.status === 'paused'
          ? { type: 'resume', by: `session ${options.sessionId}` }
          : undefined;
    const stop = new AbortController();
    const onAbort = () => stop.abort(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    // The child's events reach the same listener (a terminal shows the child's progress too) and
    // the same observer, whose signals name the child's session (its metrics fold per session).
    const { signal: _signal, ...shared } = options;
    const run = start({ ...shared, sessionId: childId, config, signal: stop.signal }, command);
    attach(run);
    try {
      const outcome = await run.done;
      state = outcome.state;
      if (!isFinalStatus(outcome.status)) {
        const waiting = outcome.waiting;
        return {
          results: [],
          waiting:
            waiting === null || waiting.kind === 'stopped'
              ? waiting
              : { ...waiting, sessionId: waiting.sessionId ?? childId },
        };
      }
    } finally {
      attach(null);
      signal.removeEventListener('abort', onAbort);
    }
  }
  return { results: [finished(childId, state)], waiting: null };
}

/** The `subagent_finished` an ended child's state gives. */
function finished(childSessionId: string, child: KernelState): Payload {
  const status = child.session.status;
  if (status === 'completed') {
    const artifact = child.accepted.at(-1);
    return {
      type: 'subagent_finished',
      childSessionId,
      status,
      ...(artifact === undefined
        ? {}
        : {
            artifact: {
              hash: artifact.hash,
              kind: artifact.kind,
              stageId: artifact.stageId,
              // The recorded JSON, read-only in the state: the same value, typed for the payload.
              content: artifact.content as FinishedArtifact['content'],
            },
          }),
    };
  }
  const failure = child.session.failure;
  return {
    type: 'subagent_finished',
    childSessionId,
    status: status === 'cancelled' ? 'cancelled' : 'failed',
    ...(failure === null
      ? {}
      : {
          failure: {
            category: failure.category,
            message: `sub-session ${childSessionId} failed: ${failure.message}`,
          },
        }),
  };
}
