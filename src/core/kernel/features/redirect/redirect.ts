import type { CorrexEvent } from '../../../event-catalog.js';
import { edgeName } from '../../../transitions/workflow-definition.js';
import type { KernelConfig } from '../../config/kernel-config.js';
import { runOf, type KernelState, type PendingRedirect } from '../../decider/kernel-state.js';

type Payload = CorrexEvent['payload'];

/** Whether the workflow lets the running stage move to `to` now, and along which edge. */
export type RedirectCheck =
  | {
      readonly ok: true;
      readonly from: string;
      readonly attempt: number;
      readonly edge: string;
      readonly traversal: number;
    }
  | { readonly ok: false; readonly from: string | null; readonly message: string };

/**
 * A redirect may only take a transition the workflow declares from the running stage (any
 * condition), and only while that edge's `maxTraversals` is not spent: a person can steer the
 * session along its graph, never outside it, and the graph's bounds still guarantee it ends.
 */
export function checkRedirect(config: KernelConfig, state: KernelState, to: string): RedirectCheck {
  const run = runOf(state);
  if (state.session.status !== 'running' || run === null)
    return {
      ok: false,
      from: null,
      message: 'no stage is running, so there is nothing to redirect',
    };
  const from = run.stageId;
  const stage = config.workflow.stages.get(from);
  const targets = (stage?.transitions ?? []).flatMap((t) => (t.to === undefined ? [] : [t.to]));
  if (!config.workflow.stages.has(to))
    return { ok: false, from, message: `workflow ${config.workflow.id} has no stage ${to}` };
  const open = (stage?.transitions ?? []).find(
    (t) =>
      t.to === to &&
      (t.maxTraversals === undefined ||
        (state.session.cycles[edgeName(from, t)] ?? 0) < t.maxTraversals),
  );
  if (open === undefined) {
    const legal = [...new Set(targets)].join(', ') || 'no stage';
    return {
      ok: false,
      from,
      message: targets.includes(to)
        ? `the transitions from ${from} to ${to} have used all their traversals`
        : `stage ${from} has no transition to ${to}; it may go to: ${legal}`,
    };
  }
  const edge = edgeName(from, open);
  return {
    ok: true,
    from,
    attempt: run.attempt,
    edge,
    traversal: (state.session.cycles[edge] ?? 0) + 1,
  };
}

/**
 * The events a recorded redirect leads to: a refusal, or the end of the running attempt (its
 * pending approvals denied, so no one is left asked about a stage that is gone), then the
 * transition to the target, whose first attempt starts next.
 */
export function decideRedirect(
  config: KernelConfig,
  state: KernelState,
  redirect: PendingRedirect,
): Payload[] {
  const checked = checkRedirect(config, state, redirect.to);
  const why = redirect.reason === undefined ? {} : { reason: redirect.reason };
  if (!checked.ok) {
    return [
      {
        type: 'redirect_rejected',
        from: checked.from,
        to: redirect.to,
        by: redirect.by,
        message: checked.message,
      },
    ];
  }
  return [
    ...state.session.pendingApprovals.map((pending): Payload => ({
      type: 'approval_denied',
      callId: pending.callId,
      by: { kind: 'auto', id: 'redirect' },
      reason: `the session was redirected to ${redirect.to} by ${redirect.by}`,
    })),
    {
      type: 'stage_redirected',
      from: checked.from,
      to: redirect.to,
      attempt: checked.attempt,
      by: redirect.by,
      ...why,
    },
    {
      type: 'transition_taken',
      from: checked.from,
      to: redirect.to,
      condition: 'redirect',
      edge: checked.edge,
      traversal: checked.traversal,
      attempt: 1,
    },
  ];
}
