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
};

/** The host names a loopback server answers to when none are configured. */
export const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'] as const;

/**
 * Host, Origin and bearer-token checks for every REST call and WebSocket upgrade.
 * - Host: only the names the server is bound to, so a page on a DNS-rebound name is refused.
 * - Origin: none (a CLI or script) or the server's own origin, so no other site's page can
 *   drive it, cross-site WebSockets included (browsers send Origin on every upgrade).
 * - Token: `Authorization: Bearer <token>`, or a `correx.token.<token>` subprotocol; compared in
 *   constant time.
 */
export function createRequestGuard(options: {
  readonly token: string;
  readonly hosts: readonly string[];
  /** The server's port; origins are `http://<host>:<port>` for each allowed host. */
  readonly port: () => number;
  readonly extraOrigins?: readonly string[];
}): RequestGuard {
  const hosts = new Set(options.hosts.map((host) => host.toLowerCase()));
  const expected = digest(options.token);
  const originAllowed = (origin: string) => {
    const normalized = origin.toLowerCase();
    if (options.extraOrigins?.some((extra) => extra.toLowerCase() === normalized)) return true;
    for (const host of hosts) if (normalized === `http://${host}:${options.port()}`) return true;
    return false;
  };
  return {
    check(headers) {
      const hostName = headers.host === undefined ? undefined : hostNameOf(headers.host);
      if (hostName === undefined || !hosts.has(hostName)) {
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

/** `localhost:8080` → `localhost`, `[::1]:80` → `[::1]`. */
function hostNameOf(host: string): string {
  const lower = host.trim().toLowerCase();
  if (lower.startsWith('[')) return lower.slice(0, lower.indexOf(']') + 1);
  const colon = lower.indexOf(':');
  return colon === -1 ? lower : lower.slice(0, colon);
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
