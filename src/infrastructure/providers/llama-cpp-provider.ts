import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { CorrexError } from '../../core/base/correx-error.js';
import type { Tokenizer } from '../../core/context/tokenizer.js';
import { InferenceError } from '../../core/inference/inference-failure.js';
import type { InferenceProvider } from '../../core/inference/inference-provider.js';
import type { InferenceRequest } from '../../core/inference/inference-request.js';
import type { InferenceResult } from '../../core/inference/inference-result.js';
import { createLlamaCppTokenizer } from '../tokenizers/llama-cpp-tokenizer.js';
import { defaultLocalThreads } from './physical-cores.js';
import {
  parseToolEnvelope,
  toGrammarSchema,
  toLlamaChat,
  toolCallEnvelopeSchema,
  toolInstructions,
  type LlamaChatHistoryItem,
} from './llama-cpp-tool-grammar.js';

/**
 * A call's usage: the meter counts only the prompt tokens it evaluated, so the prompt's size is
 * what the sequence holds minus the answer, and the difference is the prefix reused from the
 * previous call (llama.cpp's cache).
 */
function localUsage(
  sequence: Sequence,
  before: { input: number; output: number },
): { inputTokens: number; cachedInputTokens?: number; outputTokens: number } {
  const evaluated = (sequence.tokenMeter?.usedInputTokens ?? 0) - before.input;
  const outputTokens = (sequence.tokenMeter?.usedOutputTokens ?? 0) - before.output;
  if (sequence.contextTokens === undefined) return { inputTokens: evaluated, outputTokens };
  const inputTokens = Math.max(evaluated, sequence.contextTokens.length - outputTokens);
  return { inputTokens, cachedInputTokens: inputTokens - evaluated, outputTokens };
}

/** node-llama-cpp is an optional dependency and is not installed (or its binary did not load). */
export class LlamaCppUnavailableError extends CorrexError {
  constructor(options?: { cause?: unknown }) {
    super(
      'llama_cpp_unavailable',
      'node-llama-cpp is not available: install it (npm install node-llama-cpp@3.21.1) to run local GGUF models',
      options,
    );
  }
}

/** The GGUF file does not exist or is not a file. */
export class LlamaCppModelNotFoundError extends CorrexError {
  constructor(modelPath: string) {
    super('llama_cpp_model_not_found', `no GGUF model file at ${modelPath}`);
  }
}

// The few node-llama-cpp shapes used here, typed structurally so correx compiles without it.
type Grammar = unknown;
type ChatSession = {
  setChatHistory(history: LlamaChatHistoryItem[]): void;
  promptWithMeta(
    prompt: string,
    options: { maxTokens: number; signal: AbortSignal; temperature?: number; grammar?: Grammar },
  ): Promise<{ responseText: string; stopReason: string }>;
  dispose(): void;
};
type Sequence = {
  tokenMeter?: { usedInputTokens: number; usedOutputTokens: number };
  /** Every token the sequence holds now: the whole prompt (reused prefix included) and the answer. */
  readonly contextTokens?: readonly unknown[];
};
type Context = { getSequence(): Sequence; dispose(): Promise<void> };
type Model = {
  tokenize(text: string): readonly unknown[];
  createContext(options: {
    contextSize?: number;
    batchSize?: number;
    threads?: number;
  }): Promise<Context>;
  dispose(): Promise<void>;
};
type Llama = {
  loadModel(options: { modelPath: string; gpuLayers?: number | 'auto' | 'max' }): Promise<Model>;
  createGrammarForJsonSchema(schema: unknown): Promise<Grammar>;
  dispose(): Promise<void>;
};
type LlamaModule = {
  getLlama(options?: { gpu?: false | 'auto' }): Promise<Llama>;
  LlamaChatSession: new (options: {
    contextSequence: Sequence;
    autoDisposeSequence: boolean;
  }) => ChatSession;
};

export type LlamaCppProviderOptions = {
  /** Path of a GGUF file on disk. No model is ever downloaded by correx. */
  readonly modelPath: string;
  readonly name?: string;
  readonly contextSize?: number;
  /** `false` runs on CPU only; default `auto`. */
  readonly gpu?: false | 'auto';
  /** CPU threads of a generation; default every physical core but one (at least 1). */
  readonly threads?: number;
  /** Layers offloaded to the GPU: a number, `max`, or `auto` (node-llama-cpp decides; default). */
  readonly gpuLayers?: number | 'auto' | 'max';
  /** Tokens evaluated per batch while reading the prompt; default node-llama-cpp's. */
  readonly batchSize?: number;
  /** Upper bound on one call, below the kernel's inference timeout when smaller. */
  readonly timeoutMs?: number;
  /** For tests: where to import node-llama-cpp from. */
  readonly importModule?: () => Promise<unknown>;
};

/**
 * A local GGUF model through node-llama-cpp. Owns the native model and context: create with
 * `LlamaCppProvider.load`, release with `dispose`. Calls are serialized on one context sequence.
 * With tools, output is constrained by a JSON-schema grammar to a tool call or an answer.
 */
export class LlamaCppProvider implements InferenceProvider {
  readonly name: string;
  readonly tokenizer: Tokenizer;
  private queue: Promise<unknown> = Promise.resolve();
  private disposed = false;
  private calls = 0;
  private readonly grammars = new Map<string, Promise<Grammar>>();

  private constructor(
    private readonly module: LlamaModule,
    private readonly llama: Llama,
    private readonly model: Model,
    private readonly context: Context,
    private readonly sequence: Sequence,
    name: string,
    private readonly modelName: string,
    private readonly timeoutMs: number | undefined,
  ) {
    this.name = name;
    this.tokenizer = createLlamaCppTokenizer(model, modelName);
  }

  static async load(options: LlamaCppProviderOptions): Promise<LlamaCppProvider> {
    const file = await stat(options.modelPath).catch(() => undefined);
    if (file === undefined || !file.isFile())
      throw new LlamaCppModelNotFoundError(options.modelPath);
    let module: LlamaModule;
    try {
      module = (await (options.importModule ?? (() => import('node-llama-cpp')))()) as LlamaModule;
    } catch (error) {
      throw new LlamaCppUnavailableError({ cause: error });
    }
    const llama = await module.getLlama({ gpu: options.gpu ?? 'auto' });
    let model: Model | undefined;
    try {
      model = await llama.loadModel({
        modelPath: options.modelPath,
        ...(options.gpuLayers === undefined ? {} : { gpuLayers: options.gpuLayers }),
      });
      const context = await model.createContext({
        threads: options.threads ?? defaultLocalThreads(),
        ...(options.contextSize === undefined ? {} : { contextSize: options.contextSize }),
        ...(options.batchSize === undefined ? {} : { batchSize: options.batchSize }),
      });
      const modelName = basename(options.modelPath);
      return new LlamaCppProvider(
        module,
        llama,
        model,
        context,
        context.getSequence(),
        options.name ?? `llama-cpp:${modelName}`,
        modelName,
        options.timeoutMs,
      );
    } catch (error) {
      // A half-loaded model still holds native memory: release what was created.
      await model?.dispose();
      await llama.dispose();
      throw error;
    }
  }

  infer(request: InferenceRequest, signal?: AbortSignal): Promise<InferenceResult> {
    const run = this.queue.then(() => this.run(request, signal));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async run(
    request: InferenceRequest,
    signal: AbortSignal | undefined,
  ): Promise<InferenceResult> {
    if (this.disposed)
      throw new InferenceError({
        category: 'provider_down',
        provider: this.name,
        message: 'the model was disposed',
      });
    const started = performance.now();
    const timeoutMs = Math.min(
      request.limits.timeoutMs,
      this.timeoutMs ?? Number.POSITIVE_INFINITY,
    );
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = AbortSignal.any(signal === undefined ? [timeout] : [signal, timeout]);
    const sequence = this.sequence;
    // One session per call over the shared sequence; the history is set from the request, and
    // llama.cpp reuses the cached prefix it has in common with the previous call.
    const session = new this.module.LlamaChatSession({
      contextSequence: sequence,
      autoDisposeSequence: false,
    });
    const before = {
      input: sequence.tokenMeter?.usedInputTokens ?? 0,
      output: sequence.tokenMeter?.usedOutputTokens ?? 0,
    };
    try {
      const hasTools = request.tools.length > 0;
      const schema = hasTools
        ? toolCallEnvelopeSchema(request.tools)
        : request.responseSchema === undefined
          ? undefined
          : toGrammarSchema(request.responseSchema);
      const grammar = schema === undefined ? undefined : await this.grammarFor(schema);
      const { history, prompt } = toLlamaChat(
        request.messages,
        hasTools ? toolInstructions(request.tools) : undefined,
      );
      session.setChatHistory(history);
      const answer = await session.promptWithMeta(prompt, {
        maxTokens: request.limits.maxOutputTokens,
        signal: combined,
        ...(request.limits.temperature === undefined
          ? {}
          : { temperature: request.limits.temperature }),
        ...(grammar === undefined ? {} : { grammar }),
      });
      this.calls += 1;
      const parsed = hasTools
        ? parseToolEnvelope(answer.responseText, `local-${this.calls}`)
        : { text: answer.responseText, toolCalls: [] };
      return {
        text: parsed.text,
        toolCalls: parsed.toolCalls,
        finishReason:
          answer.stopReason === 'maxTokens'
            ? 'length'
            : parsed.toolCalls.length > 0
              ? 'tool_calls'
              : 'stop',
        usage: localUsage(sequence, before),
        modelId: this.modelName,
        latencyMs: Math.round(performance.now() - started),
      };
    } catch (error) {
      if (signal?.aborted === true)
        throw new InferenceError({
          category: 'cancelled',
          provider: this.name,
          message: 'the call was cancelled',
        });
      if (timeout.aborted)
        throw new InferenceError({
          category: 'timeout',
          provider: this.name,
          message: `no answer within ${timeoutMs} ms`,
        });
      const message = error instanceof Error ? error.message : String(error);
      throw new InferenceError({
        category: 'invalid_request',
        provider: this.name,
        message: `local generation failed: ${message}`,
      });
    } finally {
      session.dispose();
    }
  }

  /**
   * A stage offers the same tools turn after turn: its grammar is compiled once, not per call
   * (compiling runs on the event loop).
   */
  private grammarFor(schema: unknown): Promise<Grammar> {
    const key = JSON.stringify(schema);
    let grammar = this.grammars.get(key);
    if (grammar === undefined) {
      grammar = this.llama.createGrammarForJsonSchema(schema);
      grammar.catch(() => this.grammars.delete(key));
      this.grammars.set(key, grammar);
    }
    return grammar;
  }

  /** Releases the context, the model and the llama.cpp backend. Idempotent. */
  async dispose(): Promise<void> {
    if (this.disposed) return;
    this.disposed = true;
    await this.queue;
    await this.context.dispose();
    await this.model.dispose();
    await this.llama.dispose();
  }
}
