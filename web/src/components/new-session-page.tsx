import { useState } from 'preact/hooks';
import type { SessionOptionsResponse } from '../../../src/interfaces/protocol/rest-dto.js';
import type { OperatorModeDto } from '../../../src/interfaces/protocol/wire-values.js';
import { ApiError, describeError } from '../api.js';
import { hrefOf } from '../route.js';
import { useConnection } from '../session-context.js';
import { Failure, Loading, useAsync } from './states.js';

/** Starts a session with what the server offers (`GET /api/options`). */
export function NewSessionPage() {
  const { api } = useConnection();
  const options = useAsync(() => api.options(), [api]);
  return (
    <section aria-labelledby="new-title" class="narrow">
      <h1 id="new-title">New session</h1>
      {options.state.status === 'loading' && <Loading what="what a session may use" />}
      {options.state.status === 'failed' && (
        <Failure error={options.state.error} retry={options.reload} />
      )}
      {options.state.status === 'ready' && <NewSessionForm options={options.state.value} />}
    </section>
  );
}

/** Splits a remembered workspace into the allowed root it is in and the folder under it. */
function initialWorkspace(roots: readonly string[]): { root: string; folder: string } {
  const stored = localStorage.getItem('correx.workspace') ?? '';
  const root = [...roots]
    .sort((a, b) => b.length - a.length)
    .find((candidate) => stored === candidate || stored.startsWith(`${candidate}/`));
  if (root === undefined) return { root: roots[0] ?? '', folder: '' };
  return { root, folder: stored.slice(root.length).replace(/^\/+/, '') };
}

function NewSessionForm(props: { options: SessionOptionsResponse }) {
  const { api } = useConnection();
  const { options } = props;
  const [task, setTask] = useState('');
  const [workspace, setWorkspace] = useState(() => initialWorkspace(options.allowedRoots));
  const [workflow, setWorkflow] = useState(options.defaultWorkflow);
  const [modelProfile, setModelProfile] = useState(options.defaultModelProfile ?? '');
  const [mode, setMode] = useState<OperatorModeDto>(options.defaultMode);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const folder = workspace.folder.trim().replace(/^\/+|\/+$/g, '');
  const path = folder === '' ? workspace.root : `${workspace.root.replace(/\/+$/, '')}/${folder}`;

  const submit = async (event: Event) => {
    event.preventDefault();
    if (task.trim() === '') return setError('A task is required.');
    if (workspace.root === '') return setError('The server allows no workspace root.');
    if (folder.split('/').includes('..'))
      return setError('The folder must stay inside the root (no "..").');
    setBusy(true);
    setError(null);
    try {
      // A value equal to the server's default is left out: the server applies its own default.
      const { sessionId } = await api.createSession({
        task: task.trim(),
        workspace: path,
        ...(workflow !== options.defaultWorkflow ? { workflow } : {}),
        ...(modelProfile !== '' && modelProfile !== options.defaultModelProfile
          ? { modelProfile }
          : {}),
        ...(mode !== options.defaultMode ? { mode } : {}),
      });
      localStorage.setItem('correx.workspace', path);
      window.location.hash = hrefOf({ page: 'session', sessionId });
    } catch (caught) {
      setError(
        caught instanceof ApiError && caught.code === 'workspace_not_allowed'
          ? `${caught.message} The server only runs sessions inside the roots it was started with (correx serve --allow-root).`
          : describeError(caught),
      );
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(event) => void submit(event)} class="stack">
      <label for="task">Task</label>
      <textarea
        id="task"
        rows={4}
        required
        maxLength={20000}
        value={task}
        onInput={(e) => setTask(e.currentTarget.value)}
      />
      <label for="workspace-root">Workspace root (allowed by the server)</label>
      <select
        id="workspace-root"
        class="mono"
        value={workspace.root}
        onChange={(e) => setWorkspace({ ...workspace, root: e.currentTarget.value })}
      >
        {options.allowedRoots.map((root) => (
          <option key={root} value={root}>
            {root}
          </option>
        ))}
      </select>
      <label for="workspace-folder">Folder inside it (optional; empty: the root itself)</label>
      <input
        id="workspace-folder"
        class="mono"
        value={workspace.folder}
        placeholder="e.g. my-project"
        onInput={(e) => setWorkspace({ ...workspace, folder: e.currentTarget.value })}
      />
      <p class="muted small mono" data-testid="workspace-path">
        {path || '—'}
      </p>
      <label for="workflow">Workflow</label>
      <select id="workflow" value={workflow} onChange={(e) => setWorkflow(e.currentTarget.value)}>
        {options.workflows.map((name) => (
          <option key={name} value={name}>
            {name === options.defaultWorkflow ? `${name} (default)` : name}
          </option>
        ))}
      </select>
      <label for="model-profile">Model profile</label>
      <select
        id="model-profile"
        value={modelProfile}
        onChange={(e) => setModelProfile(e.currentTarget.value)}
      >
        {options.defaultModelProfile === null && <option value="">configured default</option>}
        {options.modelProfiles.map((name) => (
          <option key={name} value={name}>
            {name === options.defaultModelProfile ? `${name} (default)` : name}
          </option>
        ))}
      </select>
      <label for="mode">Approval mode</label>
      <select
        id="mode"
        value={mode}
        onChange={(e) => setMode(e.currentTarget.value as OperatorModeDto)}
      >
        {options.modes.map((option) => (
          <option key={option} value={option}>
            {option === options.defaultMode ? `${option} (default)` : option}
          </option>
        ))}
      </select>
      {error && (
        <p class="error" role="alert">
          {error}
        </p>
      )}
      <button type="submit" disabled={busy}>
        {busy ? 'Starting…' : 'Start session'}
      </button>
    </form>
  );
}
