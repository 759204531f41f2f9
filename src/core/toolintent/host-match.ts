/**
 * Egress host matching. Exact string equality on a canonical lower-case ASCII hostname, or a
 * `*.example.com` entry matching strict subdomains by whole labels. A host carrying NUL, `%`,
 * spaces, userinfo or non-ASCII characters never matches; nothing is matched by suffix alone
 * (`evil-example.com` is not `example.com`, nor is `example.com.evil.net`).
 */
export function hostAllowed(host: string, allowlist: readonly string[]): boolean {
  if (!isCanonicalHost(host)) return false;
  return allowlist.some((entry) => {
    if (entry.startsWith('*.')) {
      const base = entry.slice(2);
      return host.length > base.length + 1 && host.endsWith(`.${base}`);
    }
    return host === entry;
  });
}

/** Lower-case ASCII labels (or an IPv4 literal), no trailing dot: the only hosts ever allowed. */
export function isCanonicalHost(host: string): boolean {
  return (
    host.length > 0 &&
    host.length <= 253 &&
    /^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/.test(host)
  );
}

export type ParsedUrlTarget =
  | { readonly ok: true; readonly host: string; readonly protocol: 'http:' | 'https:' }
  | { readonly ok: false; readonly reason: string };

/**
 * Parses a model-supplied URL for egress decisions. Only http(s), no userinfo (a classic
 * confusion: `https://allowed.com@evil.net`), no control characters; the host is what the
 * WHATWG parser (the one the fetch implementation uses) sees.
 */
export function parseUrlTarget(raw: string): ParsedUrlTarget {
  if (hasControlOrBackslash(raw))
    return { ok: false, reason: 'the URL contains control characters or backslashes' };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not an absolute URL' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    return { ok: false, reason: `scheme ${url.protocol} is not allowed` };
  }
  if (url.username !== '' || url.password !== '')
    return { ok: false, reason: 'URLs with userinfo are refused' };
  const host = url.hostname;
  if (!isCanonicalHost(host))
    return { ok: false, reason: `host ${JSON.stringify(host)} is not a plain hostname` };
  return { ok: true, host, protocol: url.protocol };
}

function hasControlOrBackslash(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}
