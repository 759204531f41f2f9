import { homedir } from 'node:os';
import { join } from 'node:path';
import { CorrexError } from '../../core/base/correx-error.js';
import type { InferenceProvider } from '../../core/inference/inference-provider.js';
import type { ProviderConfig } from '../config/harness-config.js';
import { createAnthropicProvider } from './anthropic-provider.js';
import { LlamaCppProvider } from './llama-cpp-provider.js';
import { createOpenAICompatibleProvider } from './openai-compatible-provider.js';
import { withProviderBackoff } from './provider-backoff.js';

/** A provider named by a model profile cannot be built (missing key, unknown name). */
export class ProviderSetupError extends CorrexError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('provider_setup', message, options);
  }
}

/** The providers a session needs, by name, and a way to release local models. */
export type ProviderSet = {
  readonly providers: ReadonlyMap<string, InferenceProvider>;
  dispose(): Promise<void>;
};

export type CreateProvidersOptions = {
  /** `providers:` from harness.yaml. */
  readonly configs: Readonly<Record<string, ProviderConfig>>;
  /** The provider names the session's model profiles use; only these are built. */
  readonly names: readonly string[];
  /** Where `apiKeyEnv` is looked up (the process environment in the product). */
  readonly env: Readonly<Record<string, string | undefined>>;
};

/**
 * Builds the provider instances a session's model profiles name, from configuration. Keys come
 * from the environment variable each provider names, never from the file. A local GGUF model is
 * loaded here (and released by `dispose`); nothing is ever downloaded.
 */
export async function createProviders(options: CreateProvidersOptions): Promise<ProviderSet> {
  const providers = new Map<string, InferenceProvider>();
  const local: LlamaCppProvider[] = [];
  const dispose = async () => {
    for (const provider of local) await provider.dispose();
  };
  try {
    for (const name of new Set(options.names)) {
      const config = options.configs[name];
      if (config === undefined)
        throw new ProviderSetupError(
          `no provider "${name}" is configured under providers: in harness.yaml`,
        );
      const provider = await createProvider(name, config, options.env);
      if (provider instanceof LlamaCppProvider) local.push(provider);
      providers.set(name, provider);
    }
  } catch (error) {
    await dispose();
    throw error;
  }
  return { providers, dispose };
}

async function createProvider(
  name: string,
  config: ProviderConfig,
  env: CreateProvidersOptions['env'],
): Promise<InferenceProvider> {
  switch (config.kind) {
    case 'openai-compatible': {
      const apiKey =
        config.apiKeyEnv === undefined ? undefined : requireKey(name, config.apiKeyEnv, env);
      // A server that is down is retried after growing delays, not three times in a row.
      return withProviderBackoff(
        createOpenAICompatibleProvider({
          name,
          baseURL: config.baseUrl,
          ...(apiKey === undefined ? {} : { apiKey }),
          streaming: config.streaming,
          supportsStructuredOutputs: config.structuredOutputs,
        }),
      );
    }
    case 'anthropic':
      return withProviderBackoff(
        createAnthropicProvider({
          name,
          apiKey: requireKey(name, config.apiKeyEnv, env),
          ...(config.baseUrl === undefined ? {} : { baseURL: config.baseUrl }),
          streaming: config.streaming,
        }),
      );
    case 'llama-cpp':
      return LlamaCppProvider.load({
        name,
        modelPath: expandHome(config.modelPath),
        gpu: config.gpu,
        ...(config.contextSize === undefined ? {} : { contextSize: config.contextSize }),
        ...(config.threads === undefined ? {} : { threads: config.threads }),
        ...(config.gpuLayers === undefined ? {} : { gpuLayers: config.gpuLayers }),
        ...(config.batchSize === undefined ? {} : { batchSize: config.batchSize }),
        ...(config.timeoutMs === undefined ? {} : { timeoutMs: config.timeoutMs }),
      });
  }
}

function requireKey(
  provider: string,
  variable: string,
  env: CreateProvidersOptions['env'],
): string {
  const key = env[variable];
  if (key === undefined || key === '')
    throw new ProviderSetupError(
      `provider "${provider}" needs an API key: set the environment variable ${variable}`,
    );
  return key;
}

export function expandHome(path: string): string {
  return path === '~' || path.startsWith('~/') ? join(homedir(), path.slice(1)) : path;
}
