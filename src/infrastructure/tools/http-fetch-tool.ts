import { httpFetchTool } from '../../core/tools/builtin-tools.js';
import { hostAllowed, parseUrlTarget } from '../../core/toolintent/host-match.js';
import { guardedExecutor, ToolFailure } from './file-tools.js';
import type { ToolExecutor } from './tool-executor.js';
import { createOutputBuffer, finishReceipt } from './tool-receipt-builder.js';

export type HttpFetchToolOptions = {
  readonly maxOutputBytes?: number;
  readonly timeoutMs?: number;
  readonly maxRedirects?: number;
  /** Injected for tests; defaults to the global fetch. */
  readonly fetch?: typeof fetch;
};

/**
 * `http_fetch`: GET or HEAD to an allowlisted host. The allowlist is enforced again here (not
 * only by the NetworkHost rule), redirects are followed by hand and every hop's host is
 * re-checked, credentials are never sent, and the body is read only up to the output cap.
 */
export function createHttpFetchExecutor(options: HttpFetchToolOptions = {}): ToolExecutor {
  const doFetch = options.fetch ?? fetch;
  const maxRedirects = options.maxRedirects ?? 5;
  return guardedExecutor(
    httpFetchTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      let url = args.url;
      const method = args.method === 'HEAD' ? 'HEAD' : 'GET';
      const hops: string[] = [];
      for (let hop = 0; ; hop++) {
        const target = parseUrlTarget(url);
        if (!target.ok) throw new ToolFailure(`refused ${url}: ${target.reason}`);
        if (!hostAllowed(target.host, context.egressAllowlist)) {
          throw new ToolFailure(
            `refused ${target.host}: not on the egress allowlist${hop > 0 ? ` (redirected from ${hops.join(' -> ')})` : ''}`,
          );
        }
        hops.push(url);
        const signals = [
          AbortSignal.timeout(options.timeoutMs ?? 30_000),
          ...(context.signal ? [context.signal] : []),
        ];
        const response = await doFetch(url, {
          method,
          redirect: 'manual',
          credentials: 'omit',
          signal: AbortSignal.any(signals),
        });
        if (
          response.status >= 300 &&
          response.status < 400 &&
          response.headers.get('location') !== null
        ) {
          if (hop >= maxRedirects) throw new ToolFailure(`more than ${maxRedirects} redirects`);
          url = new URL(response.headers.get('location')!, url).toString();
          await response.body?.cancel();
          continue;
        }
        const output = createOutputBuffer(options.maxOutputBytes);
        output.push(
          `HTTP ${response.status} ${response.statusText}\ncontent-type: ${response.headers.get('content-type') ?? ''}\n\n`,
        );
        if (response.body !== null) {
          // The digest covers the full body, so the stream is read to the end (bounded by the timeout).
          for await (const chunk of response.body) output.push(Buffer.from(chunk as Uint8Array));
        }
        const outcome = response.ok ? 'succeeded' : 'failed';
        return finishReceipt({
          outcome,
          output: output.finish(),
          exitCode: response.status,
          error: response.ok ? null : `HTTP ${response.status}`,
          startedAt,
        });
      }
    },
  );
}
