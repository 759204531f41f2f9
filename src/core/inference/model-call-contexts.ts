import { CorrexError } from '../base/correx-error.js';
import type { PayloadOf } from '../events/event-definition.js';
import type { ContextManifest } from './context-manifest.js';
import type { inferenceCompleted, inferenceRequested } from './inference-events.js';
import { sessionManifestReader } from './manifest-history.js';

/**
 * What each model call of a session saw, read from its log: the full context manifest of every
 * `inference_requested` (rebuilt through `manifest-history.ts` when it was recorded by
 * reference), what changed from the previous call of the same stage, and what the model reported
 * using. The one read model behind `correx show --context`, the REST context routes and the web
 * page's context panel.
 */
export type ModelCallContext = {
  readonly requestId: string;
  readonly stageId: string;
  /** The sequence of its `inference_requested`. */
  readonly sequence: number;
  readonly profileId: string;
  readonly provider: string;
  readonly model: string;
  readonly packDigest: string;
  /** correx's estimate of the whole request's tokens (pack, tools, schema). */
  readonly tokenEstimate: number;
  readonly toolNames: readonly string[];
  /** How the log holds the manifest: whole, or as the change from the previous one. */
  readonly recordedAs: 'whole' | 'reference';
  readonly manifest: ContextManifest;
  /** Against the previous call of the same stage (null for its first): included ids in and out. */
  readonly change: {
    readonly added: readonly string[];
    readonly dropped: readonly string[];
  } | null;
  /** The input tokens the model reported for this call; null while unanswered or failed. */
  readonly reportedInputTokens: number | null;
};

type ContextEvent = {
  readonly sequence: number;
  readonly payload: { readonly type: string };
};

type RequestedPayload = PayloadOf<typeof inferenceRequested> & { readonly type: string };
type CompletedPayload = PayloadOf<typeof inferenceCompleted> & { readonly type: string };

/** Every model call of the log `events` (one session's, in order; a fork's prefix included). */
export function modelCallContexts(events: Iterable<ContextEvent>): ModelCallContext[] {
  const read = sessionManifestReader();
  const calls: ModelCallContext[] = [];
  const byRequest = new Map<string, number>();
  const lastOfStage = new Map<string, ContextManifest>();
  for (const event of events) {
    if (event.payload.type === 'inference_completed') {
      const payload = event.payload as unknown as CompletedPayload;
      const at = byRequest.get(payload.requestId);
      if (at !== undefined)
        calls[at] = { ...calls[at]!, reportedInputTokens: payload.result.usage.inputTokens };
      continue;
    }
    if (event.payload.type !== 'inference_requested') continue;
    const payload = event.payload as unknown as RequestedPayload;
    const manifest = read(payload);
    const previous = lastOfStage.get(payload.stageId);
    lastOfStage.set(payload.stageId, manifest);
    byRequest.set(payload.requestId, calls.length);
    calls.push({
      requestId: payload.requestId,
      stageId: payload.stageId,
      sequence: event.sequence,
      profileId: payload.profileId,
      provider: payload.provider,
      model: payload.model,
      packDigest: payload.packDigest,
      tokenEstimate: payload.tokenEstimate,
      toolNames: payload.toolNames,
      recordedAs: payload.manifest === undefined ? 'reference' : 'whole',
      manifest,
      change: previous === undefined ? null : includedChange(previous, manifest),
      reportedInputTokens: null,
    });
  }
  return calls;
}

function includedChange(
  previous: ContextManifest,
  next: ContextManifest,
): { readonly added: readonly string[]; readonly dropped: readonly string[] } {
  const before = new Set(previous.included.map((entry) => entry.id));
  const after = new Set(next.included.map((entry) => entry.id));
  return {
    added: next.included.filter((entry) => !before.has(entry.id)).map((entry) => entry.id),
    dropped: previous.included.filter((entry) => !after.has(entry.id)).map((entry) => entry.id),
  };
}

/** A model call that a session does not have (by request id, position or `last`). */
export class ModelCallNotFoundError extends CorrexError {
  constructor(sessionId: string, ref: string, calls: number) {
    super(
      'model_call_not_found',
      `session ${sessionId} has no model call ${JSON.stringify(ref)}: name one by its request id, its position (1 to ${calls}) or \`last\``,
    );
  }
}

/**
 * The call `ref` names among `calls`: its request id, its 1-based position (`3`), or `last`;
 * undefined when none matches.
 */
export function findModelCall(
  calls: readonly ModelCallContext[],
  ref: string,
): ModelCallContext | undefined {
  if (ref === 'last') return calls.at(-1);
  const exact = calls.find((call) => call.requestId === ref);
  if (exact !== undefined) return exact;
  if (!/^[1-9][0-9]*$/.test(ref)) return undefined;
  return calls[Number(ref) - 1];
}
