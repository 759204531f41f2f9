import type { ModelProfile } from '../../core/inference/model-profile.js';
import type { ProviderConfig } from './harness-config.js';
import { ConfigFileError } from './yaml-source.js';

/** The provider name and profile id of a model configured by environment variables. */
export const ENVIRONMENT_PROVIDER = 'env-openai';
/** The provider name of an Anthropic model configured by `ANTHROPIC_API_KEY`. */
export const ENVIRONMENT_ANTHROPIC_PROVIDER = 'env-anthropic';
/** The model `ANTHROPIC_API_KEY` alone runs (`CORREX_MODEL` or `ANTHROPIC_MODEL` names another). */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-5';
export const ENVIRONMENT_PROFILE = 'env';

export type EnvironmentModel = {
  readonly providerName: string;
  readonly provider: ProviderConfig;
  readonly profile: ModelProfile;
};

/**
 * The quickest way to a real run: with no models in harness.yaml, `OPENAI_BASE_URL` (any
 * OpenAI-compatible server: llama.cpp's llama-server, Ollama, vLLM, OpenAI) plus `CORREX_MODEL`
 * (or `OPENAI_MODEL`) configure one model; `OPENAI_API_KEY` is sent when set. The context window
 * is `CORREX_CONTEXT_WINDOW` (default 32768) since servers do not report it. The stage result's
 * schema is always sent: as the finishing tool's parameters, or for a JSON answer in
 * `response_format` (in the prompt with `CORREX_STRUCTURED_OUTPUTS=false`).
 */
export function environmentModel(
  env: Readonly<Record<string, string | undefined>>,
): EnvironmentModel | undefined {
  const baseUrl = env.OPENAI_BASE_URL;
  if (baseUrl === undefined || baseUrl === '') return anthropicEnvironmentModel(env);
  const model = env.CORREX_MODEL || env.OPENAI_MODEL;
  if (model === undefined || model === '')
    throw new ConfigFileError(
      'environment',
      'OPENAI_BASE_URL is set but no model is named: set CORREX_MODEL to the model the server serves',
    );
  const window = Number(env.CORREX_CONTEXT_WINDOW ?? '32768');
  if (!Number.isInteger(window) || window < 1024)
    throw new ConfigFileError(
      'environment',
      `CORREX_CONTEXT_WINDOW must be a whole number of tokens (at least 1024), got ${env.CORREX_CONTEXT_WINDOW}`,
    );
  let parsedUrl: URL;
  try {
    parsedUrl = new URL(baseUrl);
  } catch {
    throw new ConfigFileError('environment', `OPENAI_BASE_URL is not a URL: ${baseUrl}`);
  }
  return {
    providerName: ENVIRONMENT_PROVIDER,
    provider: {
      kind: 'openai-compatible',
      baseUrl: parsedUrl.toString().replace(/\/$/, ''),
      ...(env.OPENAI_API_KEY ? { apiKeyEnv: 'OPENAI_API_KEY' } : {}),
      streaming: true,
      // llama-server, vLLM, Ollama, LM Studio and OpenAI honour `response_format: json_schema`;
      // CORREX_STRUCTURED_OUTPUTS=false writes the schema into the prompt instead.
      structuredOutputs: env.CORREX_STRUCTURED_OUTPUTS !== 'false',
    },
    profile: {
      id: ENVIRONMENT_PROFILE,
      provider: ENVIRONMENT_PROVIDER,
      model,
      capabilities: ['tool_calling', 'json_output'],
      contextWindow: window,
      maxOutputTokens: 4096,
      priority: 0,
    },
  };
}

/**
 * Without `OPENAI_BASE_URL`, `ANTHROPIC_API_KEY` configures one Anthropic model the same way:
 * `CORREX_MODEL` (or `ANTHROPIC_MODEL`, default claude-sonnet-4-5), `ANTHROPIC_BASE_URL` when set,
 * a 200,000-token window unless `CORREX_CONTEXT_WINDOW` says otherwise.
 */
function anthropicEnvironmentModel(
  env: Readonly<Record<string, string | undefined>>,
): EnvironmentModel | undefined {
  if (!env.ANTHROPIC_API_KEY) return undefined;
  const window = Number(env.CORREX_CONTEXT_WINDOW ?? '200000');
  if (!Number.isInteger(window) || window < 1024)
    throw new ConfigFileError(
      'environment',
      `CORREX_CONTEXT_WINDOW must be a whole number of tokens (at least 1024), got ${env.CORREX_CONTEXT_WINDOW}`,
    );
  const baseUrl = env.ANTHROPIC_BASE_URL;
  if (baseUrl) {
    try {
      new URL(baseUrl);
    } catch {
      throw new ConfigFileError('environment', `ANTHROPIC_BASE_URL is not a URL: ${baseUrl}`);
    }
  }
  return {
    providerName: ENVIRONMENT_ANTHROPIC_PROVIDER,
    provider: {
      kind: 'anthropic',
      apiKeyEnv: 'ANTHROPIC_API_KEY',
      ...(baseUrl ? { baseUrl: baseUrl.replace(/\/$/, '') } : {}),
      streaming: true,
    },
    profile: {
      id: ENVIRONMENT_PROFILE,
      provider: ENVIRONMENT_ANTHROPIC_PROVIDER,
      model: env.CORREX_MODEL || env.ANTHROPIC_MODEL || DEFAULT_ANTHROPIC_MODEL,
      capabilities: ['tool_calling', 'json_output'],
      contextWindow: window,
      maxOutputTokens: 8192,
      priority: 0,
    },
  };
}
