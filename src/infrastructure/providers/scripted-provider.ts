import { readBoundedFile } from '../system/bounded-file-read.js';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { CorrexError } from '../../core/base/correx-error.js';
import {
  InferenceError,
  InferenceFailureCategorySchema,
} from '../../core/inference/inference-failure.js';
import type { InferenceProvider } from '../../core/inference/inference-provider.js';
import type { InferenceRequest } from '../../core/inference/inference-request.js';
import {
  FinishReasonSchema,
  TokenUsageSchema,
  type InferenceResult,
} from '../../core/inference/inference-result.js';
import { createToolCallProposal } from '../../core/inference/tool-call-arguments.js';

const ScriptedToolCallSchema = z
  .strictObject({
    name: z.string().min(1),
    /** Arguments as data; serialized as JSON. */
    args: z.record(z.string(), z.unknown()).optional(),
    /** Or the exact text a model sent, e.g. broken JSON to exercise recovery. */
    argsRaw: z.string().optional(),
    callId: z.string().min(1).optional(),
  })
  .refine((call) => (call.args === undefined) !== (call.argsRaw === undefined), {
    message: 'give exactly one of args or argsRaw',
  });

/** One pre-written model turn: an answer, or a failure to raise. */
export const ScriptedTurnSchema = z.union([
  z.strictObject({
    text: z.string().default(''),
    toolCalls: z.array(ScriptedToolCallSchema).default([]),
    finishReason: FinishReasonSchema.optional(),
    usage: TokenUsageSchema.optional(),
    /**
     * Play `text` as plain text even when the request offers a finishing tool (by default a
     * text-only turn is then played as that tool's call, the way a tool-calling model answers).
     */
    plainText: z.boolean().optional(),
  }),
  /** A model that never answers: the call settles only when it is aborted (as `cancelled`). */
  z.strictObject({ hang: z.literal(true) }),
  z.strictObject({
    fail: z.strictObject({
      category: InferenceFailureCategorySchema,
      message: z.string(),
      retryAfterMs: z.number().int().nonnegative().optional(),
    }),
  }),
]);
export type ScriptedTurn = z.input<typeof ScriptedTurnSchema>;

/** The script is malformed or ran out of turns: a setup mistake, not a model failure. */
export class ScriptedProviderError extends CorrexError {
  constructor(code: 'script_invalid' | 'script_exhausted', message: string) {
    super(code, message);
  }
}

export type ScriptedProvider = InferenceProvider & {
  /** Every request received, in order. */
  readonly requests: readonly InferenceRequest[];
  remainingTurns(): number;
};

/**
 * A test and demo double that plays pre-written turns in order and records the requests it
 * received. Never a stand-in for a real provider in the product. Deterministic: latency 0,
 * call ids derived from the turn and position unless the script names them.
 */
export function createScriptedProvider(options: {
  turns: readonly ScriptedTurn[];
  name?: string;
}): ScriptedProvider {
  const parsed = z.array(ScriptedTurnSchema).safeParse(options.turns);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `turns[${i.path.join('.')}]: ${i.message}`);
    throw new ScriptedProviderError('script_invalid', `invalid script: ${issues.join('; ')}`);
  }
  const turns = parsed.data;
  const name = options.name ?? 'scripted';
  const requests: InferenceRequest[] = [];
  let next = 0;
  const cancelled = () =>
    new InferenceError({
      category: 'cancelled',
      provider: name,
      message: 'the call was cancelled',
    });
  return {
    name,
    requests,
    remainingTurns: () => turns.length - next,
    infer(request, signal, onText) {
      requests.push(request);
      if (signal?.aborted === true) return Promise.reject(cancelled());
      const turn = turns[next];
      if (turn === undefined) {
        return Promise.reject(
          new ScriptedProviderError(
            'script_exhausted',
            `the script has ${turns.length} turns; call ${next + 1} has none`,
          ),
        );
      }
      const index = next;
      next += 1;
      if ('hang' in turn) {
        return new Promise((_resolve, reject) => {
          signal?.addEventListener('abort', () => reject(cancelled()), { once: true });
        });
      }
      if ('fail' in turn) {
        return Promise.reject(new InferenceError({ provider: name, ...turn.fail }));
      }
      const toolCalls = turn.toolCalls.map((call, position) =>
        createToolCallProposal(
          call.callId ?? `scripted-${index + 1}-${position + 1}`,
          call.name,
          call.argsRaw ?? JSON.stringify(call.args),
        ),
      );
      // Scripts write a stage's answer as its JSON text; offered a finishing tool, a
      // tool-calling model sends that answer as the tool's arguments instead.
      const finishing = request.tools.find((tool) => tool.name.startsWith('finish_'));
      const asCall =
        finishing !== undefined &&
        toolCalls.length === 0 &&
        turn.text !== '' &&
        turn.plainText !== true;
      if (asCall)
        toolCalls.push(
          createToolCallProposal(`scripted-${index + 1}-1`, finishing.name, turn.text),
        );
      const result: InferenceResult = {
        text: asCall ? '' : turn.text,
        toolCalls,
        finishReason: turn.finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
        usage: turn.usage ?? { inputTokens: 0, outputTokens: 0 },
        modelId: request.model,
        latencyMs: 0,
      };
      // Played as a model streams it: the answer's text in a few pieces that add up to it.
      try {
        if (onText !== undefined) for (const piece of textPieces(result.text)) onText(piece);
      } catch {
        // A watcher's failure is its own: the answer is the same.
      }
      return Promise.resolve(result);
    },
  };
}

/** `text` in pieces of three words; joined, the pieces are `text`. */
export function textPieces(text: string): string[] {
  const words = text.match(/\S+\s*|\s+/g) ?? [];
  const pieces: string[] = [];
  for (let index = 0; index < words.length; index += 3)
    pieces.push(words.slice(index, index + 3).join(''));
  return pieces;
}

/** Reads a script from a `.json`, `.yaml` or `.yml` file: a list of turns, or `{ turns: [...] }`. */
export async function loadScriptedTurns(path: string): Promise<ScriptedTurn[]> {
  const text = (
    await readBoundedFile(path, { maxBytes: 64 * 1024 * 1024, what: 'the script' })
  ).toString('utf8');
  let data: unknown;
  try {
    data = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new ScriptedProviderError(
      'script_invalid',
      `${path}: not valid ${/\.ya?ml$/i.test(path) ? 'YAML' : 'JSON'}: ${(error as Error).message}`,
    );
  }
  const turns = Array.isArray(data) ? data : (data as { turns?: unknown } | null)?.turns;
  if (!Array.isArray(turns)) {
    throw new ScriptedProviderError(
      'script_invalid',
      `${path}: expected a list of turns or { turns: [...] }`,
    );
  }
  return turns as ScriptedTurn[];
}
