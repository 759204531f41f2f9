import {
  generateText,
  jsonSchema,
  Output,
  streamText,
  tool,
  wrapLanguageModel,
  type FinishReason as AiFinishReason,
  type JSONSchema7,
  type ToolSet,
} from 'ai';
import { InferenceError } from '../../core/inference/inference-failure.js';
import type { InferenceTextObserver } from '../../core/inference/inference-provider.js';
import type { InferenceRequest } from '../../core/inference/inference-request.js';
import type { FinishReason, InferenceResult } from '../../core/inference/inference-result.js';
import { createToolCallProposal } from '../../core/inference/tool-call-arguments.js';
import { classifyProviderError } from './classify-provider-error.js';
import { createToolCallNormaliser, wellFormedText } from './tool-call-normaliser.js';
import { toModelMessages, withSchemaInPrompt } from './ai-sdk-messages.js';
import { toWireSchema } from './wire-tool-schema.js';

export type LanguageModelV3 = Parameters<typeof wrapLanguageModel>[0]['model'];

export type AiSdkCallOptions = {
  readonly provider: string;
  readonly model: LanguageModelV3;
  readonly request: InferenceRequest;
  readonly signal: AbortSignal | undefined;
  readonly streaming: boolean;
  /** Told the answer's text deltas as they stream (a live view; nothing when not streaming). */
  readonly onText?: InferenceTextObserver | undefined;
  /** Credentials to scrub from any message. */
  readonly secrets: readonly (string | undefined)[];
  /**
   * The server ignores `response_format: json_schema` (the SDK then sends a schema-less
   * `json_object`): a response schema is written into the system prompt instead.
   */
  readonly schemaInPrompt?: boolean;
};

/**
 * One call through the Vercel AI SDK. Tools are declared without `execute` (correx runs tools
 * itself); the SDK's own retries are off (correx's retry policy decides). A middleware below the
 * SDK's parsing captures the raw argument text of each tool call, so a malformed call is recorded
 * verbatim, and normalises what the SDK would trip on (see `createToolCallNormaliser`):
 * everything a provider returns is untrusted input until it is checked here.
 */
export async function callThroughAiSdk(options: AiSdkCallOptions): Promise<InferenceResult> {
  const { request } = options;
  const started = performance.now();
  const timeoutSignal = AbortSignal.timeout(request.limits.timeoutMs);
  const signals = options.signal === undefined ? [timeoutSignal] : [options.signal, timeoutSignal];
  const abortSignal = AbortSignal.any(signals);
  const toolCalls = createToolCallNormaliser(options.provider);
  let receivedAnything = false;
  const model = wrapLanguageModel({
    model: options.model,
    middleware: {
      specificationVersion: 'v3',
      wrapGenerate: async ({ doGenerate }) => {
        const result = await doGenerate();
        const content = result.content.map((part) => {
          if (part.type === 'text' || part.type === 'reasoning') toolCalls.count(part.text);
          return part.type === 'tool-call' ? toolCalls.normalise(part) : part;
        });
        return { ...result, content };
      },
      wrapStream: async ({ doStream }) => {
        const result = await doStream();
        // Headers arrived: from here a broken connection is a cut-off answer, not an outage.
        receivedAnything = true;
        const capture = new TransformStream<
          typeof result.stream extends ReadableStream<infer P> ? P : never
        >({
          transform(part, controller) {
            receivedAnything = true;
            if (part.type === 'text-delta' || part.type === 'reasoning-delta')
              toolCalls.count(part.delta);
            controller.enqueue(part.type === 'tool-call' ? toolCalls.normalise(part) : part);
          },
        });
        return { ...result, stream: result.stream.pipeThrough(capture) };
      },
    },
  });
  const settings = {
    model,
    ...withSchemaInPrompt(
      toModelMessages(request),
      options.schemaInPrompt === true ? request.responseSchema : undefined,
    ),
    tools: toolSet(request),
    maxRetries: 0,
    maxOutputTokens: request.limits.maxOutputTokens,
    abortSignal,
    ...(request.limits.temperature === undefined
      ? {}
      : { temperature: request.limits.temperature }),
    ...(request.responseSchema === undefined
      ? {}
      : {
          output: Output.object({
            schema: jsonSchema(toWireSchema(request.responseSchema) as JSONSchema7),
          }),
        }),
  };
  const context = () => ({
    provider: options.provider,
    secrets: options.secrets,
    callerSignal: options.signal,
    timeoutSignal,
    timeoutMs: request.limits.timeoutMs,
    receivedAnything,
  });
  try {
    const outcome = options.streaming
      ? await consumeStream(settings, options.provider, options.onText)
      : await generate(settings);
    const proposals = outcome.toolCalls.map((call) =>
      createToolCallProposal(
        call.toolCallId,
        call.toolName,
        toolCalls.rawInput(call.toolCallId) ??
          (typeof call.input === 'string' ? call.input : JSON.stringify(call.input)),
      ),
    );
    const text = wellFormedText(outcome.text);
    return {
      text,
      toolCalls: proposals,
      finishReason: mapFinishReason(outcome.finishReason),
      usage: {
        inputTokens: outcome.inputTokens ?? 0,
        ...(outcome.cachedInputTokens === undefined
          ? {}
          : { cachedInputTokens: outcome.cachedInputTokens }),
        outputTokens: outcome.outputTokens ?? 0,
      },
      modelId: wellFormedText(outcome.modelId) || request.model,
      latencyMs: Math.round(performance.now() - started),
    };
  } catch (error) {
    throw classifyProviderError(error, context());
  }
}

type Settings = Parameters<typeof generateText>[0];
type Outcome = {
  text: string;
  toolCalls: { toolCallId: string; toolName: string; input: unknown }[];
  finishReason: AiFinishReason;
  inputTokens: number | undefined;
  cachedInputTokens: number | undefined;
  outputTokens: number | undefined;
  modelId: string;
};

async function generate(settings: Settings): Promise<Outcome> {
  const result = await generateText(settings);
  return {
    text: result.text,
    toolCalls: result.toolCalls,
    finishReason: result.finishReason,
    inputTokens: result.usage.inputTokens,
    cachedInputTokens: result.usage.inputTokenDetails.cacheReadTokens,
    outputTokens: result.usage.outputTokens,
    modelId: result.response.modelId,
  };
}

async function consumeStream(
  settings: Settings,
  provider: string,
  onText: InferenceTextObserver | undefined,
): Promise<Outcome> {
  const result = streamText({ ...settings, onError: () => {} });
  let text = '';
  const toolCalls: Outcome['toolCalls'] = [];
  let finish: { reason: AiFinishReason; raw: string | undefined } | undefined;
  let inputTokens: number | undefined;
  let cachedInputTokens: number | undefined;
  let outputTokens: number | undefined;
  for await (const part of result.fullStream) {
    switch (part.type) {
      case 'text-delta':
        text += part.text;
        if (onText !== undefined && part.text !== '') watch(() => onText(part.text));
        break;
      case 'tool-call':
        toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
        break;
      case 'finish':
        finish = { reason: part.finishReason, raw: part.rawFinishReason };
        inputTokens = part.totalUsage.inputTokens;
        cachedInputTokens = part.totalUsage.inputTokenDetails.cacheReadTokens;
        outputTokens = part.totalUsage.outputTokens;
        break;
      case 'error':
        throw part.error;
      case 'abort':
        throw new DOMException('aborted', 'AbortError');
      default:
        break;
    }
  }
  // A stream that ends without the provider's finish reason was cut off, not finished.
  if (finish === undefined || finish.raw === undefined) {
    throw new InferenceError({
      category: 'malformed_response',
      provider,
      message: 'the stream ended without a finish reason',
    });
  }
  const response = await result.response;
  return {
    text,
    toolCalls,
    finishReason: finish.reason,
    inputTokens,
    cachedInputTokens,
    outputTokens,
    modelId: response.modelId,
  };
}

/** A watcher's failure is its own: it never changes the answer. */
function watch(call: () => void): void {
  try {
    call();
  } catch {
    // see above
  }
}

function toolSet(request: InferenceRequest): ToolSet {
  const tools: ToolSet = {};
  for (const definition of request.tools) {
    tools[definition.name] = tool({
      description: definition.description,
      inputSchema: jsonSchema(toWireSchema(definition.inputSchema) as JSONSchema7),
    });
  }
  return tools;
}

function mapFinishReason(reason: AiFinishReason): FinishReason {
  switch (reason) {
    case 'stop':
      return 'stop';
    case 'length':
      return 'length';
    case 'tool-calls':
      return 'tool_calls';
    case 'content-filter':
      return 'content_filter';
    case 'error':
      return 'error';
    case 'other':
      return 'other';
  }
}
