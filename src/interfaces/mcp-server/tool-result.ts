import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CorrexError } from '../../core/base/correx-error.js';
import type { CorrexEventStore } from '../../core/event-catalog.js';
import { UnknownSessionError } from '../../core/kernel/index.js';

/** A tool's answer: the object as JSON text (what every client shows) and as structured content. */
export function jsonResult(value: Record<string, unknown>, text?: string): CallToolResult {
  return {
    content: [{ type: 'text', text: text ?? JSON.stringify(value, null, 2) }],
    structuredContent: value,
  };
}

/** A refusal the calling model can read and act on (a correx error's code and sentence). */
export function errorResult(error: unknown): CallToolResult {
  const text = CorrexError.isInstance(error)
    ? `${error.code}: ${error.message}`
    : `internal_error: ${error instanceof Error ? error.message : String(error)}`;
  return { isError: true, content: [{ type: 'text', text }] };
}

/** Runs a tool's body; a thrown error becomes an error result instead of a protocol error. */
export async function answer(body: () => Promise<CallToolResult>): Promise<CallToolResult> {
  try {
    return await body();
  } catch (error) {
    return errorResult(error);
  }
}

/** The exact session id (the MCP client got it from `start_session`); unknown is `session_not_found`. */
export async function knownSession(store: CorrexEventStore, sessionId: string): Promise<string> {
  if ((await store.lastSequence(sessionId)) === 0) throw new UnknownSessionError(sessionId);
  return sessionId;
}
