import { lookup as dnsLookup } from 'node:dns/promises';
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import { BlockList, connect, isIP, type Socket } from 'node:net';
import { hostAllowed } from '../../core/toolintent/host-match.js';
import type { EgressDecision } from '../../core/policies/sandbox-profile.js';

/** Resolves a host name to addresses (injected in tests; the system resolver otherwise). */
export type ResolveHost = (host: string) => Promise<readonly string[]>;

export type EgressProxyOptions = {
  /** The Unix socket path to listen on (bound into the sandbox). */
  readonly socketPath: string;
  readonly allowlist: readonly string[];
  readonly resolve?: ResolveHost;
  /** Idle limit per upstream connection; default 5 minutes. */
  readonly idleTimeoutMs?: number;
};

/** A running proxy: the decisions it made so far, and `close` that ends every connection. */
export type EgressProxy = {
  readonly socketPath: string;
  decisions(): EgressDecision[];
  close(): Promise<void>;
};

// Never a destination, whatever a name resolves to: "this network", link-local (cloud metadata
// at 169.254.169.254), multicast and reserved space.
const NEVER = new BlockList();
NEVER.addSubnet('0.0.0.0', 8, 'ipv4');
NEVER.addSubnet('169.254.0.0', 16, 'ipv4');
NEVER.addSubnet('224.0.0.0', 3, 'ipv4');
NEVER.addAddress('::', 'ipv6');
NEVER.addSubnet('fe80::', 10, 'ipv6');
NEVER.addSubnet('ff00::', 8, 'ipv6');
const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

type Verdict =
  | { readonly allowed: true; readonly address: string; readonly reason: string }
  | { readonly allowed: false; readonly reason: string };

/**
 * The egress proxy a sandboxed call's traffic must leave through (HTTP CONNECT for TLS, plain
 * HTTP forwarding otherwise), listening on a Unix socket. It allows exactly the allowlisted
 * hosts (the same `hostAllowed` the NetworkHost rule uses), then resolves the name itself and
 * checks the address: never link-local or reserved space, and loopback only for a host that
 * names it (`localhost`, `127.x`), so an allowlisted name rebound to a local service is refused.
 * It connects to the very address it checked. Every redirect a client follows is a new request,
 * so it is decided again. Each decision is kept for the call's receipt.
 */
export async function startEgressProxy(options: EgressProxyOptions): Promise<EgressProxy> {
  const resolve = options.resolve ?? resolveWithSystem;
  const idleTimeoutMs = options.idleTimeoutMs ?? 300_000;
  const folded = new Map<string, EgressDecision>();
  const sockets = new Set<Socket>();
  const record = (host: string, port: number, allowed: boolean, reason: string) => {
    const key = JSON.stringify([host, port, allowed, reason]);
    const existing = folded.get(key);
    folded.set(
      key,
      existing
        ? { ...existing, count: existing.count + 1 }
        : { host, port, allowed, reason, count: 1 },
    );
  };
  const decide = async (host: string, port: number): Promise<Verdict> => {
    const verdict = await judge(host, port);
    record(host, port, verdict.allowed, verdict.reason);
    return verdict;
  };
  const judge = async (host: string, port: number): Promise<Verdict> => {
    if (!Number.isInteger(port) || port < 1 || port > 65535)
      return { allowed: false, reason: 'invalid port' };
    if (!hostAllowed(host, options.allowlist))
      return { allowed: false, reason: 'not on the egress allowlist' };
    let addresses: readonly string[];
    try {
      addresses = isIP(host) === 0 ? await resolve(host) : [host];
    } catch {
      return { allowed: false, reason: 'the name does not resolve' };
    }
    const namesLoopback = host === 'localhost' || host.startsWith('127.');
    for (const address of addresses) {
      const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
      if (NEVER.check(address, family))
        return {
          allowed: false,
          reason: `resolves to ${address}, a reserved or link-local address`,
        };
      if (!namesLoopback && LOOPBACK.check(address, family))
        return { allowed: false, reason: `resolves to ${address}, a loopback address` };
    }
    const address = addresses[0];
    if (address === undefined) return { allowed: false, reason: 'the name does not resolve' };
    return { allowed: true, address, reason: 'on the egress allowlist' };
  };

  const server = createServer((request, response) => {
    void (async () => {
      const target = absoluteHttpTarget(request);
      if (target === null) {
        record('', 0, false, 'not an absolute http:// request');
        response
          .writeHead(400, { 'content-type': 'text/plain' })
          .end('correx egress proxy: send absolute http:// URLs\n');
        return;
      }
      const verdict = await decide(target.hostname, Number(target.port || 80));
      if (!verdict.allowed) {
        response
          .writeHead(403, { 'content-type': 'text/plain' })
          .end(`correx egress proxy: ${target.hostname} refused: ${verdict.reason}\n`);
        return;
      }
      const headers = { ...request.headers };
      for (const name of Object.keys(headers)) if (name.startsWith('proxy-')) delete headers[name];
      const upstream = httpRequest(
        {
          host: verdict.address,
          port: Number(target.port || 80),
          method: request.method,
          path: `${target.pathname}${target.search}`,
          headers,
          setHost: false,
          timeout: idleTimeoutMs,
        },
        (reply) => {
          response.writeHead(reply.statusCode ?? 502, reply.headers);
          reply.pipe(response);
        },
      );
      upstream.on('error', (error) => {
        if (!response.headersSent)
          response
            .writeHead(502, { 'content-type': 'text/plain' })
            .end(`correx egress proxy: ${error.message}\n`);
        else response.destroy();
      });
      request.pipe(upstream);
    })();
  });

  server.on('connect', (request: IncomingMessage, client: Socket, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    void (async () => {
      const target = authority(request.url ?? '');
      if (target === null) {
        record(request.url ?? '', 0, false, 'not a host:port authority');
        client.end('HTTP/1.1 400 Bad Request\r\n\r\n');
        return;
      }
      const verdict = await decide(target.host, target.port);
      if (!verdict.allowed) {
        client.end(
          `HTTP/1.1 403 Forbidden\r\ncontent-type: text/plain\r\n\r\ncorrex egress proxy: ${target.host} refused: ${verdict.reason}\n`,
        );
        return;
      }
      const upstream = connect({ host: verdict.address, port: target.port });
      sockets.add(upstream);
      upstream.setTimeout(idleTimeoutMs, () => upstream.destroy());
      upstream.on('close', () => {
        sockets.delete(upstream);
        client.destroy();
      });
      upstream.on('error', () => client.destroy());
      client.on('close', () => upstream.destroy());
      upstream.once('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((ready, fail) => {
    server.once('error', fail);
    server.listen(options.socketPath, () => {
      server.off('error', fail);
      ready();
    });
  });

  return {
    socketPath: options.socketPath,
    decisions: () => [...folded.values()],
    close: () =>
      new Promise<void>((done) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => done());
      }),
  };
}

async function resolveWithSystem(host: string): Promise<readonly string[]> {
  const results = await dnsLookup(host, { all: true, verbatim: false });
  return results.map((result) => result.address);
}

function absoluteHttpTarget(request: IncomingMessage): URL | null {
  try {
    const url = new URL(request.url ?? '');
    return url.protocol === 'http:' && url.username === '' && url.password === '' ? url : null;
  } catch {
    return null;
  }
}

function authority(text: string): { host: string; port: number } | null {
  const match = /^([a-z0-9.-]+):(\d{1,5})$/i.exec(text);
  if (match === null) return null;
  return { host: match[1]!.toLowerCase(), port: Number(match[2]) };
}
