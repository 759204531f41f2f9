import { createAnthropic } from '@ai-sdk/anthropic';
import type { InferenceProvider } from '../../core/inference/inference-provider.js';
import { callThroughAiSdk } from './ai-sdk-inference.js';

export type AnthropicProviderOptions = {
  /** Default `anthropic`. */
  readonly name?: string;
  readonly apiKey: string;
  /** Default `https://api.anthropic.com/v1`. */
  readonly baseURL?: string;
  /** Stream the answer (SSE). Default true. */
  readonly streaming?: boolean;
};

/** Anthropic's Messages API through the Vercel AI SDK. */
export function createAnthropicProvider(options: AnthropicProviderOptions): InferenceProvider {
  const name = options.name ?? 'anthropic';
  const sdk = createAnthropic({
    apiKey: options.apiKey,
    ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
  });
  return {
    name,
    infer: (request, signal, onText) =>
      callThroughAiSdk({
        provider: name,
        model: sdk.messages(request.model),
        request,
        signal,
        onText,
        streaming: options.streaming ?? true,
        secrets: [options.apiKey],
      }),
  };
}
