import { useState } from 'preact/hooks';
import {
  OperatorModeDtoSchema,
  type OperatorModeDto,
} from '../../../src/interfaces/protocol/wire-values.js';
import { ApiError, describeError } from '../api.js';
import { hrefOf } from '../route.js';
import { useConnection } from '../session-context.js';

/** Starts a session. Workflow and model profile left empty take the server's configured defaults. */
export function NewSessionPage() {
  const { api } = useConnection();
  const [task, setTask] = useState('');
  const [workspace, setWorkspace] = useState(() => localStorage.getItem('correx.workspace') ?? '');
  const [workflow, setWorkflow] = useState('');
  const [modelProfile, setModelProfile] = useState('');
  const [mode, setMode] = useState<OperatorModeDto | ''>('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    if (task.trim() === '' || workspace.trim() === '')
      return setError('A task and a workspace are required.');
    setBusy(true);
    setError(null);
    try {
      const { sessionId } = await api.createSession({
        task: task.trim(),
        workspace: workspace.trim(),
        ...(workflow.trim() ? { workflow: workflow.trim() } : {}),
        ...(modelProfile.trim() ? { modelProfile: modelProfile.trim() } : {}),
        ...(mode ? { mode } : {}),
      });
      localStorage.setItem('correx.workspace', workspace.trim());
      window.location.hash = hrefOf({ page: 'session', sessionId });
    } catch (caught) {
      setError(
        caught instanceof ApiError && caught.code === 'workspace_not_allowed'
          ? `${caught.message} The server only runs sessions inside the roots it was started with (correx serve --root).`
          : describeError(caught),
      );
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="new-title" class="narrow">
      <h1 id="new-title">New session</h1>
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
        <label for="workspace">
          Workspace (an absolute path inside one of the server's allowed roots)
        </label>
        <input
          id="workspace"
          required
          value={workspace}
          onInput={(e) => setWorkspace(e.currentTarget.value)}
          class="mono"
        />
        <label for="workflow">Workflow (name or YAML file; empty: default-coding)</label>
        <input id="workflow" value={workflow} onInput={(e) => setWorkflow(e.currentTarget.value)} />
        <label for="model-profile">Model profile (empty: the configured default)</label>
        <input
          id="model-profile"
          value={modelProfile}
          onInput={(e) => setModelProfile(e.currentTarget.value)}
        />
        <label for="mode">Approval mode</label>
        <select
          id="mode"
          value={mode}
          onChange={(e) => setMode(e.currentTarget.value as OperatorModeDto | '')}
        >
          <option value="">configured default</option>
          {OperatorModeDtoSchema.options.map((option) => (
            <option key={option} value={option}>
              {option}
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
    </section>
  );
}
