import { CorrexError } from '../../base/correx-error.js';
import { visibleText } from '../../base/visible-text.js';
import type { PayloadShape, StoredEvent } from '../../events/event-envelope.js';
import { canonicallyEqual } from '../../events/canonical-equal.js';
import { parseWorkspacePolicy } from '../../policies/workspace-policy.js';

/** The call a person named is not a call of the session. */
export class UnknownCallError extends CorrexError {
  constructor(sessionId: string, callId: string) {
    super('call_not_found', `session ${sessionId} has no tool call ${callId}`);
  }
}

/** The end of a call id the person typed fits more than one call. */
export class AmbiguousCallError extends CorrexError {
  constructor(sessionId: string, typed: string, candidates: readonly string[]) {
    super(
      'usage',
      `${typed} is the end of ${candidates.length} calls of session ${sessionId} (${candidates.slice(0, 5).join(', ')}${candidates.length > 5 ? ', …' : ''}); type more of the id`,
    );
  }
}

type Approver = { readonly kind: string; readonly id: string };

/**
 * Everything the log says decided one tool call's outcome, in the order it applied: the
 * sandbox it would run under, the rules that fired, the policy they came from, a grant, the
 * operator mode, the approval or denial, and whether the call ran.
 */
export type CallExplanation = {
  readonly sessionId: string;
  readonly callId: string;
  readonly tool: string;
  readonly stageId: string | null;
  /** The receipt's profile when the call ran confined; else the session's recorded sandbox. */
  readonly sandbox: {
    readonly kind: string;
    readonly from: 'receipt' | 'configuration' | 'not recorded';
    readonly reason: string | null;
  };
  /** Null when the call was refused before assessment. */
  readonly assessment: {
    readonly verdict: string;
    readonly tier: string;
    readonly risk: string;
    readonly findings: readonly {
      readonly ruleId: string;
      readonly severity: string;
      readonly code: string;
      readonly message: string;
    }[];
  } | null;
  /**
   * `default` when the recorded policy is this release's default; `operator` when it departs
   * from it (the operator's policy file or overlay, or an older release's default), naming the
   * fields that differ. The log does not record which file a policy came from.
   */
  readonly policy: {
    readonly source: 'default' | 'operator' | 'not recorded';
    readonly differsIn: readonly string[];
  };
  readonly grant: {
    readonly grantId: string;
    readonly scope: unknown;
    readonly by: string;
    readonly reason: string;
  } | null;
  readonly mode: string | null;
  readonly approvalRequested: { readonly tier: string; readonly reason: string } | null;
  /** The mode skipped a check `auto` would have asked a person about. */
  readonly bypassed: boolean;
  readonly decision: {
    readonly outcome: 'approved' | 'denied' | 'rejected' | 'pending';
    readonly by: Approver | null;
    readonly reason: string | null;
  };
  readonly ran: {
    readonly outcome: string;
    readonly exitCode: number | null;
    readonly error: string | null;
  } | null;
};

type Payload = PayloadShape & Record<string, unknown>;

/** Explains one recorded call from the session's events alone. Pure. */
export function explainCall(
  events: readonly StoredEvent<PayloadShape>[],
  callId: string,
): CallExplanation {
  const sessionId = events[0]?.sessionId ?? '';
  const payloads = events.map((event) => event.payload as Payload);
  const ofCall = (type: string) =>
    payloads.filter((payload) => payload.type === type && payload.callId === callId);
  const first = (type: string) => payloads.find((payload) => payload.type === type);

  const proposed = payloads.find(
    (payload) => payload.type === 'tool_call_proposed' && payload.callId === callId,
  );
  if (proposed === undefined) {
    // `correx show` lists a call by its stage and `[turn.index]`: a unique end of an id will do.
    const typed = callId.replace(/^\[(.*)\]$/, '$1');
    const matches = payloads
      .filter((payload) => payload.type === 'tool_call_proposed')
      .map((payload) => payload.callId as string)
      .filter((id) => id.endsWith(`.${typed}`));
    const unique = [...new Set(matches)];
    if (unique.length === 1) return explainCall(events, unique[0]!);
    if (unique.length > 1) throw new AmbiguousCallError(sessionId, callId, unique);
    throw new UnknownCallError(sessionId, callId);
  }
  const configuration = first('session_configured')?.configuration as
    { policy?: unknown; sandbox?: string } | undefined;
  const created = first('session_created');
  const assessed = ofCall('tool_call_assessed').at(-1);
  const rejected = ofCall('tool_call_rejected').at(-1);
  const granted = ofCall('approval_granted').at(-1);
  const denied = ofCall('approval_denied').at(-1);
  const requested = ofCall('approval_requested').at(-1);
  const receipt = ofCall('tool_receipt').at(-1);
  const receiptSandbox = receipt?.sandbox as { kind: string; reason: string | null } | undefined;

  const grantBy = granted?.by as Approver | undefined;
  const grantAdded =
    grantBy?.kind === 'grant'
      ? payloads.find(
          (payload) => payload.type === 'approval_grant_added' && payload.grantId === grantBy.id,
        )
      : undefined;

  let decision: CallExplanation['decision'];
  if (rejected !== undefined)
    decision = { outcome: 'rejected', by: null, reason: `${rejected.reason}: ${rejected.message}` };
  else if (denied !== undefined)
    decision = { outcome: 'denied', by: denied.by as Approver, reason: denied.reason as string };
  else if (granted !== undefined)
    decision = {
      outcome: 'approved',
      by: granted.by as Approver,
      reason: (granted.reason as string | undefined) ?? null,
    };
  else if (receipt !== undefined) decision = { outcome: 'approved', by: null, reason: null };
  else decision = { outcome: 'pending', by: null, reason: null };

  return {
    sessionId,
    callId,
    tool: proposed.tool as string,
    stageId: (proposed.stageId as string | undefined) ?? null,
    sandbox:
      receiptSandbox !== undefined
        ? { kind: receiptSandbox.kind, from: 'receipt', reason: receiptSandbox.reason }
        : configuration?.sandbox !== undefined
          ? { kind: configuration.sandbox, from: 'configuration', reason: null }
          : { kind: 'not stated', from: 'not recorded', reason: null },
    assessment:
      assessed === undefined
        ? null
        : {
            verdict: assessed.verdict as string,
            tier: assessed.tier as string,
            risk: assessed.risk as string,
            findings: (assessed.findings as Record<string, string>[]).map((finding) => ({
              ruleId: finding.ruleId!,
              severity: finding.severity!,
              code: finding.code!,
              message: finding.message!,
            })),
          },
    policy: policySource(configuration?.policy),
    grant:
      grantAdded === undefined
        ? null
        : {
            grantId: grantAdded.grantId as string,
            scope: grantAdded.scope,
            by: grantAdded.by as string,
            reason: grantAdded.reason as string,
          },
    mode: (created?.mode as string | undefined) ?? null,
    approvalRequested:
      requested === undefined
        ? null
        : { tier: requested.tier as string, reason: requested.reason as string },
    bypassed: ofCall('approval_bypassed').length > 0,
    decision,
    ran:
      receipt === undefined
        ? null
        : {
            outcome: receipt.outcome as string,
            exitCode: receipt.exitCode as number | null,
            error: receipt.error as string | null,
          },
  };
}

/** Where the recorded policy came from, as far as the log tells: the fields off the default. */
function policySource(recorded: unknown): CallExplanation['policy'] {
  if (recorded === null || typeof recorded !== 'object')
    return { source: 'not recorded', differsIn: [] };
  const fallback = JSON.parse(JSON.stringify(parseWorkspacePolicy({}))) as Record<string, unknown>;
  const policy = recorded as Record<string, unknown>;
  const differsIn = [...new Set([...Object.keys(policy), ...Object.keys(fallback)])]
    .filter((key) => {
      const left = policy[key];
      const right = fallback[key];
      if (left === undefined || right === undefined) return left !== right;
      return !canonicallyEqual(left, right);
    })
    .sort();
  return { source: differsIn.length === 0 ? 'default' : 'operator', differsIn };
}

const scopeText = (scope: unknown): string => {
  const value = scope as Record<string, string>;
  if (value.kind === 'command') return `command ${value.command}`;
  if (value.kind === 'path') return `${value.tool} on ${value.glob}`;
  if (value.kind === 'host') return `host ${value.host}`;
  return JSON.stringify(scope);
};

/** The explanation as lines for a terminal, each field escaped. */
export function describeCallExplanation(explanation: CallExplanation): string[] {
  const v = visibleText;
  const lines = [
    `call ${v(explanation.callId)} ${v(explanation.tool)}${explanation.stageId === null ? '' : ` (stage ${v(explanation.stageId)})`}`,
  ];
  const sandbox = explanation.sandbox;
  lines.push(
    `1 sandbox: ${v(sandbox.kind)} (from the ${sandbox.from === 'receipt' ? "call's receipt" : sandbox.from === 'configuration' ? "session's configuration" : 'log: not recorded'})${sandbox.reason === null ? '' : `: ${v(sandbox.reason)}`}`,
  );
  const assessment = explanation.assessment;
  if (assessment === null) lines.push('2 rules: not assessed (refused before assessment)');
  else {
    lines.push(
      `2 rules: ${v(assessment.verdict)} at ${v(assessment.tier)}, risk ${v(assessment.risk)}${assessment.findings.length === 0 ? ', no rule fired' : ''}`,
    );
    for (const finding of assessment.findings)
      lines.push(
        `  ${v(finding.ruleId)} ${v(finding.severity)} ${v(finding.code)}: ${v(finding.message)}`,
      );
  }
  const { source, differsIn } = explanation.policy;
  lines.push(
    `3 policy: ${source === 'default' ? "correx's default policy" : source === 'operator' ? `not this release's default (the operator's policy, an overlay, or an older release's default): differs in ${differsIn.map(v).join(', ')}` : 'not recorded'}`,
  );
  const grant = explanation.grant;
  lines.push(
    grant === null
      ? '4 grant: none'
      : `4 grant: ${v(grant.grantId)} (${v(scopeText(grant.scope))}) added by ${v(grant.by)}: ${v(grant.reason)}`,
  );
  lines.push(
    `5 mode: ${v(explanation.mode ?? 'not recorded')}${explanation.bypassed ? ' (bypassed a check a person would have been asked)' : ''}`,
  );
  const decision = explanation.decision;
  const asked =
    explanation.approvalRequested === null
      ? ''
      : ` after asking at ${v(explanation.approvalRequested.tier)}`;
  lines.push(
    `6 decision: ${decision.outcome}${asked}${decision.by === null ? '' : ` by ${v(decision.by.kind)} ${v(decision.by.id)}`}${decision.reason === null ? '' : `: ${v(decision.reason)}`}`,
  );
  const ran = explanation.ran;
  lines.push(
    ran === null
      ? '7 ran: no'
      : `7 ran: ${v(ran.outcome)}${ran.exitCode === null ? '' : ` exit ${ran.exitCode}`}${ran.error === null ? '' : `: ${v(ran.error)}`}`,
  );
  return lines;
}
