import { useState } from 'preact/hooks';
import { visibleText } from '../../../src/core/base/visible-text.js';
import type { GrantScopeDto } from '../../../src/interfaces/protocol/wire-values.js';
import { describeError } from '../api.js';
import { useConnection } from '../session-context.js';
import { Failure, useAsync } from './states.js';

const PATH_TOOLS = ['write_file', 'edit_file', 'read_file'];

/**
 * A session's standing approvals: the active grants with Revoke, and a form that adds one as
 * `correx grant` does (an exact command, a path pattern for one tool, or a host; for the
 * session or only the running stage; a reason for the audit trail).
 */
export function GrantsPanel(props: { sessionId: string; stageId: string | null }) {
  const { api } = useConnection();
  const grants = useAsync(() => api.grants(props.sessionId), [api, props.sessionId]);
  const [kind, setKind] = useState<GrantScopeDto['kind']>('command');
  const [value, setValue] = useState('');
  const [tool, setTool] = useState(PATH_TOOLS[0]!);
  const [stageOnly, setStageOnly] = useState(false);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const run = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      grants.refresh();
      return true;
    } catch (caught) {
      setError(describeError(caught));
      return false;
    } finally {
      setBusy(false);
    }
  };

  const add = async (event: Event) => {
    event.preventDefault();
    const text = value.trim();
    if (text === '' || reason.trim() === '')
      return setError('Say what to allow and why: the reason is recorded.');
    const scope: GrantScopeDto =
      kind === 'command'
        ? { kind, command: text }
        : kind === 'path'
          ? { kind, tool, glob: text }
          : { kind, host: text };
    const added = await run(() =>
      api.addGrant(props.sessionId, {
        scope,
        reason: reason.trim(),
        ...(stageOnly && props.stageId !== null ? { stage: props.stageId } : {}),
      }),
    );
    if (added) {
      setValue('');
      setReason('');
    }
  };

  return (
    <section class="panel" aria-labelledby="grants-title">
      <h2 id="grants-title">Standing approvals</h2>
      {grants.state.status === 'failed' && (
        <Failure error={grants.state.error} retry={grants.reload} />
      )}
      {grants.state.status === 'ready' &&
        (grants.state.value.grants.length === 0 ? (
          <p class="muted">No grant: every call that asks waits for a person.</p>
        ) : (
          <ul class="grants" aria-label="Active grants">
            {grants.state.value.grants.map((grant) => (
              <li key={grant.grantId} data-grant-id={grant.grantId}>
                <span class="mono">{visibleText(grant.description)}</span>{' '}
                <span class="muted small">
                  {grant.stageId === null ? 'for the session' : `in ${grant.stageId}`} · by{' '}
                  {grant.by}
                </span>{' '}
                <button
                  type="button"
                  class="link"
                  disabled={busy}
                  onClick={() => void run(() => api.revokeGrant(props.sessionId, grant.grantId))}
                >
                  Revoke
                </button>
              </li>
            ))}
          </ul>
        ))}
      <form class="grant" onSubmit={(event) => void add(event)}>
        <label for="grant-kind">Allow without asking</label>
        <select
          id="grant-kind"
          value={kind}
          onChange={(e) => setKind(e.currentTarget.value as GrantScopeDto['kind'])}
        >
          <option value="command">this exact command line</option>
          <option value="path">a path pattern, for one tool</option>
          <option value="host">a host</option>
        </select>
        {kind === 'path' && (
          <>
            <label for="grant-tool">Tool</label>
            <select id="grant-tool" value={tool} onChange={(e) => setTool(e.currentTarget.value)}>
              {PATH_TOOLS.map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </>
        )}
        <label for="grant-value">
          {kind === 'command' ? 'Command' : kind === 'path' ? 'Path pattern' : 'Host'}
        </label>
        <input
          id="grant-value"
          class="mono"
          value={value}
          onInput={(e) => setValue(e.currentTarget.value)}
        />
        {props.stageId !== null && (
          <label class="inline">
            <input
              type="checkbox"
              checked={stageOnly}
              onChange={(e) => setStageOnly(e.currentTarget.checked)}
            />{' '}
            only in stage {props.stageId}
          </label>
        )}
        <label for="grant-reason">Reason</label>
        <input
          id="grant-reason"
          value={reason}
          maxLength={2000}
          onInput={(e) => setReason(e.currentTarget.value)}
        />
        <button type="submit" disabled={busy}>
          Add grant
        </button>
      </form>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
