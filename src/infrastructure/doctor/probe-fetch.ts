import { CorrexError } from '../../core/base/correx-error.js';

/** The most same-origin redirects a probe follows before it gives up. */
const MAX_REDIRECTS = 3;

/**
 * A probe was redirected to another origin. Following it would send the request — and the
 * provider's key in its headers — to a host the configuration never named.
 */
export class ProbeRedirectError extends CorrexError {
  constructor(
    readonly from: string,
    readonly to: string,
  ) {
    super(
      'probe_redirected',
      `${from} redirects to ${to}, another host; correx does not follow a redirect off the configured host`,
    );
  }
}

/**
 * `fetch` for doctor's probes: one time bound over the whole probe (redirects and the body
 * included, so a server that sends headers and then hangs is bounded too), redirects followed only
 * within the same origin (scheme, host and port), at most MAX_REDIRECTS of them. Returns the
 * response with its body read as text.
 */
export async function probeFetch(
  url: string,
  init: {
    readonly method?: string;
    readonly headers?: Record<string, string>;
    readonly body?: string;
  },
  timeoutMs: number,
): Promise<{ readonly status: number; readonly ok: boolean; readonly text: string }> {
  const signal = AbortSignal.timeout(timeoutMs);
  let current = url;
  for (let redirects = 0; ; redirects += 1) {
    const response = await fetch(current, { ...init, redirect: 'manual', signal });
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      const next = new URL(location, current);
      if (next.origin !== new URL(current).origin) throw new ProbeRedirectError(current, next.href);
      if (redirects === MAX_REDIRECTS)
        throw new CorrexError(
          'probe_redirected',
          `${url} redirects more than ${MAX_REDIRECTS} times`,
        );
      // A 303 (and a 301/302 of a POST, as browsers do) would change the method; a probe does not.
      current = next.href;
      continue;
    }
    return { status: response.status, ok: response.ok, text: await response.text() };
  }
}
