import type { Logger } from 'pino';
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
  readonly maxConnections: number;
  /** A socket whose unsent backlog passes this is closed (1013); it reconnects with its cursor. */
  readonly maxBufferedBytes: number;
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
  maxBufferedBytes: 16 * 1024 * 1024,
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
  /** Recorded as who decided when a request names nobody (default `api`). */
  readonly user?: string;
};
