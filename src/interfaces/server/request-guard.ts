import { createHash, timingSafeEqual } from 'node:crypto';
import { ApiError } from './server-errors.js';

/** Subprotocol a browser offers to carry the token, since it cannot set headers on a WebSocket. */
export const TOKEN_SUBPROTOCOL_PREFIX = 'correx.token.';
/** The subprotocol the server selects. */
export const WIRE_SUBPROTOCOL = 'correx.v1';

export type RequestGuard = {
  /** Null when the request may proceed, else why not. Checks Host, then Origin, then the token. */
  check(headers: {
    readonly host?: string | undefined;
    readonly origin?: string | undefined;
    readonly authorization?: string | undefined;
    readonly 'sec-websocket-protocol'?: string | undefined;
  }): ApiError | null;
  /** From now on only `token` is accepted (the old one is refused at once). */
  setToken(token: string): void;
};

/** The host names a loopback server answers to when none are configured. */
export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'] as const;

/**
 * Host, Origin and bearer-token checks for every REST call and WebSocket upgrade.
 * - Host: only the names the server is bound to, with its port, parsed strictly (`[::1]x:PORT`
 *   and `localhost:<another port>` are refused), so a page on a DNS-rebound name is refused.
 *   Names given for a proxy in front (`proxyHosts`) may come with any port or none.
 * - Origin: none (a CLI or script) or the server's own origin, so no other site's page can
 *   drive it, cross-site WebSockets included (browsers send Origin on every upgrade).
 * - Token: `Authorization: Bearer <token>`, or a `correx.token.<token>` subprotocol; compared in
 *   constant time.
 */
export function createRequestGuard(options: {
  readonly token: string;
  readonly hosts: readonly string[];
  /** Host names of a proxy in front of the server: the port it forwards is its own. */
  readonly proxyHosts?: readonly string[];
  /** The server's port; origins are `http://<host>:<port>` for each allowed host. */
  readonly port: () => number;
  readonly extraOrigins?: readonly string[];
}): RequestGuard {
  const hosts = new Set(options.hosts.map((host) => host.toLowerCase()));
  const proxyHosts = new Set((options.proxyHosts ?? []).map((host) => host.toLowerCase()));
  let expected = digest(options.token);
  const hostAllowed = (header: string | undefined): boolean => {
    const parsed = header === undefined ? null : parseHostHeader(header);
    if (parsed === null) return false;
    if (proxyHosts.has(parsed.name)) return true;
    if (!hosts.has(parsed.name)) return false;
    // Without a port the client meant port 80; anything else must be the port we listen on.
    return (parsed.port ?? 80) === options.port();
  };
  const originAllowed = (origin: string) => {
    const normalized = origin.toLowerCase();
    if (options.extraOrigins?.some((extra) => extra.toLowerCase() === normalized)) return true;
    for (const host of [...hosts, ...proxyHosts])
      if (normalized === `http://${host}:${options.port()}`) return true;
    return false;
  };
  return {
    setToken(token) {
      expected = digest(token);
    },
    check(headers) {
      if (!hostAllowed(headers.host)) {
        return new ApiError(403, 'forbidden_host', 'this server does not answer to that Host');
      }
      if (headers.origin !== undefined && !originAllowed(headers.origin)) {
        return new ApiError(403, 'forbidden_origin', 'requests from that Origin are not allowed');
      }
      const presented = presentedToken(headers);
      if (presented === undefined || !timingSafeEqual(digest(presented), expected)) {
        return new ApiError(401, 'unauthorized', 'a valid bearer token is required');
      }
      return null;
    },
  };
}

function presentedToken(headers: Parameters<RequestGuard['check']>[0]): string | undefined {
  const bearer = /^Bearer ([\x21-\x7e]+)$/i.exec(headers.authorization ?? '');
  if (bearer) return bearer[1];
  for (const protocol of (headers['sec-websocket-protocol'] ?? '').split(',')) {
    const trimmed = protocol.trim();
    if (trimmed.startsWith(TOKEN_SUBPROTOCOL_PREFIX)) {
      return trimmed.slice(TOKEN_SUBPROTOCOL_PREFIX.length);
    }
  }
  return undefined;
}

/**
 * A Host header as `name[:port]`, strictly: a DNS name or IPv4 address (letters, digits, dots,
 * hyphens) or a bracketed IPv6 address, then at most a decimal port. Null for anything else
 * (`[::1]x:80`, `a b`, `host:80:80`, `host:`, a port past 65535). Names are lower-cased.
 */
export function parseHostHeader(header: string): { name: string; port: number | null } | null {
  const match = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::([0-9]{1,5}))?$/i.exec(header);
  if (match === null) return null;
  const port = match[2] === undefined ? null : Number(match[2]);
  if (port !== null && (port < 1 || port > 65_535)) return null;
  return { name: match[1]!.toLowerCase(), port };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
