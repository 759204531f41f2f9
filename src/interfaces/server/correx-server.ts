import { realpathSync } from 'node:fs';
import websocket from '@fastify/websocket';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
} from 'fastify';
import { pino } from 'pino';
import { CorrexError } from '../../core/base/correx-error.js';
import type { ErrorResponse } from '../protocol/rest-dto.js';
import type { ErrorCode } from '../../core/base/error-code.js';
import { createEventMessageEncoder } from './event-message-encoder.js';
import { createOpenApiDocument } from './openapi-document.js';
import {
  createRequestGuard,
  LOOPBACK_HOSTS,
  type RequestGuard,
  TOKEN_SUBPROTOCOL_PREFIX,
  WIRE_SUBPROTOCOL,
} from './request-guard.js';
import { registerRestRoutes } from './rest-routes.js';
import { createPreimageStore } from '../../infrastructure/sandbox/preimage-store.js';
import { systemClock } from '../../infrastructure/system/system-clock.js';
import { createUuidV7IdSource } from '../../infrastructure/system/uuid-v7-id-source.js';
import { DEFAULT_LIMITS, type CorrexServerDeps } from './server-deps.js';
import { ApiError, ServerConfigError } from './server-errors.js';
import { createSessionFeed } from './session-feed.js';
import { createSessionIndex, SHUTDOWN_ACTOR, SHUTDOWN_REASON } from './session-index.js';
import { createSessionListFeed } from './session-list-feed.js';
import { serveSocket } from './socket-connection.js';
import { registerWebAssets } from './web-assets.js';

/** How long a socket or connection gets to finish at shutdown before it is cut. */
const SOCKET_CLOSE_GRACE_MS = 1_000;
const graceElapsed = () =>
  new Promise<void>((done) => setTimeout(done, SOCKET_CLOSE_GRACE_MS).unref());
export type ServerAddress = {
  readonly host: string;
  readonly port: number;
  /** `http://host:port`, the server's own origin. */
  readonly url: string;
  /** Sessions a previous shutdown paused, resumed by this start. */
  readonly resumed: readonly string[];
};

export type CorrexServer = {
  /** Binds (loopback, an ephemeral port by default) and resumes what the last shutdown paused. */
  listen(options?: { host?: string; port?: number }): Promise<ServerAddress>;
  /**
   * Graceful shutdown: refuses new requests, pauses every session driven here (recorded by
   * `correx serve`, so the next start resumes them), waits for them to stop, closes sockets.
   * The store stays open: it belongs to the caller.
   */
  close(): Promise<void>;
  /** Every route registered (method and Fastify path), for the OpenAPI check and diagnostics. */
  routes(): readonly { readonly method: string; readonly path: string }[];
  /**
   * Accepts only `token` from now on: requests with the old one are refused, and WebSockets
   * opened with it are closed (4001).
   */
  rotateToken(token: string): void;
  /** Open WebSockets and the session subscriptions they follow, for diagnostics and tests. */
  stats(): { readonly sockets: number; readonly followers: number };
};

/** WebSocket close code for a socket authenticated with a token the server no longer accepts. */
export const TOKEN_ROTATED_CLOSE_CODE = 4001;

/** Conflicts a person can fix (approving what is not pending); anything else unknown is a 500. */
const CONFLICT_CODES: ReadonlySet<ErrorCode> = new Set([
  'approval_not_pending',
  'concurrency_conflict',
  'session_not_finished',
  'turns_not_recorded',
  'session_busy',
]);
const INTERNAL_CODES: ReadonlySet<ErrorCode> = new Set(['kernel_invariant', 'kernel_wiring']);

/** The HTTP + WebSocket server of `correx serve`, over one store and one SessionHost. */
export function createCorrexServer(
  deps: CorrexServerDeps,
  options: { version?: string } = {},
): CorrexServer {
  const limits = { ...DEFAULT_LIMITS, ...deps.limits };
  const logger = deps.logger ?? pino({ level: 'silent' });
  const allowedRoots = deps.allowedRoots.map((root) => {
    try {
      return realpathSync(root);
    } catch {
      throw new ServerConfigError(`allowed root ${root} does not exist`);
    }
  });
  const index = createSessionIndex(deps.store);
  const feed = createSessionFeed({ store: deps.store });
  const sessionList = createSessionListFeed({
    store: deps.store,
    index,
    running: () => deps.host.running(),
    attending: () => deps.host.attending?.() ?? [],
    ...(deps.host.lockHolder === undefined
      ? {}
      : { lockHolder: deps.host.lockHolder.bind(deps.host) }),
    ...(deps.host.drivers === undefined ? {} : { drivers: deps.host.drivers.bind(deps.host) }),
    logger,
    ...(limits.sessionListThrottleMs === undefined
      ? {}
      : { throttleMs: limits.sessionListThrottleMs }),
  });
  const encoder = createEventMessageEncoder();
  const runs = new Set<Promise<unknown>>();
  let app: FastifyInstance | null = null;
  let port = 0;
  let closing = false;
  let openSockets = 0;
  let token = deps.token;
  let activeGuard: RequestGuard | null = null;
  const registered: { method: string; path: string }[] = [];

  const build = async (boundHost: string) => {
    const hosts: string[] = [...LOOPBACK_HOSTS];
    if (!isWildcard(boundHost)) hosts.push(boundHost.includes(':') ? `[${boundHost}]` : boundHost);
    const guard = createRequestGuard({
      token,
      hosts,
      proxyHosts: deps.allowedHosts ?? [],
      port: () => port,
      ...(deps.allowedOrigins === undefined ? {} : { extraOrigins: deps.allowedOrigins }),
    });
    activeGuard = guard;
    const server = Fastify({
      // pino's Logger is a FastifyBaseLogger; the declared generics differ only by name.
      loggerInstance: logger as FastifyBaseLogger,
      bodyLimit: limits.maxBodyBytes,
      logController: new LogController({ disableRequestLogging: true }),
      return503OnClosing: true,
    });
    server.server.maxConnections = limits.maxConnections;
    server.addHook('onRoute', (route) => {
      for (const method of [route.method].flat()) {
        if (method !== 'HEAD') registered.push({ method, path: route.url });
      }
    });
    await server.register(websocket, {
      options: {
        maxPayload: limits.maxFrameBytes,
        // Browsers send the token as a subprotocol; the server answers with the wire version only.
        handleProtocols: (protocols) =>
          protocols.has(WIRE_SUBPROTOCOL) ? WIRE_SUBPROTOCOL : false,
      },
    });
    server.addHook('onRequest', async (request) => {
      if (closing) throw new ApiError(503, 'internal', 'the server is shutting down');
      const isApi = request.url === '/api' || request.url.startsWith('/api/');
      const refusal = guard.check({
        host: request.headers.host,
        origin: request.headers.origin,
        // Static web assets hold no data; the API behind them does.
        authorization: isApi ? request.headers.authorization : `Bearer ${token}`,
        'sec-websocket-protocol': isApi ? request.headers['sec-websocket-protocol'] : undefined,
      });
      if (refusal) throw refusal;
      if (request.url.split('?')[0] === '/api/ws' && openSockets >= limits.maxSockets)
        throw new ApiError(
          503,
          'too_many_sockets',
          `at most ${limits.maxSockets} WebSocket connections at a time; REST stays available`,
        );
    });
    server.setErrorHandler((error: FastifyError, request, reply) => {
      const { status, body } = errorResponse(error);
      if (status >= 500) logger.error({ err: error, url: request.url }, 'request failed');
      return reply.code(status).send(body);
    });
    server.setNotFoundHandler((request, reply) => {
      const body: ErrorResponse = {
        error: {
          code: 'not_found',
          message: `no route ${request.method} ${request.url.split('?')[0]}`,
        },
      };
      return reply.code(404).send(body);
    });
    server.get('/api/ws', { websocket: true }, (socket) => {
      openSockets += 1;
      socket.once('close', () => (openSockets -= 1));
      serveSocket(socket, {
        store: deps.store,
        feed,
        sessions: sessionList,
        encoder,
        router: deps.router,
        limits,
        logger,
        ...(deps.host.watchLive === undefined
          ? {}
          : { watchLive: deps.host.watchLive.bind(deps.host) }),
      });
    });
    registerRestRoutes(server, {
      store: deps.store,
      host: deps.host,
      index,
      allowedRoots,
      user: deps.user ?? 'api',
      openapi: createOpenApiDocument(options.version ?? '0.0.0'),
      preimages:
        deps.preimageDirectory === undefined ? null : createPreimageStore(deps.preimageDirectory),
      evalReports: deps.evalReportDirectory ?? null,
      recording: { clock: deps.clock ?? systemClock, ids: deps.ids ?? createUuidV7IdSource() },
      onStarted(sessionId, done) {
        const tracked = done.then(
          (outcome) => logger.info({ sessionId, outcome: summarize(outcome) }, 'session stopped'),
          (error: unknown) => logger.error({ err: error, sessionId }, 'session failed'),
        );
        runs.add(tracked);
        void tracked.finally(() => runs.delete(tracked));
      },
    });
    if (deps.webRoot !== undefined) await registerWebAssets(server, deps.webRoot);
    return server;
  };

  /** Sessions the last shutdown paused: resumed so that a restart loses nothing. */
  const resumeInterrupted = async (): Promise<string[]> => {
    const resumed: string[] = [];
    for (const { summary, session } of await index.list()) {
      if (!session.pausedByShutdown || session.state.status !== 'paused') continue;
      try {
        await deps.host.command(summary.sessionId, { type: 'resume', by: SHUTDOWN_ACTOR });
        resumed.push(summary.sessionId);
      } catch (error) {
        logger.error({ err: error, sessionId: summary.sessionId }, 'could not resume session');
      }
    }
    return resumed;
  };

  return {
    async listen(listenOptions = {}) {
      if (app !== null) throw new ServerConfigError('the server is already listening');
      const host = listenOptions.host ?? '127.0.0.1';
      const server = await build(host);
      app = server;
      await server.listen({ host, port: listenOptions.port ?? 0 });
      const address = server.server.address();
      port = typeof address === 'object' && address !== null ? address.port : 0;
      const resumed = await resumeInterrupted();
      const shown = host.includes(':') ? `[${host}]` : host;
      return { host, port, url: `http://${shown}:${port}`, resumed };
    },
    routes: () => [...registered],
    stats: () => ({ sockets: openSockets, followers: feed.followers() }),
    rotateToken(next) {
      if (next === token) return;
      token = next;
      activeGuard?.setToken(next);
      // Every open socket was authenticated with the old token: it reconnects with the new one.
      for (const client of app?.websocketServer.clients ?? [])
        client.close(TOKEN_ROTATED_CLOSE_CODE, 'the server token changed');
    },
    async close() {
      if (closing) return;
      closing = true;
      for (const sessionId of deps.host.running()) {
        try {
          await deps.host.command(sessionId, {
            type: 'pause',
            by: SHUTDOWN_ACTOR,
            reason: SHUTDOWN_REASON,
          });
        } catch (error) {
          logger.error({ err: error, sessionId }, 'could not pause session on shutdown');
        }
      }
      await deps.host.shutdown();
      await Promise.all(runs);
      if (app !== null) {
        const clients = [...app.websocketServer.clients];
        for (const client of clients) client.close(1001, 'server shutting down');
        // A peer that does not answer the close (a busy or frozen tab) must not hold the shutdown.
        await Promise.race([
          Promise.all(
            clients.map(
              (client) =>
                new Promise<void>((done) => {
                  if (client.readyState === client.CLOSED) done();
                  else client.once('close', () => done());
                }),
            ),
          ),
          graceElapsed(),
        ]);
        for (const client of clients) if (client.readyState !== client.CLOSED) client.terminate();
      }
      await feed.close();
      await sessionList.close();
      if (app !== null) {
        // Fastify waits for every connection; one a peer keeps busy (a half-sent request, a
        // stalled upload) would hold the shutdown until Node's request timeout.
        const closed = app.close();
        await Promise.race([closed, graceElapsed()]);
        app.server.closeAllConnections();
        await closed;
      }
    },
  };
}

function errorResponse(error: FastifyError | Error): { status: number; body: ErrorResponse } {
  const respond = (status: number, code: ErrorResponse['error']['code'], message: string) => ({
    status,
    body: { error: { code, message } },
  });
  if (error instanceof ApiError) return respond(error.status, error.wireCode, error.message);
  if (CorrexError.isInstance(error)) {
    if (CONFLICT_CODES.has(error.code)) return respond(409, 'conflict', error.message);
    if (!INTERNAL_CODES.has(error.code)) return respond(400, 'invalid_request', error.message);
    return respond(500, 'internal', 'the server failed; see its log');
  }
  const status = (error as FastifyError).statusCode;
  if (status === 413) return respond(413, 'payload_too_large', 'the request body is too large');
  if (status !== undefined && status >= 400 && status < 500) {
    return respond(status, 'invalid_request', error.message);
  }
  return respond(500, 'internal', 'the server failed; see its log');
}

function isWildcard(host: string): boolean {
  return host === '0.0.0.0' || host === '::' || host === '';
}

function summarize(outcome: unknown): unknown {
  const { status, waiting } = (outcome ?? {}) as { status?: unknown; waiting?: unknown };
  return { status, waiting };
}

export { TOKEN_SUBPROTOCOL_PREFIX, WIRE_SUBPROTOCOL };
