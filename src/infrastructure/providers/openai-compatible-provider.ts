import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import type { InferenceProvider } from '../../core/inference/inference-provider.js';
import { callThroughAiSdk } from './ai-sdk-inference.js';

export type OpenAICompatibleProviderOptions = {
  /** Name used in events and model profiles, e.g. `openai-compatible:llama-server`. */
  readonly name: string;
  /** The API root including `/v1`, e.g. `http://127.0.0.1:8080/v1`. */
  readonly baseURL: string;
  readonly apiKey?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** Stream the answer (SSE). Default true: a stalled stream is detected by the call timeout. */
  readonly streaming?: boolean;
  /** Whether the server honours `response_format: json_schema` (vLLM, llama-server, OpenAI do). */
  readonly supportsStructuredOutputs?: boolean;
};

/**
 * Any server speaking the OpenAI chat-completions protocol: llama.cpp's `llama-server`, vLLM,
 * Ollama, LM Studio, OpenAI itself. Through the Vercel AI SDK, not hand-written HTTP.
 */
export function createOpenAICompatibleProvider(
  options: OpenAICompatibleProviderOptions,
): InferenceProvider {
  const sdk = createOpenAICompatible({
    name: options.name,
    baseURL: options.baseURL,
    ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
    ...(options.headers === undefined ? {} : { headers: { ...options.headers } }),
    includeUsage: true,
    supportsStructuredOutputs: options.supportsStructuredOutputs ?? false,
  });
  return {
    name: options.name,
    infer: (request, signal, onText) =>
      callThroughAiSdk({
        provider: options.name,
        model: sdk.chatModel(request.model),
        request,
        signal,
        onText,
        streaming: options.streaming ?? true,
        secrets: [options.apiKey, ...Object.values(options.headers ?? {})],
        schemaInPrompt: options.supportsStructuredOutputs !== true,
      }),
  };
}
