import { recordedAnswer } from './recorded-answer.js';
import type { CorrexEvent } from '../../../event-catalog.js';
import { canonicalJson, NonCanonicalValueError } from '../../../events/canonical-json.js';
import { InferenceError } from '../../../inference/inference-failure.js';
import {
  InferenceResultSchema,
  type InferenceResult,
} from '../../../inference/inference-result.js';
import type { KernelConfig } from '../../config/kernel-config.js';
import { BOUNDED_REFUSED_ARGUMENTS } from '../../config/kernel-flags.js';
import { runOf, type KernelState } from '../../decider/kernel-state.js';
import { boundRefusedArguments } from '../../features/bounded-refused-arguments/bound-refused-arguments.js';
import { finishingToolName } from '../../features/finishing-tool/finishing-tool.js';
import { turnConfig } from '../../features/follow-up-turns/turn-step.js';
import { KernelWiringError, type EffectPerformer } from './effect-performer.js';

type Payload = CorrexEvent['payload'];

/** Why an answer has no recordable form (it breaks its schema or canonical JSON), if it has none. */
function whyUnrecordable(
  payload: Extract<Payload, { type: 'inference_completed' }>,
): string | undefined {
  const parsed = InferenceResultSchema.safeParse(payload.result);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `$.result.${issue?.path.map(String).join('.') ?? ''} ${issue?.message ?? 'is invalid'}`;
  }
  try {
    canonicalJson(payload);
    return undefined;
  } catch (error) {
    if (error instanceof NonCanonicalValueError) return error.message;
    throw error;
  }
}

/** The answer as recorded: under `bounded-refused-arguments`, refused megabytes kept as heads. */
function boundedAnswer(
  config: KernelConfig,
  state: KernelState,
  answer: InferenceResult,
): InferenceResult {
  if (!config.behaviour.flags.has(BOUNDED_REFUSED_ARGUMENTS.name)) return answer;
  const stage = turnConfig(config, state.features.turns).workflow.stages.get(
    runOf(state)?.stageId ?? '',
  );
  if (stage === undefined) return answer;
  return boundRefusedArguments(config, answer, stage.allowedTools, finishingToolName(stage));
}

const ABORTED = Symbol('aborted');

/** The promise's value, or ABORTED as soon as the signal aborts (whichever comes first). */
function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | typeof ABORTED> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.resolve(ABORTED);
  }
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(ABORTED);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** Asks the routed provider for an answer; records it, or why it failed (an abort records nothing). */
export const performInfer: EffectPerformer<'infer'> = async (options, state, effect, signal) => {
  const { config, ports } = options;
  const provider = ports.providers.get(effect.provider);
  if (provider === undefined) {
    throw new KernelWiringError(
      `no inference provider named ${effect.provider} is wired (request ${effect.requestId})`,
    );
  }
  try {
    // The runner stops waiting the moment the call is aborted, and a result that arrives
    // after its abort is never recorded: the request stays pending and runs on resume.
    const answer = await untilAborted(provider.infer(effect.request, signal), signal);
    if (answer === ABORTED || signal.aborted) return [];
    const result = recordedAnswer(config, boundedAnswer(config, state, answer));
    const completed: Payload = {
      type: 'inference_completed',
      requestId: effect.requestId,
      provider: provider.name,
      requestDigest: effect.requestDigest,
      result,
    };
    const unrecordable = whyUnrecordable(completed);
    // An answer that cannot be written down would stop the session at every resume: record
    // that the answer was malformed instead, which the stage's retry policy reads.
    if (unrecordable !== undefined) {
      throw new InferenceError({
        category: 'malformed_response',
        provider: provider.name,
        message: `the answer cannot be recorded: ${unrecordable}`,
      });
    }
    return [completed];
  } catch (error) {
    if (!(error instanceof InferenceError)) throw error;
    // We aborted it (stop or cancel): a model call has no effect to record, and recording a
    // failure would spend a stage attempt. The request stays pending and runs on resume.
    if (signal.aborted) return [];
    return [
      {
        type: 'inference_failed',
        requestId: effect.requestId,
        provider: provider.name,
        model: effect.request.model,
        category: error.category,
        message: error.message,
        ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }),
      },
    ];
  }
};
