import { APICallError, RetryError } from 'ai';
import {
  InferenceError,
  type InferenceFailureCategory,
} from '../../core/inference/inference-failure.js';
import { redactSecrets } from './redact-secrets.js';

export type CallContext = {
  readonly provider: string;
  readonly secrets: readonly (string | undefined)[];
  readonly callerSignal: AbortSignal | undefined;
  readonly timeoutSignal: AbortSignal;
  readonly timeoutMs: number;
  /** Whether any part of a response had arrived (a failure after that is a cut-off response). */
  readonly receivedAnything: boolean;
};

/**
 * Maps whatever a provider SDK or fetch threw onto correx's closed failure categories. Messages
 * are written here, from status codes and short provider texts, and redacted; the original
 * error is not attached as `cause` because SDK errors carry request details.
 */
export function classifyProviderError(error: unknown, context: CallContext): InferenceError {
  const make = (category: InferenceFailureCategory, message: string, retryAfterMs?: number) =>
    new InferenceError({
      category,
      provider: context.provider,
      message: redactSecrets(message, context.secrets),
      ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    });
  if (error instanceof InferenceError) return error;
  if (context.callerSignal?.aborted === true) return make('cancelled', 'the call was cancelled');
  if (context.timeoutSignal.aborted) {
    return make('timeout', `no complete answer within ${context.timeoutMs} ms`);
  }
  const inner = RetryError.isInstance(error) ? error.lastError : error;
  if (APICallError.isInstance(inner)) {
    const status = inner.statusCode;
    const detail = shorten(inner.message);
    if (status === undefined) return make('provider_down', `request failed: ${detail}`);
    const configuration = configurationProblem(
      status,
      `${inner.message} ${inner.responseBody ?? ''}`,
    );
    if (configuration !== undefined) return make('configuration', configuration);
    if (status === 429) {
      return make('rate_limit', `HTTP 429: ${detail}`, retryAfterMs(inner.responseHeaders));
    }
    if (status === 401 || status === 403)
      return make('auth', `HTTP ${status}: credentials refused`);
    if (status === 408) return make('timeout', `HTTP 408: ${detail}`);
    // A server still loading (llama-server's 503) or overloaded may say when to come back.
    if (status >= 500)
      return make(
        'provider_down',
        `HTTP ${status}: ${detail}`,
        retryAfterMs(inner.responseHeaders),
      );
    if (status >= 400) return make('invalid_request', `HTTP ${status}: ${detail}`);
    return make('malformed_response', `unexpected HTTP ${status}: ${detail}`);
  }
  const name = inner instanceof Error ? inner.name : '';
  const message = inner instanceof Error ? inner.message : String(inner);
  // What a hostile body does to a parser (nesting that overflows the stack, a body past the
  // longest string V8 can hold) says the answer is unreadable, not that the server is down.
  if (inner instanceof RangeError && /call stack|string length/i.test(message)) {
    return make('malformed_response', `unreadable response: ${tooBigToRead(message)}`);
  }
  if (
    /JSONParseError|InvalidResponseDataError|TypeValidationError|EmptyResponseBodyError|NoOutputGeneratedError|NoObjectGeneratedError|NoContentGeneratedError/.test(
      name,
    )
  ) {
    return make('malformed_response', `unreadable response: ${shorten(message)}`);
  }
  if (context.receivedAnything) {
    return make('malformed_response', `the response was cut off: ${shorten(message)}`);
  }
  return make('provider_down', `request failed: ${shorten(message)}${causeCode(inner)}`);
}

/**
 * A refusal that no retry can change, as one sentence saying what to change. Matched on the
 * servers' own texts: llama-server's template refusal (any status; it answers 500), Ollama's and
 * vLLM's "no tools here", and an unknown model or endpoint (404).
 */
export function configurationProblem(status: number, text: string): string | undefined {
  if (/tools param requires --jinja/i.test(text))
    return 'the server refuses tool calls without a chat template: start llama-server with --jinja';
  if (
    /does not support tools|tool choice requires|--enable-auto-tool-choice|tools are not supported/i.test(
      text,
    )
  )
    return `the model or endpoint does not support tool calls: serve a tool-calling model (vLLM: --enable-auto-tool-choice --tool-call-parser), or declare the profile without tool_calling (${shorten(text).slice(0, 160)})`;
  if (status === 404)
    return `the server has no such model or endpoint (HTTP 404): check the profile's model name and the base URL (${shorten(text).slice(0, 160)})`;
  return undefined;
}

/** `retry-after` (seconds or an HTTP date) or `retry-after-ms`, as milliseconds. */
export function retryAfterMs(headers: Record<string, string> | undefined): number | undefined {
  if (headers === undefined) return undefined;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number(lower['retry-after-ms']);
  if (lower['retry-after-ms'] !== undefined && Number.isFinite(ms) && ms >= 0)
    return Math.round(ms);
  const value = lower['retry-after'];
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (value.trim() !== '' && Number.isFinite(seconds) && seconds >= 0)
    return Math.round(seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function tooBigToRead(message: string): string {
  return /call stack/i.test(message) ? 'nested too deep to parse' : 'too large to hold in memory';
}

function shorten(text: string): string {
  const oneLine = text.replace(/\s+/g, ' ').trim();
  return oneLine.length > 300 ? `${oneLine.slice(0, 300)}...` : oneLine;
}

function causeCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | undefined)?.cause;
  return typeof cause?.code === 'string' ? ` (${cause.code})` : '';
}
