import { request as httpRequest } from 'node:http';
import { dirname } from 'node:path';
import { afterEach, expect } from 'vitest';
import WebSocket from 'ws';
import type { CorrexEventStore } from '../../../src/core/event-catalog.js';
import type { KernelConfig } from '../../../src/core/kernel/index.js';
import type { InferenceProvider } from '../../../src/core/inference/inference-provider.js';
import type { ClientMessageInput } from '../../../src/interfaces/protocol/client-message.js';
import {
  ServerMessageSchema,
  type ServerMessage,
} from '../../../src/interfaces/protocol/server-message.js';
import {
  createCorrexServer,
  type CorrexServer,
  type ServerAddress,
} from '../../../src/interfaces/server/correx-server.js';
import { WIRE_SUBPROTOCOL } from '../../../src/interfaces/server/request-guard.js';
import type { CorrexServerDeps } from '../../../src/interfaces/server/server-deps.js';
import type { SessionHost, StartSessionRequest } from '../../../src/interfaces/session-host.js';
import { openStore, scenarioWorkspace } from '../../kernel/kernel-harness.js';
import { createTestSessionHost, type TestSessionHost } from './test-session-host.js';

export const TOKEN = 'test-token-0123456789-abcdefghijklmnopqrstuvwxyz';

type Closable = { close(): Promise<void> | void };
const open: Closable[] = [];

/** Servers, sockets and stores opened by a test are closed after it, newest first. */
export function closeAfterEach(): void {
  afterEach(async () => {
    for (const item of open.splice(0).reverse()) await item.close();
  });
}

export type TestServer = {
  readonly server: CorrexServer;
  readonly address: ServerAddress;
  readonly host: TestSessionHost;
  readonly store: CorrexEventStore;
  readonly workspace: string;
  readonly storePath: string;
  /** Closes the server now (its store stays open until the test ends). */
  close(): Promise<void>;
};

/** A server on a loopback ephemeral port over a SQLite store and the test session host. */
export async function startTestServer(
  options: {
    readonly modelFor?: (request: StartSessionRequest | { resumed: string }) => InferenceProvider;
    readonly deps?: Partial<CorrexServerDeps>;
    readonly files?: Record<string, string>;
    /** Reuse a store and workspace (a restart). */
    readonly reuse?: { store: CorrexEventStore; workspace: string; storePath: string };
    readonly idPrefix?: string;
    /** The kernel configuration new sessions run with (default: the test host's). */
    readonly config?: KernelConfig;
    /** What the host knows beyond the test host's own (a shared store's driver records). */
    readonly driverTakes?: SessionHost['driverTakes'];
  } = {},
): Promise<TestServer> {
  const { workspace, storePath } = options.reuse ?? scenarioWorkspace(options.files ?? {});
  const store = options.reuse?.store ?? openStore(storePath);
  if (!options.reuse) open.push(store);
  const host = createTestSessionHost({
    store,
    modelFor:
      options.modelFor ??
      (() => {
        throw new Error('this test starts no sessions');
      }),
    ...(options.idPrefix === undefined ? {} : { idPrefix: options.idPrefix }),
    ...(options.config === undefined ? {} : { config: options.config }),
  });
  if (options.driverTakes !== undefined) host.driverTakes = options.driverTakes;
  const server = createCorrexServer({
    store,
    host,
    token: TOKEN,
    allowedRoots: [dirname(workspace)],
    ...options.deps,
  });
  let closed = false;
  const close = async () => {
    if (closed) return;
    closed = true;
    await server.close();
  };
  open.push({ close });
  const address = await server.listen();
  return { server, address, host, store, workspace, storePath, close };
}

export type Reply = { status: number; body: unknown };

/** An HTTP request with exactly the headers given (fetch would add or forbid some). */
export function rawRequest(
  address: ServerAddress,
  options: {
    method?: string;
    path: string;
    headers?: Record<string, string>;
    body?: string;
  },
): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port: address.port,
        method: options.method ?? 'GET',
        path: options.path,
        headers: { host: `127.0.0.1:${address.port}`, ...options.headers },
        setHost: false,
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown = text;
          try {
            body = JSON.parse(text);
          } catch {
            // not JSON: keep the text
          }
          resolve({ status: response.statusCode ?? 0, body });
        });
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

/** The REST API as a client with the token. */
export function api(address: ServerAddress, token = TOKEN) {
  const call = (method: string, path: string, body?: unknown) =>
    rawRequest(address, {
      method,
      path,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body),
  };
}

export type SocketClient = {
  readonly socket: WebSocket;
  /** Every message received so far, validated against ServerMessageSchema. */
  readonly messages: ServerMessage[];
  send(message: ClientMessageInput): void;
  sendRaw(data: string | Buffer, binary?: boolean): void;
  /** The first message (already received or still to come) after `from` that passes `test`. */
  next<T extends ServerMessage>(
    test: (message: ServerMessage) => message is T,
    from?: number,
  ): Promise<T>;
  next(test: (message: ServerMessage) => boolean, from?: number): Promise<ServerMessage>;
  close(): Promise<void>;
  closed: Promise<{ code: number; reason: string }>;
};

/** Opens a WebSocket to the server with the token (as a header, unless `protocols` carry it). */
export async function connect(
  address: ServerAddress,
  options: { token?: string | null; protocols?: string[]; headers?: Record<string, string> } = {},
): Promise<SocketClient> {
  const token = options.token === undefined ? TOKEN : options.token;
  const socket = new WebSocket(
    `ws://127.0.0.1:${address.port}/api/ws`,
    options.protocols ?? [WIRE_SUBPROTOCOL],
    {
      headers: {
        ...(token === null ? {} : { authorization: `Bearer ${token}` }),
        ...options.headers,
      },
    },
  );
  const messages: ServerMessage[] = [];
  const waiters = new Set<() => void>();
  socket.on('message', (data: Buffer) => {
    const parsed = ServerMessageSchema.safeParse(JSON.parse(data.toString('utf8')));
    expect(parsed.success, `server sent an invalid message: ${data.toString('utf8')}`).toBe(true);
    if (parsed.success) messages.push(parsed.data);
    for (const wake of waiters) wake();
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => {
    socket.on('close', (code, reason) => {
      resolve({ code, reason: reason.toString() });
      for (const wake of waiters) wake();
    });
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('open', () => resolve());
    socket.once('error', reject);
    socket.once('unexpected-response', (_request, response) =>
      reject(new Error(`upgrade refused: ${response.statusCode}`)),
    );
  });
  const client: SocketClient = {
    socket,
    messages,
    send: (message) => socket.send(JSON.stringify(message)),
    sendRaw: (data, binary = false) => socket.send(data, { binary }),
    next(test: (message: ServerMessage) => boolean, from = 0) {
      return new Promise<ServerMessage>((resolve, reject) => {
        const look = () => {
          const found = messages.slice(from).find(test);
          if (found) {
            waiters.delete(look);
            resolve(found);
          } else if (socket.readyState === WebSocket.CLOSED) {
            waiters.delete(look);
            reject(new Error(`socket closed; received ${JSON.stringify(messages)}`));
          }
        };
        waiters.add(look);
        look();
      });
    },
    async close() {
      if (socket.readyState === WebSocket.CLOSED) return;
      socket.close();
      await closed;
    },
    closed,
  };
  open.push(client);
  return client;
}

/** The upgrade response status when the server refuses a WebSocket. */
export function refusedUpgrade(
  address: ServerAddress,
  options: { token?: string | null; headers?: Record<string, string>; protocols?: string[] },
): Promise<number> {
  return connect(address, options).then(
    () => expect.fail('the upgrade was accepted'),
    (error: Error) => Number(/upgrade refused: (\d+)/.exec(error.message)?.[1] ?? 0),
  );
}

export const isType =
  <K extends ServerMessage['type']>(type: K, sessionId?: string) =>
  (message: ServerMessage): message is Extract<ServerMessage, { type: K }> =>
    message.type === type &&
    (sessionId === undefined || !('sessionId' in message) || message.sessionId === sessionId);

/** The session's last sequence as the REST API reports it. */
export async function lastSequenceOf(address: ServerAddress, sessionId: string): Promise<number> {
  const reply = await api(address).get(`/api/sessions/${sessionId}`);
  return (reply.body as { lastSequence: number }).lastSequence;
}
