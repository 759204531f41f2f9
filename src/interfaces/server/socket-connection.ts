import type { Logger } from 'pino';
import type { RawData, WebSocket } from 'ws';
import { CorrexError } from '../../core/base/correx-error.js';
import type { LiveOutputObserver } from '../../core/base/live-output.js';
import type { CorrexEvent, CorrexEventStore } from '../../core/event-catalog.js';
import { ClientMessageSchema, type ClientMessage } from '../protocol/client-message.js';
import type { ServerMessage, SocketErrorCode } from '../protocol/server-message.js';
import { createApprovalTracker } from './approval-tracker.js';
import type { EventMessageEncoder } from './event-message-encoder.js';
import type { ServerLimits, UserInputRouter } from './server-deps.js';
import type { SessionFeed } from './session-feed.js';
import type { SessionListFeed } from './session-list-feed.js';

export type SocketContext = {
  readonly store: CorrexEventStore;
  readonly feed: SessionFeed;
  /** The live session list (`subscribe_sessions`). */
  readonly sessions: SessionListFeed;
  readonly encoder: EventMessageEncoder;
  readonly router: UserInputRouter | undefined;
  readonly limits: ServerLimits;
  readonly logger: Logger;
  /** The live output of the sessions driven in this process (SessionHost.watchLive). */
  readonly watchLive?: (observer: LiveOutputObserver) => () => void;
};

/** WebSocket close code for a client that does not read fast enough ("try again later"). */
export const SLOW_CONSUMER_CLOSE_CODE = 1013;
/** WebSocket close code for a client that sends faster than the message rate limit (policy). */
export const RATE_LIMIT_CLOSE_CODE = 1008;

type PendingApproval = Extract<ServerMessage, { type: 'approval_requested' }>;

/**
 * Serves one WebSocket: parses each message as a ClientMessage (anything else is answered with
 * an `error` and the connection stays open), keeps its subscriptions, and forwards user input
 * to the router. Everything it owns ends when the socket closes.
 */
export function serveSocket(socket: WebSocket, context: SocketContext): void {
  const { limits, logger } = context;
  const closed = new AbortController();
  const subscriptions = new Map<string, AbortController>();
  let routerRequests = 0;
  let sessionList: { stop(): void } | null = null;

  /** Stops everything this socket follows: nothing more is read from the store for it. */
  const stopAll = () => {
    closed.abort();
    for (const subscription of subscriptions.values()) subscription.abort();
    subscriptions.clear();
    sessionList?.stop();
    sessionList = null;
  };
  const sendRaw = (text: string) => {
    if (socket.readyState !== socket.OPEN) return;
    // The backlog is bounded: a client that does not read is closed, not buffered for.
    if (socket.bufferedAmount + Buffer.byteLength(text) > limits.maxBufferedBytes) {
      stopAll();
      socket.close(SLOW_CONSUMER_CLOSE_CODE, 'slow consumer: reconnect with your cursor');
      return;
    }
    socket.send(text);
  };
  /**
   * Reading the store waits while the backlog is above half the bound; a client that reads
   * nothing for `slowConsumerMs` meanwhile is closed (1013) rather than followed forever.
   */
  const ready = (): Promise<void> | undefined => {
    if (socket.readyState !== socket.OPEN) return undefined;
    if (socket.bufferedAmount <= limits.maxBufferedBytes / 2) return undefined;
    return new Promise((resolve) => {
      let last = socket.bufferedAmount;
      let stalledSince = performance.now();
      const check = () => {
        if (socket.readyState !== socket.OPEN) return resolve();
        const now = performance.now();
        if (socket.bufferedAmount <= limits.maxBufferedBytes / 2) return resolve();
        if (socket.bufferedAmount < last) stalledSince = now;
        last = socket.bufferedAmount;
        if (now - stalledSince >= limits.slowConsumerMs) {
          stopAll();
          socket.close(SLOW_CONSUMER_CLOSE_CODE, 'slow consumer: reconnect with your cursor');
          return resolve();
        }
        setTimeout(check, 10);
      };
      setTimeout(check, 10);
    });
  };
  const rate = createMessageBucket(limits.messageBurst, limits.messagesPerSecond);
  const send = (message: ServerMessage) => sendRaw(JSON.stringify(message));
  const sendError = (
    code: SocketErrorCode,
    message: string,
    about: { requestId?: string; sessionId?: string } = {},
  ) => send({ type: 'error', code, message, ...about });

  const subscribe = async (message: Extract<ClientMessage, { type: 'subscribe' }>) => {
    const { sessionId, afterSequence } = message;
    if (subscriptions.has(sessionId)) {
      return sendError('already_subscribed', `already subscribed to ${sessionId}`, { sessionId });
    }
    if (subscriptions.size >= limits.maxSubscriptionsPerSocket) {
      return sendError(
        'too_many_subscriptions',
        `at most ${limits.maxSubscriptionsPerSocket} subscriptions per connection`,
        { sessionId },
      );
    }
    const subscription = new AbortController();
    subscriptions.set(sessionId, subscription);
    const last = await context.store.lastSequence(sessionId);
    const refuse = (code: SocketErrorCode, text: string) => {
      subscriptions.delete(sessionId);
      sendError(code, text, { sessionId });
    };
    if (last === 0) return refuse('session_not_found', `no session ${sessionId}`);
    if (afterSequence > last) {
      return refuse(
        'cursor_out_of_range',
        `session ${sessionId} has ${last} events; a cursor of ${afterSequence} is ahead of it`,
      );
    }
    send({ type: 'subscribed', sessionId, afterSequence });
    // Live output is a view, never buffered for anyone: a client behind on reading skips pieces.
    const stopLive = context.watchLive?.((output) => {
      if (output.sessionId !== sessionId || subscription.signal.aborted) return;
      if (socket.bufferedAmount > limits.maxBufferedBytes / 2) return;
      send({ type: 'live', ...output });
    });
    if (stopLive !== undefined)
      subscription.signal.addEventListener('abort', () => stopLive(), { once: true });
    // Announcements carry the call's proposal and assessment, which precede the request.
    const approvals = createApprovalTracker();
    await approvals.prime(context.store, sessionId, afterSequence);
    // Approvals asked and answered during catch-up are history; those still open are announced.
    const pending = new Map<string, PendingApproval>();
    let live = false;
    const onApprovalEvent = (event: CorrexEvent) => {
      const payload = event.payload;
      approvals.observe(event);
      const approval = approvals.describe(event);
      if (payload.type === 'approval_requested' && approval !== null) {
        const announcement: PendingApproval = {
          type: 'approval_requested',
          sessionId,
          sequence: event.sequence,
          approval,
        };
        if (live) send(announcement);
        else pending.set(payload.callId, announcement);
      } else if (payload.type === 'approval_granted' || payload.type === 'approval_denied') {
        pending.delete(payload.callId);
      }
    };
    const following = context.feed.follow(
      sessionId,
      afterSequence,
      {
        onEvent(event) {
          sendRaw(context.encoder.encode(event));
          onApprovalEvent(event);
        },
        onCaughtUp(sequence) {
          send({ type: 'caught_up', sessionId, sequence });
          live = true;
          for (const announcement of pending.values()) send(announcement);
          pending.clear();
        },
        ready,
        onError(error) {
          logger.error({ err: error, sessionId }, 'session feed failed');
          subscription.abort();
          subscriptions.delete(sessionId);
          sendError('internal', `the event feed of ${sessionId} failed; subscribe again`, {
            sessionId,
          });
        },
      },
      subscription.signal,
    );
    await following.catch((error: unknown) => {
      subscription.abort();
      subscriptions.delete(sessionId);
      throw error;
    });
  };

  const forward = async (message: Extract<ClientMessage, { type: 'user_input' }>) => {
    const { requestId, sessionId } = message;
    const router = context.router;
    if (router === undefined) {
      return sendError('router_unavailable', 'this server has no router', { requestId, sessionId });
    }
    if (routerRequests >= limits.maxRouterRequestsPerSocket) {
      return sendError(
        'too_many_requests',
        `at most ${limits.maxRouterRequestsPerSocket} router requests at a time per connection`,
        { requestId, sessionId },
      );
    }
    routerRequests += 1;
    try {
      if ((await context.store.lastSequence(sessionId)) === 0) {
        return sendError('session_not_found', `no session ${sessionId}`, { requestId, sessionId });
      }
      const answer = await router.onUserInput(sessionId, message.text, message.mode, closed.signal);
      send({
        type: 'router_response',
        requestId,
        sessionId,
        answer: answer.answer,
        citedSequences: [...answer.citedSequences],
        ...(answer.note === undefined
          ? {}
          : { note: { eventId: answer.note.eventId, sequence: answer.note.sequence } }),
      });
    } catch (error) {
      if (closed.signal.aborted) return;
      logger.warn({ err: error, sessionId }, 'router request failed');
      const text = CorrexError.isInstance(error) ? error.message : 'the router failed';
      sendError('router_failed', text, { requestId, sessionId });
    } finally {
      routerRequests -= 1;
    }
  };

  const handle = async (message: ClientMessage) => {
    switch (message.type) {
      case 'subscribe':
        return subscribe(message);
      case 'unsubscribe': {
        const subscription = subscriptions.get(message.sessionId);
        if (!subscription) {
          return sendError('not_subscribed', `not subscribed to ${message.sessionId}`, {
            sessionId: message.sessionId,
          });
        }
        subscription.abort();
        subscriptions.delete(message.sessionId);
        return send({ type: 'unsubscribed', sessionId: message.sessionId });
      }
      case 'subscribe_sessions': {
        if (sessionList !== null) {
          return sendError('already_subscribed', 'already subscribed to the session list');
        }
        const watch = context.sessions.watch((session) =>
          send({ type: 'session_updated', session }),
        );
        sessionList = watch;
        await watch.ready;
        if (sessionList === watch) send({ type: 'sessions_subscribed' });
        return;
      }
      case 'unsubscribe_sessions':
        if (sessionList === null) {
          return sendError('not_subscribed', 'not subscribed to the session list');
        }
        sessionList.stop();
        sessionList = null;
        return send({ type: 'sessions_unsubscribed' });
      case 'user_input':
        return forward(message);
      case 'ping':
        return send({
          type: 'pong',
          ...(message.requestId === undefined ? {} : { requestId: message.requestId }),
        });
    }
  };

  socket.on('message', (data: RawData, isBinary: boolean) => {
    if (socket.readyState !== socket.OPEN) return;
    if (!rate.take(performance.now())) {
      stopAll();
      socket.close(RATE_LIMIT_CLOSE_CODE, 'message rate limit exceeded');
      return;
    }
    const parsed = parseClientMessage(data, isBinary, limits.maxMessageBytes);
    if (!parsed.ok) return sendError(parsed.code, parsed.message);
    handle(parsed.message).catch((error: unknown) => {
      logger.error({ err: error }, 'websocket message failed');
      sendError('internal', 'the server could not handle that message');
    });
  });
  socket.on('close', stopAll);
}

/** A token bucket: `burst` messages at once, refilled at `perSecond`; `take` says if one is left. */
function createMessageBucket(burst: number, perSecond: number) {
  let tokens = burst;
  let last: number | null = null;
  return {
    take(nowMs: number): boolean {
      if (last !== null) tokens = Math.min(burst, tokens + ((nowMs - last) / 1000) * perSecond);
      last = nowMs;
      if (tokens < 1) return false;
      tokens -= 1;
      return true;
    },
  };
}

type ParsedClientMessage =
  | { readonly ok: true; readonly message: ClientMessage }
  | { readonly ok: false; readonly code: SocketErrorCode; readonly message: string };

/** A text frame holding one JSON ClientMessage within the size limit, or why not. */
export function parseClientMessage(
  data: RawData,
  isBinary: boolean,
  maxBytes: number,
): ParsedClientMessage {
  const bytes = Array.isArray(data)
    ? data.reduce((sum, chunk) => sum + chunk.byteLength, 0)
    : data.byteLength;
  if (bytes > maxBytes) {
    return {
      ok: false,
      code: 'message_too_large',
      message: `messages are limited to ${maxBytes} bytes`,
    };
  }
  if (isBinary) return { ok: false, code: 'invalid_message', message: 'send text frames of JSON' };
  const buffer = Array.isArray(data)
    ? Buffer.concat(data)
    : Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data);
  let json: unknown;
  try {
    json = JSON.parse(buffer.toString('utf8'));
  } catch {
    return { ok: false, code: 'invalid_message', message: 'not JSON' };
  }
  const result = ClientMessageSchema.safeParse(json);
  if (!result.success) {
    const issues = result.error.issues
      .slice(0, 5)
      .map((issue) => `${issue.path.join('.') || '(message)'}: ${issue.message}`);
    return { ok: false, code: 'invalid_message', message: issues.join('; ') };
  }
  return { ok: true, message: result.data };
}
