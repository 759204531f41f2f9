import type { ClientMessageInput } from '../../src/interfaces/protocol/client-message.js';
import { ClientMessageSchema } from '../../src/interfaces/protocol/client-message.js';
import type { EventDto } from '../../src/interfaces/protocol/event-dto.js';
import type { SessionListItemDto } from '../../src/interfaces/protocol/session-dto.js';
import {
  ServerMessageSchema,
  type ServerMessage,
} from '../../src/interfaces/protocol/server-message.js';

export type SocketState = 'connecting' | 'open' | 'closed';

export type SessionListener = {
  /** Events in sequence order, delivered in batches (one per animation frame at most). */
  events(events: EventDto[]): void;
  caughtUp(sequence: number): void;
  message(message: ServerMessage): void;
  /** A piece of work in progress (never recorded; the events that follow replace it). */
  live?(message: Extract<ServerMessage, { type: 'live' }>): void;
};

export type SessionListListener = {
  /** A session's list row changed (after new events of that session). */
  updated(session: SessionListItemDto): void;
  /** The list subscription is (again) in place: re-read the list once to miss nothing. */
  subscribed(): void;
};

export type SocketHub = {
  /** Live session list rows (`subscribe_sessions`), resubscribed after a reconnect. */
  watchSessions(listener: SessionListListener): () => void;
  /** Follows a session from `afterSequence`; resubscribes from the last event after a reconnect. */
  follow(sessionId: string, afterSequence: number, listener: SessionListener): () => void;
  send(message: ClientMessageInput): boolean;
  /** Every message not routed to a session listener (router answers, errors). */
  onMessage(listener: (message: ServerMessage) => void): () => void;
  onState(listener: (state: SocketState) => void): () => void;
  state(): SocketState;
  close(): void;
};

/** Subprotocols: the wire version, and the token (a browser cannot set headers on a WebSocket). */
const WIRE_SUBPROTOCOL = 'correx.v1';
const TOKEN_SUBPROTOCOL_PREFIX = 'correx.token.';

type Follow = { cursor: number; listener: SessionListener; pending: EventDto[]; caughtUp: boolean };

/**
 * One WebSocket to `/api/ws` shared by the page: it multiplexes session subscriptions, parses
 * every frame with the protocol's ServerMessageSchema, reconnects with backoff, and resumes
 * each subscription from the last sequence it delivered so no event is lost or repeated.
 */
export function createSocketHub(token: string, url = defaultUrl()): SocketHub {
  const follows = new Map<string, Follow>();
  const messageListeners = new Set<(message: ServerMessage) => void>();
  const stateListeners = new Set<(state: SocketState) => void>();
  const listListeners = new Set<SessionListListener>();
  let socket: WebSocket | null = null;
  let state: SocketState = 'connecting';
  let closed = false;
  let retry = 0;
  let flushScheduled = false;

  const setState = (next: SocketState) => {
    state = next;
    for (const listener of stateListeners) listener(next);
  };

  const raw = (message: ClientMessageInput) => {
    if (socket?.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(ClientMessageSchema.parse(message)));
    return true;
  };

  const flush = () => {
    flushScheduled = false;
    for (const follow of follows.values()) {
      if (follow.pending.length === 0) continue;
      const batch = follow.pending;
      follow.pending = [];
      follow.listener.events(batch);
    }
  };
  const scheduleFlush = () => {
    if (flushScheduled) return;
    flushScheduled = true;
    requestAnimationFrame(flush);
  };

  const handle = (message: ServerMessage) => {
    if (message.type === 'session_updated') {
      for (const listener of listListeners) listener.updated(message.session);
      return;
    }
    if (message.type === 'sessions_subscribed') {
      for (const listener of listListeners) listener.subscribed();
      return;
    }
    const follow =
      'sessionId' in message && message.sessionId ? follows.get(message.sessionId) : undefined;
    if (message.type === 'event' && follow) {
      if (message.event.sequence <= follow.cursor) return;
      follow.cursor = message.event.sequence;
      follow.pending.push(message.event);
      // Before catch-up, events are only collected: the page renders once, at caught_up.
      if (follow.caughtUp) scheduleFlush();
      return;
    }
    if (message.type === 'live') {
      follow?.listener.live?.(message);
      return;
    }
    if (message.type === 'caught_up' && follow) {
      follow.caughtUp = true;
      flush();
      follow.listener.caughtUp(message.sequence);
      return;
    }
    if (follow && message.type !== 'router_response' && message.type !== 'error') {
      follow.listener.message(message);
      return;
    }
    for (const listener of messageListeners) listener(message);
  };

  const connect = () => {
    if (closed) return;
    setState('connecting');
    const ws = new WebSocket(url, [WIRE_SUBPROTOCOL, `${TOKEN_SUBPROTOCOL_PREFIX}${token}`]);
    socket = ws;
    ws.onopen = () => {
      retry = 0;
      setState('open');
      for (const [sessionId, follow] of follows) {
        follow.caughtUp = false;
        raw({ type: 'subscribe', sessionId, afterSequence: follow.cursor });
      }
      if (listListeners.size > 0) raw({ type: 'subscribe_sessions' });
    };
    ws.onmessage = (frame) => {
      if (typeof frame.data !== 'string') return;
      let json: unknown;
      try {
        json = JSON.parse(frame.data);
      } catch {
        return;
      }
      const parsed = ServerMessageSchema.safeParse(json);
      if (parsed.success) handle(parsed.data);
    };
    ws.onclose = () => {
      if (socket !== ws) return;
      socket = null;
      if (closed) return setState('closed');
      setState('closed');
      const delay = Math.min(10_000, 250 * 2 ** retry++);
      setTimeout(connect, delay);
    };
  };
  connect();

  return {
    follow(sessionId, afterSequence, listener) {
      const follow: Follow = { cursor: afterSequence, listener, pending: [], caughtUp: false };
      follows.set(sessionId, follow);
      raw({ type: 'subscribe', sessionId, afterSequence });
      return () => {
        if (follows.get(sessionId) !== follow) return;
        follows.delete(sessionId);
        raw({ type: 'unsubscribe', sessionId });
      };
    },
    watchSessions(listener) {
      listListeners.add(listener);
      if (listListeners.size === 1) raw({ type: 'subscribe_sessions' });
      return () => {
        if (!listListeners.delete(listener)) return;
        if (listListeners.size === 0) raw({ type: 'unsubscribe_sessions' });
      };
    },
    send: raw,
    onMessage(listener) {
      messageListeners.add(listener);
      return () => messageListeners.delete(listener);
    },
    onState(listener) {
      stateListeners.add(listener);
      return () => stateListeners.delete(listener);
    },
    state: () => state,
    close() {
      closed = true;
      socket?.close();
    },
  };
}

function defaultUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss:' : 'ws:'}//${host}/api/ws`;
}
