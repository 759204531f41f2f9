import { APPROVAL_TIMEOUT } from '../../config/kernel-flags.js';
import type { KernelFeature } from '../../decider/kernel-feature.js';
import { awaitEffect, emit } from '../../decider/step.js';
import { evolveApprovalWaits, NO_APPROVAL_WAITS, type ApprovalWaits } from './approval-waits.js';

/**
 * Approval timeout (flag `approval-timeout`): with the policy's `approvalTimeoutMs`, a tool
 * call's request for approval carries its deadline, counted from the last recorded time the
 * decision read; the call then waits for a person until that deadline, and once a runner
 * recorded that it passed (`approval_timed_out`, runner/approval-timeout.ts) the call is denied
 * by timeout, never approved.
 */
export const approvalTimeoutFeature: KernelFeature<'approvalTimeout', ApprovalWaits> = {
  name: 'approvalTimeout',
  flag: APPROVAL_TIMEOUT,
  events: ['approval_timed_out'],
  state: { initial: NO_APPROVAL_WAITS, evolve: evolveApprovalWaits },
  hooks: {
    approvalRequested: ({ config, lastTimestamp }, request) => {
      const timeoutMs = config.policy.policy.approvalTimeoutMs;
      if (timeoutMs === undefined || lastTimestamp === null) return request;
      return {
        ...request,
        deadline: new Date(Date.parse(lastTimestamp) + timeoutMs).toISOString(),
      };
    },
    awaitingApproval: ({ config, slice }, call) => {
      const wait = slice[call.callId];
      if (wait === undefined || wait.deadline === null) return null;
      if (wait.timedOut)
        return emit({
          type: 'approval_denied',
          callId: call.callId,
          by: { kind: 'timeout', id: 'approvalTimeoutMs' },
          reason: `nobody decided by ${wait.deadline} (the policy's approvalTimeoutMs is ${config.policy.policy.approvalTimeoutMs ?? '?'} ms), so it was denied`,
        });
      return awaitEffect({ type: 'await_approval', callId: call.callId, deadline: wait.deadline });
    },
  },
};
