import { visibleLines, visibleText } from '../../../src/core/base/visible-text.js';
import { execCommandLine, execFolder } from '../../../src/interfaces/exec-command-line.js';
import { useState } from 'preact/hooks';
import type { PendingApprovalDetailsDto } from '../../../src/interfaces/protocol/session-dto.js';
import { describeError } from '../api.js';
import { prettyArgs } from '../format.js';
import type { FileChange, ToolCallItem } from '../model/timeline-types.js';
import { useConnection } from '../session-context.js';
import { DiffView } from './diff-view.js';
import { VerdictBadge } from './timeline-view.js';

/**
 * One tool call waiting for a person: the proposed call, resolved paths, rule findings, tier and
 * (for writes) a diff preview; approve or deny with a reason, recorded with who decided.
 */
export function ApprovalCard(props: {
  sessionId: string;
  call: ToolCallItem;
  change: FileChange | undefined;
  /** The session's workspace: where an exec runs when it names no `cwd`. */
  workspace?: string | null;
  /** The exact grant "always allow" records (the server says which), or null/absent: none. */
  alwaysAllow?: { readonly description: string } | null;
  /** For a call its driver went away from before its receipt: what that driver said since. */
  interrupted?: PendingApprovalDetailsDto['interrupted'];
  onDecided?: () => void;
}) {
  const { api } = useConnection();
  const { call } = props;
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const base = `approval-${call.callId.replace(/[^a-z0-9_-]/gi, '-')}`;

  const decide = async (decision: 'approve' | 'deny') => {
    const trimmed = reason.trim();
    if (decision === 'deny' && trimmed === '')
      return setError('Say why you deny it: the model reads the reason.');
    setBusy(true);
    setError(null);
    try {
      // Recorded as the identity the server authenticates: the page cannot name the decider.
      const body =
        decision === 'deny'
          ? { decision, reason: trimmed }
          : { decision, ...(trimmed ? { reason: trimmed } : {}) };
      const result = await api.decide(props.sessionId, call.callId, body);
      setDone(
        result.refused
          ? 'The session refused the decision.'
          : decision === 'approve'
            ? 'Approved.'
            : 'Denied.',
      );
      props.onDecided?.();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  const always = async () => {
    setBusy(true);
    setError(null);
    try {
      // The server records the same scoped grant as the CLI's "always allow", then approves.
      const result = await api.alwaysAllow(props.sessionId, call.callId);
      setDone(
        result.refused
          ? 'The session refused the decision.'
          : `Always allowed (${result.grantId}) and approved.`,
      );
      props.onDecided?.();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  const assessment = call.assessment;
  // An exec reads as the command line a person would type, in its folder (as the CLI's prompt).
  const command = call.tool === 'exec' ? execCommandLine(call.argsRaw) : undefined;
  const folder =
    command === undefined ? undefined : execFolder(assessment?.targets ?? [], props.workspace);
  return (
    <article class="approval-card" aria-labelledby={`${base}-title`} data-call-id={call.callId}>
      <h3 id={`${base}-title`}>
        <span class="mono">{call.tool}</span> wants approval{' '}
        <span class="badge tier">{call.approval?.tier ?? assessment?.tier ?? '?'}</span>
        {assessment && (
          <VerdictBadge verdict={assessment.verdict} waiting={call.approval?.state !== 'granted'} />
        )}
        {assessment && <span class="badge">risk {assessment.risk}</span>}
      </h3>
      {call.approval?.reason && <p>{call.approval.reason}</p>}
      {props.interrupted && <InterruptedDriver interrupted={props.interrupted} />}
      <p class="muted small mono">
        call {call.callId}
        {call.stageId ? ` · stage ${call.stageId}` : ''}
      </p>
      <h4>Proposed call</h4>
      {call.argsRaw === '' ? (
        <p class="muted">The proposal is no longer among the session's recent events.</p>
      ) : command !== undefined ? (
        <>
          <pre class="args command-line" data-testid="exec-command-line">
            $ {visibleLines(command)}
          </pre>
          <p class="small" data-testid="exec-folder">
            in{' '}
            <span class="mono">{folder === undefined ? 'the workspace' : visibleText(folder)}</span>
          </p>
          <details class="small">
            <summary>Arguments as the model sent them</summary>
            <pre class="args">{prettyArgs(call.argsRaw)}</pre>
          </details>
        </>
      ) : (
        <pre class="args">{prettyArgs(call.argsRaw)}</pre>
      )}
      {assessment && assessment.targets.length > 0 && (
        <>
          <h4>Resolved paths</h4>
          <ul class="targets">
            {assessment.targets.map((target) => (
              <li key={target.param + target.raw}>
                <span class="muted">{target.param}</span> {target.write ? 'writes' : 'reads'}{' '}
                <span class="mono">{visibleText(target.realPath ?? target.resolved)}</span>
                {target.raw !== target.resolved && (
                  <span class="muted"> (as written: {visibleText(target.raw)})</span>
                )}
              </li>
            ))}
          </ul>
        </>
      )}
      {assessment && assessment.findings.length > 0 && (
        <>
          <h4>Rule findings</h4>
          <ul class="findings">
            {assessment.findings.map((finding) => (
              <li key={finding.ruleId + finding.code} class={`finding-${finding.severity}`}>
                <span class="badge">{finding.severity}</span>{' '}
                <span class="badge tier">{finding.tier}</span> {finding.ruleId}: {finding.message}
              </li>
            ))}
          </ul>
        </>
      )}
      {props.change && (
        <>
          <h4>Diff preview</h4>
          <DiffView change={props.change} />
        </>
      )}
      {done ? (
        <p class="notice" role="status">
          {done}
        </p>
      ) : (
        <form class="decide" onSubmit={(event) => event.preventDefault()}>
          <label for={`${base}-reason`}>Reason (required to deny)</label>
          <textarea
            id={`${base}-reason`}
            rows={2}
            maxLength={2000}
            value={reason}
            onInput={(event) => setReason(event.currentTarget.value)}
          />
          {error && (
            <p class="error" role="alert">
              {error}
            </p>
          )}
          <div class="buttons">
            <button
              type="button"
              class="approve"
              disabled={busy}
              onClick={() => void decide('approve')}
            >
              Approve
            </button>
            {props.alwaysAllow && (
              <button
                type="button"
                disabled={busy}
                title="Record a standing grant for exactly this, for the rest of the session"
                onClick={() => void always()}
              >
                Always allow: {visibleText(props.alwaysAllow.description)}
              </button>
            )}
            <button type="button" class="deny" disabled={busy} onClick={() => void decide('deny')}>
              Deny
            </button>
          </div>
        </form>
      )}
    </article>
  );
}

/**
 * Whether the driver that started an interrupted call has stopped: until it says so, the call
 * may still be running, and what the workspace shows now is not the end of it.
 */
function InterruptedDriver(props: {
  interrupted: NonNullable<PendingApprovalDetailsDto['interrupted']>;
}) {
  const { startedBy } = props.interrupted;
  const unconfirmed = startedBy === null || startedBy.state === 'unconfirmed';
  return (
    <p
      class={unconfirmed ? 'notice' : 'small'}
      data-testid="interrupted-driver"
      data-state={startedBy?.state ?? 'unknown'}
    >
      Interrupted (started at #{props.interrupted.startedSequence}):{' '}
      {startedBy === null
        ? 'whether the process that started it has stopped is not known here; check before deciding'
        : startedBy.description}
    </p>
  );
}
