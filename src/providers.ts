/**
 * `correx/providers`: model backends (OpenAI-compatible endpoints, Anthropic, an in-process GGUF
 * through node-llama-cpp) and the router that picks one per request. Loads the AI SDK.
 */
export {
  createOpenAICompatibleProvider,
  type OpenAICompatibleProviderOptions,
} from './infrastructure/providers/openai-compatible-provider.js';
export {
  createAnthropicProvider,
  type AnthropicProviderOptions,
} from './infrastructure/providers/anthropic-provider.js';
export {
  LlamaCppProvider,
  LlamaCppUnavailableError,
  LlamaCppModelNotFoundError,
  type LlamaCppProviderOptions,
} from './infrastructure/providers/llama-cpp-provider.js';
export {
  createProviders,
  ProviderSetupError,
  type ProviderSet,
} from './infrastructure/providers/provider-factory.js';
export { redactSecrets } from './infrastructure/providers/redact-secrets.js';
export {
  createLlamaCppTokenizer,
  type TokenizingModel,
} from './infrastructure/tokenizers/llama-cpp-tokenizer.js';
export {
  createInferenceRouter,
  parseModelProfiles,
  InvalidModelProfilesError,
  type InferenceRouter,
} from './core/inference/inference-router.js';
export {
  createReplayInferenceProvider,
  ReplayMissingRecordingError,
} from './core/inference/replay-inference-provider.js';
