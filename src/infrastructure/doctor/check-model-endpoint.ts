import { existsSync } from 'node:fs';
import type { ModelProfile } from '../../core/inference/model-profile.js';
import type { ProviderConfig } from '../config/harness-config.js';
import { expandHome } from '../providers/provider-factory.js';
import { redactSecrets } from '../providers/redact-secrets.js';
import { passed, problem, type DoctorCheck } from './doctor-check.js';
import { probeFetch, ProbeRedirectError } from './probe-fetch.js';
import { CorrexError } from '../../core/base/correx-error.js';

export type ModelEndpointTarget = {
  readonly profile: ModelProfile;
  readonly providerName: string;
  readonly provider: ProviderConfig;
  /** Where this model is configured, for the fixes: a harness.yaml path, or `OPENAI_BASE_URL`. */
  readonly origin: string;
};

export type ModelEndpointOptions = {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** How long the model list may take (default 5 s, and never longer than `callTimeoutMs`). */
  readonly listTimeoutMs?: number;
  /**
   * How long the one tool-calling request may take, its answer read whole (default 30 s; a
   * slow local model may need `correx doctor --probe-timeout 2m`).
   */
  readonly callTimeoutMs?: number;
};

/** The default bound of the tool-calling probe. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

const ANTHROPIC_ROOT = 'https://api.anthropic.com/v1';
const ANTHROPIC_VERSION = '2023-06-01';
const PROBE_TOOL = {
  name: 'report_ready',
  description: 'Report that you are ready.',
  parameters: {
    type: 'object',
    properties: { ready: { type: 'boolean' } },
    required: ['ready'],
  },
};
const PROBE_PROMPT = 'Call the report_ready tool with ready set to true. Do not answer in text.';

/**
 * The three things a run needs of a model, each checked for real: the server answers, it lists
 * the model, and a tiny request offering one tool comes back with a call of it. A later check is
 * left out once an earlier one fails (it could only fail the same way).
 */
export async function checkModelEndpoint(
  target: ModelEndpointTarget,
  options: ModelEndpointOptions,
): Promise<DoctorCheck[]> {
  const { profile, provider } = target;
  const name = `model ${profile.id}`;
  if (provider.kind === 'llama-cpp') {
    const path = expandHome(provider.modelPath);
    return [
      existsSync(path)
        ? passed(name, `${path} is there; tool calls are constrained by grammar`)
        : problem(
            name,
            `no GGUF file at ${path}`,
            `put the model file there or change providers.${target.providerName}.modelPath in ${target.origin} (correx never downloads a model)`,
          ),
    ];
  }
  const keyName = provider.apiKeyEnv;
  const key = keyName === undefined ? undefined : options.env[keyName];
  if (keyName !== undefined && (key === undefined || key === ''))
    return [
      problem(
        `${name}: key`,
        `${keyName} is not set`,
        `export ${keyName}=... (the key of providers.${target.providerName} in ${target.origin})`,
      ),
    ];
  const wire =
    provider.kind === 'anthropic'
      ? anthropicWire(provider.baseUrl, key!)
      : openAiWire(provider.baseUrl, key);
  const where = `${profile.model} at ${wire.root}`;
  const urlFix =
    target.origin === 'OPENAI_BASE_URL'
      ? 'OPENAI_BASE_URL'
      : `providers.${target.providerName}.baseUrl in ${target.origin}`;

  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const listTimeoutMs = Math.min(options.listTimeoutMs ?? 5000, callTimeoutMs);
  let listing: Awaited<ReturnType<typeof probeFetch>>;
  try {
    listing = await probeFetch(`${wire.root}/models`, { headers: wire.headers }, listTimeoutMs);
  } catch (error) {
    if (error instanceof ProbeRedirectError)
      return [
        problem(
          `${name}: reachable`,
          error.message,
          `point ${urlFix} at the server itself (${new URL(error.to).origin} if that is the right one)`,
        ),
      ];
    return [
      problem(
        `${name}: reachable`,
        `cannot reach ${wire.root}: ${describeFetchError(error, listTimeoutMs)}`,
        `start the model server (llama-server --jinja --port 8080, ollama serve, ...) or correct ${urlFix}`,
      ),
    ];
  }
  const checks: DoctorCheck[] = [];
  if (listing.status === 401 || listing.status === 403)
    return [
      problem(
        `${name}: reachable`,
        `${wire.root} refused the key (HTTP ${listing.status})`,
        keyName === undefined
          ? `the server wants a key: set apiKeyEnv on providers.${target.providerName} (or OPENAI_API_KEY)`
          : `set ${keyName} to a valid key`,
      ),
    ];
  checks.push(passed(`${name}: reachable`, `${wire.root} answers (HTTP ${listing.status})`));
  if (listing.ok) {
    const ids = modelIds(parseJson(listing.text));
    if (ids === null)
      checks.push(passed(`${name}: listed`, `${wire.root}/models lists no models; not checked`));
    else if (ids.includes(profile.model))
      checks.push(
        passed(`${name}: listed`, `${profile.model} is among the ${ids.length} models served`),
      );
    else
      return [
        ...checks,
        problem(
          `${name}: listed`,
          `${wire.root} does not serve ${profile.model}; it serves ${ids.slice(0, 8).join(', ') || 'nothing'}${ids.length > 8 ? ', ...' : ''}`,
          `set the model name in ${target.origin === 'OPENAI_BASE_URL' ? 'CORREX_MODEL' : `models[id=${profile.id}].model of ${target.origin}`} to one the server serves`,
        ),
      ];
  } else {
    checks.push(
      passed(`${name}: listed`, `${wire.root}/models answers HTTP ${listing.status}; not checked`),
    );
  }
  checks.push(
    await checkToolCalling(`${name}: tool calling`, where, wire, profile.model, key, options),
  );
  return checks;
}

type Wire = {
  readonly root: string;
  readonly headers: Record<string, string>;
  request(model: string): { path: string; body: unknown };
  calledTool(body: unknown): boolean;
};

function openAiWire(baseUrl: string, key: string | undefined): Wire {
  return {
    root: baseUrl.replace(/\/+$/, ''),
    headers: {
      'content-type': 'application/json',
      ...(key === undefined ? {} : { authorization: `Bearer ${key}` }),
    },
    request: (model) => ({
      path: '/chat/completions',
      body: {
        model,
        messages: [{ role: 'user', content: PROBE_PROMPT }],
        tools: [{ type: 'function', function: PROBE_TOOL }],
        tool_choice: 'required',
        max_tokens: 64,
        stream: false,
      },
    }),
    calledTool: (body) => {
      const calls = (body as { choices?: { message?: { tool_calls?: unknown[] } }[] } | null)
        ?.choices?.[0]?.message?.tool_calls;
      return Array.isArray(calls) && calls.length > 0;
    },
  };
}

function anthropicWire(baseUrl: string | undefined, key: string): Wire {
  return {
    root: (baseUrl ?? ANTHROPIC_ROOT).replace(/\/+$/, ''),
    headers: {
      'content-type': 'application/json',
      'x-api-key': key,
      'anthropic-version': ANTHROPIC_VERSION,
    },
    request: (model) => ({
      path: '/messages',
      body: {
        model,
        max_tokens: 64,
        messages: [{ role: 'user', content: PROBE_PROMPT }],
        tools: [
          {
            name: PROBE_TOOL.name,
            description: PROBE_TOOL.description,
            input_schema: PROBE_TOOL.parameters,
          },
        ],
        tool_choice: { type: 'any' },
      },
    }),
    calledTool: (body) =>
      ((body as { content?: { type?: string }[] } | null)?.content ?? []).some(
        (part) => part.type === 'tool_use',
      ),
  };
}

async function checkToolCalling(
  name: string,
  where: string,
  wire: Wire,
  model: string,
  key: string | undefined,
  options: ModelEndpointOptions,
): Promise<DoctorCheck> {
  const { path, body } = wire.request(model);
  const fix =
    'use a model and server with tool calling (llama-server needs --jinja; Ollama a model tagged "tools")';
  try {
    const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const response = await probeFetch(
      `${wire.root}${path}`,
      { method: 'POST', headers: wire.headers, body: JSON.stringify(body) },
      callTimeoutMs,
    );
    const text = response.text;
    if (!response.ok)
      return problem(
        name,
        `${where} refused a request with one tool (HTTP ${response.status}): ${clip(redactSecrets(text, [key]))}`,
        fix,
      );
    let parsed: unknown = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // An answer that is not JSON is reported below as no call.
    }
    return wire.calledTool(parsed)
      ? passed(name, `${where} answered a request with one tool by calling it`)
      : problem(name, `${where} answered a request with one tool without calling it`, fix);
  } catch (error) {
    if ((error as Error).name === 'TimeoutError')
      return problem(
        name,
        `${where}: ${describeFetchError(error, options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS)}`,
        'a server that is slow rather than hung (a large local model) may need more: correx doctor --probe-timeout 2m',
      );
    return problem(name, `${where}: ${describeFetchError(error)}`, fix);
  }
}

function modelIds(body: unknown): string[] | null {
  const data =
    (body as { data?: unknown } | null)?.data ?? (body as { models?: unknown } | null)?.models;
  if (!Array.isArray(data)) return null;
  return data
    .map(
      (entry) =>
        (entry as { id?: unknown; name?: unknown }).id ?? (entry as { name?: unknown }).name,
    )
    .filter((id): id is string => typeof id === 'string');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

function describeFetchError(error: unknown, timeoutMs?: number): string {
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  if ((error as Error).name === 'TimeoutError')
    return timeoutMs === undefined ? 'no answer in time' : `no answer within ${timeoutMs / 1000} s`;
  if (CorrexError.isInstance(error)) return error.message;
  return cause?.code ?? cause?.message ?? (error as Error).message;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 200 ? line : `${line.slice(0, 199)}…`;
}
