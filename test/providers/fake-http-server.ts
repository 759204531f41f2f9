import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type RecordedHttpRequest = {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: unknown;
  /** Set when the client closed the connection before the server finished answering. */
  closedEarly: boolean;
};

export type FakeHandler = (request: RecordedHttpRequest, response: ServerResponse) => void;

export type FakeHttpServer = {
  /** e.g. `http://127.0.0.1:40123` */
  readonly url: string;
  readonly requests: RecordedHttpRequest[];
  /** Handlers answer requests in order; the last one repeats. */
  reply(...handlers: FakeHandler[]): void;
  close(): Promise<void>;
};

/** A loopback HTTP server whose answers a test scripts; it records every request it received. */
export async function startFakeHttpServer(): Promise<FakeHttpServer> {
  const requests: RecordedHttpRequest[] = [];
  let handlers: FakeHandler[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedHttpRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text === '' ? undefined : (JSON.parse(text) as unknown),
        closedEarly: false,
      };
      res.on('close', () => {
        if (!res.writableFinished) recorded.closedEarly = true;
      });
      requests.push(recorded);
      const handler = handlers.length > 1 ? handlers.shift()! : handlers[0];
      if (handler === undefined) {
        res.writeHead(500).end('no handler scripted');
        return;
      }
      handler(recorded, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply(...next) {
      handlers = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function json(
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): FakeHandler {
  return (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
}

/** Server-sent events; `cutAfter` destroys the socket after that many events (a dropped stream). */
export function sse(
  events: readonly (string | { event?: string; data: unknown })[],
  cutAfter?: number,
): FakeHandler {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    events.forEach((item, index) => {
      if (cutAfter !== undefined && index >= cutAfter) return;
      if (typeof item === 'string') {
        response.write(`data: ${item}\n\n`);
      } else {
        const prefix = item.event === undefined ? '' : `event: ${item.event}\n`;
        response.write(`${prefix}data: ${JSON.stringify(item.data)}\n\n`);
      }
    });
    // Let the written events reach the client, then drop the connection mid-stream.
    if (cutAfter !== undefined) setTimeout(() => response.socket?.destroy(), 50);
    else response.end();
  };
}

/** Accepts the request and never answers (a hung connection). */
export const hang: FakeHandler = () => {};

/** Sends the headers and the first events of a stream, then goes silent. */
export function stall(firstEvents: readonly string[]): FakeHandler {
  return (_request, response) => {
    response.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const event of firstEvents) response.write(`data: ${event}\n\n`);
  };
}

/**
 * `handler`, answering only once the test calls `release` (a model still working for exactly as
 * long as a test needs, however slow the machine, rather than for a fixed time).
 */
export function heldUntilReleased(handler: FakeHandler): {
  readonly handler: FakeHandler;
  release(): void;
} {
  let released = false;
  const waiting: (() => void)[] = [];
  return {
    handler: (request, response) => {
      if (released) handler(request, response);
      else waiting.push(() => handler(request, response));
    },
    release() {
      released = true;
      for (const answer of waiting.splice(0)) answer();
    },
  };
}
