import type { CorrexEventStore } from '../../core/event-catalog.js';
import { sessionProjection } from '../../core/sessions/session-projection.js';
import type { SessionStatus } from '../../core/sessions/session-status.js';
import { nodeSha256 } from '../../infrastructure/system/node-sha256.js';
import { storedText } from '../cli/headless-run.js';
import { readSessionLogs, runSummary, type WaitingFor } from '../cli/run-summary.js';
import type { SessionHost } from '../session-host.js';
import { knownSession } from './tool-result.js';

/** Where a session stands, as the `session_status` tool answers. */
export type SessionStatusView = {
  readonly sessionId: string;
  /** The session's status in its log: running, paused, completed, failed, cancelled. */
  readonly phase: SessionStatus;
  /** The stage it runs (or will run next, or ran last); null before the first. */
  readonly stage: string | null;
  /**
   * What it waits for a person to do (an approval, a raised budget, a resume), as
   * `correx show --summary --json` names it; null while it runs on its own or once finished.
   */
  readonly waitingFor: WaitingFor | null;
  readonly needsPerson: boolean;
  /**
   * Whether a live process drives the session now (holds its driver lock: runs it, or attends
   * it while it waits for a person); null when the store cannot tell.
   */
  readonly driven: boolean | null;
  /** The process that does, when known (this MCP server's, or another's). */
  readonly drivenBy: { readonly pid: number; readonly host: string } | null;
  readonly lastSequence: number;
};

/**
 * A session's status from its logs (the same summary `correx show --summary` reads) and who
 * drives it. The read model behind the `session_status` tool.
 */
export async function readSessionStatus(
  deps: {
    readonly store: CorrexEventStore;
    readonly host: Pick<SessionHost, 'running'>;
    readonly correxHome: string;
    readonly sessionDriver?: (
      sessionId: string,
    ) => Promise<{ readonly pid: number; readonly host: string } | null | undefined>;
  },
  sessionId: string,
): Promise<SessionStatusView> {
  await knownSession(deps.store, sessionId);
  const logs = await readSessionLogs(deps.store, sessionId);
  const summary = runSummary(sessionId, logs, storedText(deps.correxHome), nodeSha256);
  let state = sessionProjection.initial();
  for (const event of logs.get(sessionId) ?? []) state = sessionProjection.evolve(state, event);
  const finished = ['completed', 'failed', 'cancelled'].includes(summary.status);
  const driver = finished ? null : await deps.sessionDriver?.(sessionId);
  const driven = finished
    ? false
    : driver === undefined
      ? deps.host.running().includes(sessionId) || null
      : driver !== null;
  // A running session someone drives waits for nobody; one nobody drives waits for a resume.
  const waitingFor =
    summary.waitingFor?.kind === 'resume' && summary.status === 'running' && driven !== false
      ? null
      : summary.waitingFor;
  return {
    sessionId,
    phase: summary.status,
    stage: state.activeStage?.stageId ?? state.nextStage?.stageId ?? state.lastStageId,
    waitingFor,
    needsPerson: waitingFor !== null,
    driven,
    drivenBy: driver ?? null,
    lastSequence: summary.lastSequence,
  };
}
