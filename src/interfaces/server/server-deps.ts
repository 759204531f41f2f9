import type { Logger } from 'pino';
import type { Clock } from '../../core/base/clock.js';
import type { IdSource } from '../../core/base/id-source.js';
import type { CorrexEventStore } from '../../core/event-catalog.js';
import type { SessionHost } from '../session-host.js';

/** What the router answers to a person's message about a session. */
export type RouterAnswer = {
  readonly answer: string;
  /** Sequences of the session's events the answer relies on. */
  readonly citedSequences: readonly number[];
  /** The steering note the input became (steering mode), once recorded. */
  readonly note?: { readonly eventId: string; readonly sequence: number };
};

/** The port the server talks to the conversational router through (adapted in src/main). */
export type UserInputRouter = {
  onUserInput(
    sessionId: string,
    input: string,
    mode: 'normal' | 'steering',
    signal: AbortSignal,
  ): Promise<RouterAnswer>;
};

export type ServerLimits = {
  /** Largest REST request body, in bytes. */
  readonly maxBodyBytes: number;
  /** Largest WebSocket message answered with an error instead of handled. */
  readonly maxMessageBytes: number;
  /** Frames beyond this close the connection (1009) before they are even buffered whole. */
  readonly maxFrameBytes: number;
  readonly maxSubscriptionsPerSocket: number;
  readonly maxRouterRequestsPerSocket: number;
  /** TCP connections the HTTP server accepts in all (REST, page assets and WebSockets). */
  readonly maxConnections: number;
  /**
   * Open WebSockets at most; an upgrade beyond is refused (503). Well below `maxConnections`, so
   * that however many sockets are open, REST stays reachable.
   */
  readonly maxSockets: number;
  /**
   * A socket's unsent backlog is bounded by this: catch-up from the store waits while the backlog
   * is above half of it, and a live event that would pass it closes the socket (1013); the
   * client reconnects with its cursor.
   */
  readonly maxBufferedBytes: number;
  /** A socket whose backlog has not shrunk for this long while catch-up waits is closed (1013). */
  readonly slowConsumerMs: number;
  /**
   * Messages one socket may send: a bucket of `messageBurst` refilled at `messagesPerSecond`.
   * A client that empties it is closed (1008): a flood costs it the connection.
   */
  readonly messageBurst: number;
  readonly messagesPerSecond: number;
  /** Least interval between two `session_updated` rows of one session (default 250 ms). */
  readonly sessionListThrottleMs?: number;
};

export const DEFAULT_LIMITS: ServerLimits = {
  maxBodyBytes: 64 * 1024,
  maxMessageBytes: 64 * 1024,
  maxFrameBytes: 1024 * 1024,
  maxSubscriptionsPerSocket: 64,
  maxRouterRequestsPerSocket: 4,
  maxConnections: 1_024,
  maxSockets: 256,
  maxBufferedBytes: 4 * 1024 * 1024,
  slowConsumerMs: 30_000,
  messageBurst: 200,
  messagesPerSecond: 50,
};

/** Everything `createCorrexServer` needs, wired by the composition root. */
export type CorrexServerDeps = {
  readonly store: CorrexEventStore;
  readonly host: SessionHost;
  readonly router?: UserInputRouter;
  /** The bearer token every REST call and WebSocket connection must present. */
  readonly token: string;
  /** A new session's workspace must be one of these folders or inside one. */
  readonly allowedRoots: readonly string[];
  /** Host names besides the loopback ones (127.0.0.1, localhost, [::1]) the server answers to. */
  readonly allowedHosts?: readonly string[];
  /** Origins besides the server's own that may call it (a dev server for the web UI). */
  readonly allowedOrigins?: readonly string[];
  readonly limits?: Partial<ServerLimits>;
  readonly logger?: Logger;
  /** A folder of static files (the web UI) served at `/`, without a token: they hold no data. */
  readonly webRoot?: string;
  /**
   * Where exec change records keep their pre-images (`<correx home>/preimages`): the diff and
   * undo routes read them. Absent: none kept (diffs show hashes, an undo needing bytes is refused).
   */
  readonly preimageDirectory?: string;
  /**
   * Where `correx eval run` saves its reports (`<correx home>/evals`): `GET /api/evals` lists
   * those whose sessions are in this store. Absent: no eval runs are shown.
   */
  readonly evalReportDirectory?: string;
  /** Stamps a person's undo (default: the system clock). */
  readonly clock?: Clock;
  /** Names a person's undo (default: UUIDv7). */
  readonly ids?: IdSource;
  /** Recorded as who decided when a request names nobody (default `api`). */
  readonly user?: string;
};
