import { useEffect, useRef, useState } from 'preact/hooks';
import type { SessionListItemDto } from '../../../src/interfaces/protocol/session-dto.js';
import { useConnection } from '../session-context.js';
import { useAsync, type AsyncState } from './states.js';

/** Keeps the newer of two rows of one session. */
function newer(a: SessionListItemDto | undefined, b: SessionListItemDto): SessionListItemDto {
  return a !== undefined && a.lastSequence > b.lastSequence ? a : b;
}

/**
 * The session list, live: one `GET /api/sessions`, then the rows the WebSocket sends
 * (`subscribe_sessions` → `session_updated`) as sessions change. The list is read again each
 * time the subscription is (re)established, so nothing that happened in between is missed.
 */
export function useSessionList(): {
  state: AsyncState<SessionListItemDto[]>;
  reload(): void;
  /** Reads the list again without showing the loading state. */
  refresh(): void;
} {
  const { api, hub } = useConnection();
  const list = useAsync(() => api.listSessions(), [api]);
  const [live, setLive] = useState<Record<string, SessionListItemDto>>({});
  const refresh = useRef(list.refresh);
  refresh.current = list.refresh;

  useEffect(
    () =>
      hub.watchSessions({
        updated: (row) =>
          setLive((old) => ({ ...old, [row.sessionId]: newer(old[row.sessionId], row) })),
        subscribed: () => refresh.current(),
      }),
    [hub],
  );

  if (list.state.status !== 'ready')
    return { state: list.state, reload: list.reload, refresh: list.refresh };
  const rows = new Map<string, SessionListItemDto>();
  for (const row of list.state.value.sessions) rows.set(row.sessionId, row);
  for (const row of Object.values(live))
    rows.set(row.sessionId, newer(rows.get(row.sessionId), row));
  return {
    state: { status: 'ready', value: [...rows.values()] },
    reload: list.reload,
    refresh: list.refresh,
  };
}
