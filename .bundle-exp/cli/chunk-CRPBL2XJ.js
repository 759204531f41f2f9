import {
  ConfigFileError
} from "./chunk-P2JR5UVJ.js";
import {
  createToolCallProposal,
  safeParseToolArguments
} from "./chunk-OYJRPCLU.js";
import {
  InferenceError
} from "./chunk-IRD534JB.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/providers/provider-factory.ts
import { homedir } from "node:os";
import { join } from "node:path";

// src/infrastructure/providers/anthropic-provider.ts
import { createAnthropic } from "@ai-sdk/anthropic";

// src/infrastructure/providers/ai-sdk-inference.ts
import {
  generateText,
  jsonSchema,
  Output,
  streamText,
  tool,
  wrapLanguageModel
} from "ai";

// src/infrastructure/providers/classify-provider-error.ts
import { APICallError, RetryError } from "ai";

// src/infrastructure/providers/redact-secrets.ts
function redactSecrets(text, secrets) {
  let out = text;
  for (const secret of secrets) {
    if (secret !== void 0 && secret.length >= 4) out = out.split(secret).join("[redacted]");
  }
  return out.replace(/(bearer\s+)[^\s"',]+/gi, "$1[redacted]").replace(/\b(sk|pk|rk)-[A-Za-z0-9_-]{8,}/g, "[redacted]").replace(
    /("?(?:api[-_]?key|x-api-key|authorization)"?\s*[:=]\s*"?)[^\s"',}]+/gi,
    "$1[redacted]"
  );
}

// src/infrastructure/providers/classify-provider-error.ts
function classifyProviderError(error, context) {
  const make = (category, message2, retryAfterMs2) => new InferenceError({
    category,
    provider: context.provider,
    message: redactSecrets(message2, context.secrets),
    ...retryAfterMs2 === void 0 ? {} : { retryAfterMs: retryAfterMs2 }
  });
  if (error instanceof InferenceError) return error;
  if (context.callerSignal?.aborted === true) return make("cancelled", "the call was cancelled");
  if (context.timeoutSignal.aborted) {
    return make("timeout", `no complete answer within ${context.timeoutMs} ms`);
  }
  const inner = RetryError.isInstance(error) ? error.lastError : error;
  if (APICallError.isInstance(inner)) {
    const status = inner.statusCode;
    const detail = shorten(inner.message);
    if (status === void 0) return make("provider_down", `request failed: ${detail}`);
    const configuration = configurationProblem(
      status,
      `${inner.message} ${inner.responseBody ?? ""}`
    );
    if (configuration !== void 0) return make("configuration", configuration);
    if (status === 429) {
      return make("rate_limit", `HTTP 429: ${detail}`, retryAfterMs(inner.responseHeaders));
    }
    if (status === 401 || status === 403)
      return make("auth", `HTTP ${status}: credentials refused`);
    if (status === 408) return make("timeout", `HTTP 408: ${detail}`);
    if (status >= 500)
      return make(
        "provider_down",
        `HTTP ${status}: ${detail}`,
        retryAfterMs(inner.responseHeaders)
      );
    if (status >= 400) return make("invalid_request", `HTTP ${status}: ${detail}`);
    return make("malformed_response", `unexpected HTTP ${status}: ${detail}`);
  }
  const name = inner instanceof Error ? inner.name : "";
  const message = inner instanceof Error ? inner.message : String(inner);
  if (inner instanceof RangeError && /call stack|string length/i.test(message)) {
    return make("malformed_response", `unreadable response: ${tooBigToRead(message)}`);
  }
  if (/JSONParseError|InvalidResponseDataError|TypeValidationError|EmptyResponseBodyError|NoOutputGeneratedError|NoObjectGeneratedError|NoContentGeneratedError/.test(
    name
  )) {
    return make("malformed_response", `unreadable response: ${shorten(message)}`);
  }
  if (context.receivedAnything) {
    return make("malformed_response", `the response was cut off: ${shorten(message)}`);
  }
  return make("provider_down", `request failed: ${shorten(message)}${causeCode(inner)}`);
}
function configurationProblem(status, text) {
  if (/tools param requires --jinja/i.test(text))
    return "the server refuses tool calls without a chat template: start llama-server with --jinja";
  if (/does not support tools|tool choice requires|--enable-auto-tool-choice|tools are not supported/i.test(
    text
  ))
    return `the model or endpoint does not support tool calls: serve a tool-calling model (vLLM: --enable-auto-tool-choice --tool-call-parser), or declare the profile without tool_calling (${shorten(text).slice(0, 160)})`;
  if (status === 404)
    return `the server has no such model or endpoint (HTTP 404): check the profile's model name and the base URL (${shorten(text).slice(0, 160)})`;
  return void 0;
}
function retryAfterMs(headers) {
  if (headers === void 0) return void 0;
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  const ms = Number(lower["retry-after-ms"]);
  if (lower["retry-after-ms"] !== void 0 && Number.isFinite(ms) && ms >= 0)
    return Math.round(ms);
  const value = lower["retry-after"];
  if (value === void 0) return void 0;
  const seconds = Number(value);
  if (value.trim() !== "" && Number.isFinite(seconds) && seconds >= 0)
    return Math.round(seconds * 1e3);
  const date = Date.parse(value);
  return Number.isNaN(date) ? void 0 : Math.max(0, date - Date.now());
}
function tooBigToRead(message) {
  return /call stack/i.test(message) ? "nested too deep to parse" : "too large to hold in memory";
}
function shorten(text) {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > 300 ? `${oneLine.slice(0, 300)}...` : oneLine;
}
function causeCode(error) {
  const cause = error?.cause;
  return typeof cause?.code === "string" ? ` (${cause.code})` : "";
}

// src/infrastructure/providers/tool-call-normaliser.ts
var MAX_ANSWER_CHARS = 4 * 1024 * 1024;
function createToolCallNormaliser(provider) {
  const rawInputs = /* @__PURE__ */ new Map();
  let count = 0;
  let size = 0;
  const counted = (text) => {
    size += text.length;
    if (size > MAX_ANSWER_CHARS) {
      throw new InferenceError({
        category: "malformed_response",
        provider,
        message: `the answer holds more than the ${MAX_ANSWER_CHARS} characters of text and arguments correx records`
      });
    }
  };
  return {
    count: counted,
    normalise(part) {
      count++;
      counted(part.input);
      if (part.toolName.trim() === "") {
        throw new InferenceError({
          category: "malformed_response",
          provider,
          message: `tool call ${count} has no tool name`
        });
      }
      const id = part.toolCallId.trim() === "" || rawInputs.has(part.toolCallId) ? uniqueId(rawInputs, count) : part.toolCallId;
      rawInputs.set(id, part.input);
      const readable = safeParseToolArguments(part.input).ok;
      return { ...part, toolCallId: id, input: readable ? part.input : "{}" };
    },
    rawInput: (toolCallId) => rawInputs.get(toolCallId)
  };
}
function uniqueId(taken, count) {
  let id = `correx-call-${count}`;
  while (taken.has(id)) id = `${id}'`;
  return id;
}
var LONE_SURROGATES = new RegExp("\\p{Surrogate}", "gu");
function wellFormedText(text) {
  return text.replace(LONE_SURROGATES, "\uFFFD");
}

// src/infrastructure/providers/ai-sdk-messages.ts
function toModelMessages(request) {
  const system = [];
  const messages = [];
  for (const message of request.messages) {
    switch (message.role) {
      case "system":
        system.push(message.content);
        break;
      case "user":
        messages.push({ role: "user", content: message.content });
        break;
      case "assistant":
        messages.push(
          message.toolCalls === void 0 ? { role: "assistant", content: message.content } : {
            role: "assistant",
            content: [
              ...message.content === "" ? [] : [{ type: "text", text: message.content }],
              ...message.toolCalls.map((call) => ({
                type: "tool-call",
                toolCallId: call.callId,
                toolName: call.name,
                input: argumentsOf(call.argsRaw)
              }))
            ]
          }
        );
        break;
      case "tool": {
        const part = {
          type: "tool-result",
          toolCallId: message.callId,
          toolName: message.toolName,
          output: { type: "text", value: message.content }
        };
        const previous = messages.at(-1);
        if (previous?.role === "tool") previous.content.push(part);
        else messages.push({ role: "tool", content: [part] });
        break;
      }
    }
  }
  return system.length === 0 ? { messages } : { system: system.join("\n\n"), messages };
}
function responseSchemaInstruction(schema) {
  return `Answer with one JSON value and nothing else. It must match this JSON Schema:
${JSON.stringify(schema)}`;
}
function withSchemaInPrompt(rendered, schema) {
  if (schema === void 0) return rendered;
  const instruction = responseSchemaInstruction(schema);
  return {
    ...rendered,
    system: rendered.system === void 0 ? instruction : `${rendered.system}

${instruction}`
  };
}
function argumentsOf(argsRaw) {
  try {
    const value = JSON.parse(argsRaw);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : argsRaw;
  } catch {
    return argsRaw;
  }
}

// src/infrastructure/providers/wire-tool-schema.ts
var MAX_WIRE_REPETITION = 64;
var REPETITION_KEYS = [
  "minLength",
  "maxLength",
  "minItems",
  "maxItems",
  "minProperties",
  "maxProperties"
];
function toWireSchema(schema) {
  if (Array.isArray(schema)) return schema.map(toWireSchema);
  if (typeof schema !== "object" || schema === null) return schema;
  const out = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "$schema") continue;
    if (REPETITION_KEYS.includes(key) && typeof value === "number" && value > MAX_WIRE_REPETITION)
      continue;
    out[key] = key === "properties" && typeof value === "object" && value !== null && !Array.isArray(value) ? Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, toWireSchema(sub)])) : toWireSchema(value);
  }
  return out;
}

// src/infrastructure/providers/ai-sdk-inference.ts
async function callThroughAiSdk(options) {
  const { request } = options;
  const started = performance.now();
  const timeoutSignal = AbortSignal.timeout(request.limits.timeoutMs);
  const signals = options.signal === void 0 ? [timeoutSignal] : [options.signal, timeoutSignal];
  const abortSignal = AbortSignal.any(signals);
  const toolCalls = createToolCallNormaliser(options.provider);
  let receivedAnything = false;
  const model = wrapLanguageModel({
    model: options.model,
    middleware: {
      specificationVersion: "v3",
      wrapGenerate: async ({ doGenerate }) => {
        const result = await doGenerate();
        const content = result.content.map((part) => {
          if (part.type === "text" || part.type === "reasoning") toolCalls.count(part.text);
          return part.type === "tool-call" ? toolCalls.normalise(part) : part;
        });
        return { ...result, content };
      },
      wrapStream: async ({ doStream }) => {
        const result = await doStream();
        receivedAnything = true;
        const capture = new TransformStream({
          transform(part, controller) {
            receivedAnything = true;
            if (part.type === "text-delta" || part.type === "reasoning-delta")
              toolCalls.count(part.delta);
            controller.enqueue(part.type === "tool-call" ? toolCalls.normalise(part) : part);
          }
        });
        return { ...result, stream: result.stream.pipeThrough(capture) };
      }
    }
  });
  const settings = {
    model,
    ...withSchemaInPrompt(
      toModelMessages(request),
      options.schemaInPrompt === true ? request.responseSchema : void 0
    ),
    tools: toolSet(request),
    maxRetries: 0,
    maxOutputTokens: request.limits.maxOutputTokens,
    abortSignal,
    ...request.limits.temperature === void 0 ? {} : { temperature: request.limits.temperature },
    ...request.responseSchema === void 0 ? {} : {
      output: Output.object({
        schema: jsonSchema(toWireSchema(request.responseSchema))
      })
    }
  };
  const context = () => ({
    provider: options.provider,
    secrets: options.secrets,
    callerSignal: options.signal,
    timeoutSignal,
    timeoutMs: request.limits.timeoutMs,
    receivedAnything
  });
  try {
    const outcome = options.streaming ? await consumeStream(settings, options.provider) : await generate(settings);
    const proposals = outcome.toolCalls.map(
      (call) => createToolCallProposal(
        call.toolCallId,
        call.toolName,
        toolCalls.rawInput(call.toolCallId) ?? (typeof call.input === "string" ? call.input : JSON.stringify(call.input))
      )
    );
    const text = wellFormedText(outcome.text);
    return {
      text,
      toolCalls: proposals,
      finishReason: mapFinishReason(outcome.finishReason),
      usage: {
        inputTokens: outcome.inputTokens ?? 0,
        ...outcome.cachedInputTokens === void 0 ? {} : { cachedInputTokens: outcome.cachedInputTokens },
        outputTokens: outcome.outputTokens ?? 0
      },
      modelId: wellFormedText(outcome.modelId) || request.model,
      latencyMs: Math.round(performance.now() - started)
    };
  } catch (error) {
    throw classifyProviderError(error, context());
  }
}
async function generate(settings) {
  const result = await generateText(settings);
  return {
    text: result.text,
    toolCalls: result.toolCalls,
    finishReason: result.finishReason,
    inputTokens: result.usage.inputTokens,
    cachedInputTokens: result.usage.inputTokenDetails.cacheReadTokens,
    outputTokens: result.usage.outputTokens,
    modelId: result.response.modelId
  };
}
async function consumeStream(settings, provider) {
  const result = streamText({ ...settings, onError: () => {
  } });
  let text = "";
  const toolCalls = [];
  let finish;
  let inputTokens;
  let cachedInputTokens;
  let outputTokens;
  for await (const part of result.fullStream) {
    switch (part.type) {
      case "text-delta":
        text += part.text;
        break;
      case "tool-call":
        toolCalls.push({ toolCallId: part.toolCallId, toolName: part.toolName, input: part.input });
        break;
      case "finish":
        finish = { reason: part.finishReason, raw: part.rawFinishReason };
        inputTokens = part.totalUsage.inputTokens;
        cachedInputTokens = part.totalUsage.inputTokenDetails.cacheReadTokens;
        outputTokens = part.totalUsage.outputTokens;
        break;
      case "error":
        throw part.error;
      case "abort":
        throw new DOMException("aborted", "AbortError");
      default:
        break;
    }
  }
  if (finish === void 0 || finish.raw === void 0) {
    throw new InferenceError({
      category: "malformed_response",
      provider,
      message: "the stream ended without a finish reason"
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
    modelId: response.modelId
  };
}
function toolSet(request) {
  const tools = {};
  for (const definition of request.tools) {
    tools[definition.name] = tool({
      description: definition.description,
      inputSchema: jsonSchema(toWireSchema(definition.inputSchema))
    });
  }
  return tools;
}
function mapFinishReason(reason) {
  switch (reason) {
    case "stop":
      return "stop";
    case "length":
      return "length";
    case "tool-calls":
      return "tool_calls";
    case "content-filter":
      return "content_filter";
    case "error":
      return "error";
    case "other":
      return "other";
  }
}

// src/infrastructure/providers/anthropic-provider.ts
function createAnthropicProvider(options) {
  const name = options.name ?? "anthropic";
  const sdk = createAnthropic({
    apiKey: options.apiKey,
    ...options.baseURL === void 0 ? {} : { baseURL: options.baseURL }
  });
  return {
    name,
    infer: (request, signal) => callThroughAiSdk({
      provider: name,
      model: sdk.messages(request.model),
      request,
      signal,
      streaming: options.streaming ?? true,
      secrets: [options.apiKey]
    })
  };
}

// src/infrastructure/providers/llama-cpp-provider.ts
import { stat } from "node:fs/promises";
import { basename } from "node:path";

// src/infrastructure/tokenizers/llama-cpp-tokenizer.ts
function createLlamaCppTokenizer(model, modelName) {
  return {
    name: `llama-cpp:${modelName}`,
    count: (text) => text === "" ? 0 : model.tokenize(text).length
  };
}

// src/infrastructure/providers/physical-cores.ts
import { readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
function physicalCores(cpuinfo = readCpuinfo) {
  const logical = availableParallelism();
  let text;
  try {
    text = cpuinfo();
  } catch {
    return logical;
  }
  const cores = /* @__PURE__ */ new Set();
  for (const block of text.split(/\n\s*\n/)) {
    const physical = /^physical id\s*:\s*(\d+)/m.exec(block)?.[1];
    const core = /^core id\s*:\s*(\d+)/m.exec(block)?.[1];
    if (physical !== void 0 && core !== void 0) cores.add(`${physical}:${core}`);
  }
  return cores.size === 0 ? logical : Math.min(cores.size, logical);
}
function defaultLocalThreads(cores = physicalCores()) {
  return Math.max(1, cores - 1);
}
function readCpuinfo() {
  return readFileSync("/proc/cpuinfo", "utf8");
}

// src/infrastructure/providers/llama-cpp-tool-grammar.ts
function toolCallEnvelopeSchema(tools) {
  const answer = {
    type: "object",
    properties: { type: { const: "answer" }, text: { type: "string" } },
    required: ["type", "text"]
  };
  const calls = tools.map((tool2) => ({
    type: "object",
    properties: {
      type: { const: "tool_call" },
      name: { const: tool2.name },
      arguments: toGrammarSchema(tool2.inputSchema)
    },
    required: ["type", "name", "arguments"]
  }));
  const finishing = tools.some((tool2) => tool2.name.startsWith("finish_"));
  return { oneOf: finishing ? calls : [...calls, answer] };
}
var MAX_OPTIONAL_COMBINATIONS = 4;
function toGrammarSchema(schema) {
  return grammarOf(toWireSchema(schema));
}
function grammarOf(schema) {
  if (Array.isArray(schema)) return schema.map(grammarOf);
  if (typeof schema !== "object" || schema === null) return schema;
  const {
    required,
    properties,
    additionalProperties: _extra,
    ...rest
  } = schema;
  const out = {};
  for (const [key, value] of Object.entries(rest)) out[key] = grammarOf(value);
  if (typeof properties !== "object" || properties === null) return out;
  const requiredKeys = new Set(
    Array.isArray(required) ? required.filter((k) => typeof k === "string") : []
  );
  const entries = Object.entries(properties).map(
    ([key, value]) => [key, grammarOf(value)]
  );
  const optional = entries.filter(([key]) => !requiredKeys.has(key)).map(([key]) => key);
  const objectWith = (keys) => ({
    ...out,
    type: "object",
    properties: Object.fromEntries(
      entries.filter(([key]) => requiredKeys.has(key) || keys.has(key))
    )
  });
  if (optional.length === 0) return objectWith(/* @__PURE__ */ new Set());
  const combinations = optional.length <= MAX_OPTIONAL_COMBINATIONS ? subsetsOf(optional) : [[], ...optional.map((key) => [key]), optional];
  const description = out.description;
  return {
    ...typeof description === "string" ? { description } : {},
    oneOf: combinations.map((keys) => objectWith(new Set(keys)))
  };
}
function subsetsOf(keys) {
  return keys.reduce(
    (subsets, key) => [...subsets, ...subsets.map((subset) => [...subset, key])],
    [[]]
  );
}
function toolInstructions(tools) {
  const lines = tools.map(
    (tool2) => `- ${tool2.name}: ${tool2.description}
  arguments: ${JSON.stringify(tool2.inputSchema)}`
  );
  return [
    "You can call one of these tools:",
    ...lines,
    'Reply with JSON only: {"type":"tool_call","name":<tool>,"arguments":{...}} to call a tool,',
    'or {"type":"answer","text":<your answer>} when no tool is needed.'
  ].join("\n");
}
function parseToolEnvelope(output, callId) {
  let value;
  try {
    value = JSON.parse(output);
  } catch {
    return { text: output, toolCalls: [] };
  }
  const envelope = value;
  if (envelope.type === "tool_call" && typeof envelope.name === "string") {
    return {
      text: "",
      toolCalls: [
        createToolCallProposal(callId, envelope.name, JSON.stringify(envelope.arguments ?? {}))
      ]
    };
  }
  if (envelope.type === "answer" && typeof envelope.text === "string")
    return { text: envelope.text, toolCalls: [] };
  return { text: output, toolCalls: [] };
}
var CONTINUE_PROMPT = "Continue from the tool results above.";
function toLlamaChat(messages, extraSystem) {
  const last = messages.at(-1);
  if (last === void 0 || last.role !== "user" && last.role !== "tool") {
    throw new RangeError("a local model call must end with a user message or a tool result");
  }
  const system = messages.filter((m) => m.role === "system").map((m) => m.content);
  if (extraSystem !== void 0) system.push(extraSystem);
  const history = system.length > 0 ? [{ type: "system", text: system.join("\n\n") }] : [];
  const results = /* @__PURE__ */ new Map();
  for (const message of messages)
    if (message.role === "tool") results.set(message.callId, message.content);
  const body = last.role === "user" ? messages.slice(0, -1) : messages;
  for (const message of body) {
    if (message.role === "user") history.push({ type: "user", text: message.content });
    if (message.role !== "assistant") continue;
    const response = message.content === "" ? [] : [message.content];
    (message.toolCalls ?? []).forEach((call, index) => {
      response.push({
        type: "functionCall",
        name: call.name,
        params: paramsOf(call.argsRaw),
        result: results.get(call.callId) ?? "",
        ...index === 0 ? { startsNewChunk: true } : {}
      });
    });
    history.push({ type: "model", response });
  }
  return { history, prompt: last.role === "user" ? last.content : CONTINUE_PROMPT };
}
function paramsOf(argsRaw) {
  try {
    return JSON.parse(argsRaw);
  } catch {
    return argsRaw;
  }
}

// src/infrastructure/providers/llama-cpp-provider.ts
function localUsage(sequence, before) {
  const evaluated = (sequence.tokenMeter?.usedInputTokens ?? 0) - before.input;
  const outputTokens = (sequence.tokenMeter?.usedOutputTokens ?? 0) - before.output;
  if (sequence.contextTokens === void 0) return { inputTokens: evaluated, outputTokens };
  const inputTokens = Math.max(evaluated, sequence.contextTokens.length - outputTokens);
  return { inputTokens, cachedInputTokens: inputTokens - evaluated, outputTokens };
}
var LlamaCppUnavailableError = class extends CorrexError {
  constructor(options) {
    super(
      "llama_cpp_unavailable",
      "node-llama-cpp is not available: install it (npm install node-llama-cpp@3.21.1) to run local GGUF models",
      options
    );
  }
};
var LlamaCppModelNotFoundError = class extends CorrexError {
  constructor(modelPath) {
    super("llama_cpp_model_not_found", `no GGUF model file at ${modelPath}`);
  }
};
var LlamaCppProvider = class _LlamaCppProvider {
  constructor(module, llama, model, context, sequence, name, modelName, timeoutMs) {
    this.module = module;
    this.llama = llama;
    this.model = model;
    this.context = context;
    this.sequence = sequence;
    this.modelName = modelName;
    this.timeoutMs = timeoutMs;
    this.name = name;
    this.tokenizer = createLlamaCppTokenizer(model, modelName);
  }
  module;
  llama;
  model;
  context;
  sequence;
  modelName;
  timeoutMs;
  name;
  tokenizer;
  queue = Promise.resolve();
  disposed = false;
  calls = 0;
  grammars = /* @__PURE__ */ new Map();
  static async load(options) {
    const file = await stat(options.modelPath).catch(() => void 0);
    if (file === void 0 || !file.isFile())
      throw new LlamaCppModelNotFoundError(options.modelPath);
    let module;
    try {
      module = await (options.importModule ?? (() => import("node-llama-cpp")))();
    } catch (error) {
      throw new LlamaCppUnavailableError({ cause: error });
    }
    const llama = await module.getLlama({ gpu: options.gpu ?? "auto" });
    let model;
    try {
      model = await llama.loadModel({
        modelPath: options.modelPath,
        ...options.gpuLayers === void 0 ? {} : { gpuLayers: options.gpuLayers }
      });
      const context = await model.createContext({
        threads: options.threads ?? defaultLocalThreads(),
        ...options.contextSize === void 0 ? {} : { contextSize: options.contextSize },
        ...options.batchSize === void 0 ? {} : { batchSize: options.batchSize }
      });
      const modelName = basename(options.modelPath);
      return new _LlamaCppProvider(
        module,
        llama,
        model,
        context,
        context.getSequence(),
        options.name ?? `llama-cpp:${modelName}`,
        modelName,
        options.timeoutMs
      );
    } catch (error) {
      await model?.dispose();
      await llama.dispose();
      throw error;
    }
  }
  infer(request, signal) {
    const run = this.queue.then(() => this.run(request, signal));
    this.queue = run.catch(() => void 0);
    return run;
  }
  async run(request, signal) {
    if (this.disposed)
      throw new InferenceError({
        category: "provider_down",
        provider: this.name,
        message: "the model was disposed"
      });
    const started = performance.now();
    const timeoutMs = Math.min(
      request.limits.timeoutMs,
      this.timeoutMs ?? Number.POSITIVE_INFINITY
    );
    const timeout = AbortSignal.timeout(timeoutMs);
    const combined = AbortSignal.any(signal === void 0 ? [timeout] : [signal, timeout]);
    const sequence = this.sequence;
    const session = new this.module.LlamaChatSession({
      contextSequence: sequence,
      autoDisposeSequence: false
    });
    const before = {
      input: sequence.tokenMeter?.usedInputTokens ?? 0,
      output: sequence.tokenMeter?.usedOutputTokens ?? 0
    };
    try {
      const hasTools = request.tools.length > 0;
      const schema = hasTools ? toolCallEnvelopeSchema(request.tools) : request.responseSchema === void 0 ? void 0 : toGrammarSchema(request.responseSchema);
      const grammar = schema === void 0 ? void 0 : await this.grammarFor(schema);
      const { history, prompt } = toLlamaChat(
        request.messages,
        hasTools ? toolInstructions(request.tools) : void 0
      );
      session.setChatHistory(history);
      const answer = await session.promptWithMeta(prompt, {
        maxTokens: request.limits.maxOutputTokens,
        signal: combined,
        ...request.limits.temperature === void 0 ? {} : { temperature: request.limits.temperature },
        ...grammar === void 0 ? {} : { grammar }
      });
      this.calls += 1;
      const parsed = hasTools ? parseToolEnvelope(answer.responseText, `local-${this.calls}`) : { text: answer.responseText, toolCalls: [] };
      return {
        text: parsed.text,
        toolCalls: parsed.toolCalls,
        finishReason: answer.stopReason === "maxTokens" ? "length" : parsed.toolCalls.length > 0 ? "tool_calls" : "stop",
        usage: localUsage(sequence, before),
        modelId: this.modelName,
        latencyMs: Math.round(performance.now() - started)
      };
    } catch (error) {
      if (signal?.aborted === true)
        throw new InferenceError({
          category: "cancelled",
          provider: this.name,
          message: "the call was cancelled"
        });
      if (timeout.aborted)
        throw new InferenceError({
          category: "timeout",
          provider: this.name,
          message: `no answer within ${timeoutMs} ms`
        });
      const message = error instanceof Error ? error.message : String(error);
      throw new InferenceError({
        category: "invalid_request",
        provider: this.name,
        message: `local generation failed: ${message}`
      });
    } finally {
      session.dispose();
    }
  }
  /**
   * A stage offers the same tools turn after turn: its grammar is compiled once, not per call
   * (compiling runs on the event loop).
   */
  grammarFor(schema) {
    const key = JSON.stringify(schema);
    let grammar = this.grammars.get(key);
    if (grammar === void 0) {
      grammar = this.llama.createGrammarForJsonSchema(schema);
      grammar.catch(() => this.grammars.delete(key));
      this.grammars.set(key, grammar);
    }
    return grammar;
  }
  /** Releases the context, the model and the llama.cpp backend. Idempotent. */
  async dispose() {
    if (this.disposed) return;
    this.disposed = true;
    await this.queue;
    await this.context.dispose();
    await this.model.dispose();
    await this.llama.dispose();
  }
};

// src/infrastructure/providers/openai-compatible-provider.ts
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
function createOpenAICompatibleProvider(options) {
  const sdk = createOpenAICompatible({
    name: options.name,
    baseURL: options.baseURL,
    ...options.apiKey === void 0 ? {} : { apiKey: options.apiKey },
    ...options.headers === void 0 ? {} : { headers: { ...options.headers } },
    includeUsage: true,
    supportsStructuredOutputs: options.supportsStructuredOutputs ?? false
  });
  return {
    name: options.name,
    infer: (request, signal) => callThroughAiSdk({
      provider: options.name,
      model: sdk.chatModel(request.model),
      request,
      signal,
      streaming: options.streaming ?? true,
      secrets: [options.apiKey, ...Object.values(options.headers ?? {})],
      schemaInPrompt: options.supportsStructuredOutputs !== true
    })
  };
}

// src/infrastructure/providers/provider-backoff.ts
var BACKED_OFF = /* @__PURE__ */ new Set([
  "provider_down",
  "timeout",
  "rate_limit"
]);
function withProviderBackoff(provider, options = {}) {
  const baseMs = options.baseMs ?? 500;
  const capMs = options.capMs ?? 3e4;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  let failures = 0;
  let lastFailureAt = 0;
  return {
    name: provider.name,
    async infer(request, signal) {
      try {
        const result = await provider.infer(request, signal);
        failures = 0;
        return result;
      } catch (error) {
        if (!(error instanceof InferenceError) || !BACKED_OFF.has(error.category)) throw error;
        const at = now();
        failures = at - lastFailureAt > 2 * capMs ? 1 : failures + 1;
        lastFailureAt = at;
        const delay = Math.min(capMs, baseMs * 2 ** (failures - 1));
        const prefix = `${error.provider}: `;
        throw new InferenceError({
          category: error.category,
          provider: error.provider,
          message: error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message,
          // The server's own Retry-After is honoured as the least wait, never shortened.
          retryAfterMs: Math.max(
            error.retryAfterMs ?? 0,
            Math.round(delay / 2 + random() * delay / 2)
          ),
          cause: error
        });
      }
    }
  };
}

// src/infrastructure/providers/provider-factory.ts
var ProviderSetupError = class extends CorrexError {
  constructor(message, options) {
    super("provider_setup", message, options);
  }
};
async function createProviders(options) {
  const providers = /* @__PURE__ */ new Map();
  const local = [];
  const dispose = async () => {
    for (const provider of local) await provider.dispose();
  };
  try {
    for (const name of new Set(options.names)) {
      const config = options.configs[name];
      if (config === void 0)
        throw new ProviderSetupError(
          `no provider "${name}" is configured under providers: in harness.yaml`
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
async function createProvider(name, config, env) {
  switch (config.kind) {
    case "openai-compatible": {
      const apiKey = config.apiKeyEnv === void 0 ? void 0 : requireKey(name, config.apiKeyEnv, env);
      return withProviderBackoff(
        createOpenAICompatibleProvider({
          name,
          baseURL: config.baseUrl,
          ...apiKey === void 0 ? {} : { apiKey },
          streaming: config.streaming,
          supportsStructuredOutputs: config.structuredOutputs
        })
      );
    }
    case "anthropic":
      return withProviderBackoff(
        createAnthropicProvider({
          name,
          apiKey: requireKey(name, config.apiKeyEnv, env),
          ...config.baseUrl === void 0 ? {} : { baseURL: config.baseUrl },
          streaming: config.streaming
        })
      );
    case "llama-cpp":
      return LlamaCppProvider.load({
        name,
        modelPath: expandHome(config.modelPath),
        gpu: config.gpu,
        ...config.contextSize === void 0 ? {} : { contextSize: config.contextSize },
        ...config.threads === void 0 ? {} : { threads: config.threads },
        ...config.gpuLayers === void 0 ? {} : { gpuLayers: config.gpuLayers },
        ...config.batchSize === void 0 ? {} : { batchSize: config.batchSize },
        ...config.timeoutMs === void 0 ? {} : { timeoutMs: config.timeoutMs }
      });
  }
}
function requireKey(provider, variable, env) {
  const key = env[variable];
  if (key === void 0 || key === "")
    throw new ProviderSetupError(
      `provider "${provider}" needs an API key: set the environment variable ${variable}`
    );
  return key;
}
function expandHome(path) {
  return path === "~" || path.startsWith("~/") ? join(homedir(), path.slice(1)) : path;
}

// src/infrastructure/config/environment-model.ts
var ENVIRONMENT_PROVIDER = "env-openai";
var ENVIRONMENT_ANTHROPIC_PROVIDER = "env-anthropic";
var DEFAULT_ANTHROPIC_MODEL = "claude-sonnet-4-5";
var ENVIRONMENT_PROFILE = "env";
function environmentModel(env) {
  const baseUrl = env.OPENAI_BASE_URL;
  if (baseUrl === void 0 || baseUrl === "") return anthropicEnvironmentModel(env);
  const model = env.CORREX_MODEL || env.OPENAI_MODEL;
  if (model === void 0 || model === "")
    throw new ConfigFileError(
      "environment",
      "OPENAI_BASE_URL is set but no model is named: set CORREX_MODEL to the model the server serves"
    );
  const window = Number(env.CORREX_CONTEXT_WINDOW ?? "32768");
  if (!Number.isInteger(window) || window < 1024)
    throw new ConfigFileError(
      "environment",
      `CORREX_CONTEXT_WINDOW must be a whole number of tokens (at least 1024), got ${env.CORREX_CONTEXT_WINDOW}`
    );
  let parsedUrl;
  try {
    parsedUrl = new URL(baseUrl);
  } catch {
    throw new ConfigFileError("environment", `OPENAI_BASE_URL is not a URL: ${baseUrl}`);
  }
  return {
    providerName: ENVIRONMENT_PROVIDER,
    provider: {
      kind: "openai-compatible",
      baseUrl: parsedUrl.toString().replace(/\/$/, ""),
      ...env.OPENAI_API_KEY ? { apiKeyEnv: "OPENAI_API_KEY" } : {},
      streaming: true,
      // llama-server, vLLM, Ollama, LM Studio and OpenAI honour `response_format: json_schema`;
      // CORREX_STRUCTURED_OUTPUTS=false writes the schema into the prompt instead.
      structuredOutputs: env.CORREX_STRUCTURED_OUTPUTS !== "false"
    },
    profile: {
      id: ENVIRONMENT_PROFILE,
      provider: ENVIRONMENT_PROVIDER,
      model,
      capabilities: ["tool_calling", "json_output"],
      contextWindow: window,
      maxOutputTokens: 4096,
      priority: 0
    }
  };
}
function anthropicEnvironmentModel(env) {
  if (!env.ANTHROPIC_API_KEY) return void 0;
  const window = Number(env.CORREX_CONTEXT_WINDOW ?? "200000");
  if (!Number.isInteger(window) || window < 1024)
    throw new ConfigFileError(
      "environment",
      `CORREX_CONTEXT_WINDOW must be a whole number of tokens (at least 1024), got ${env.CORREX_CONTEXT_WINDOW}`
    );
  const baseUrl = env.ANTHROPIC_BASE_URL;
  if (baseUrl) {
    try {
      new URL(baseUrl);
    } catch {
      throw new ConfigFileError("environment", `ANTHROPIC_BASE_URL is not a URL: ${baseUrl}`);
    }
  }
  return {
    providerName: ENVIRONMENT_ANTHROPIC_PROVIDER,
    provider: {
      kind: "anthropic",
      apiKeyEnv: "ANTHROPIC_API_KEY",
      ...baseUrl ? { baseUrl: baseUrl.replace(/\/$/, "") } : {},
      streaming: true
    },
    profile: {
      id: ENVIRONMENT_PROFILE,
      provider: ENVIRONMENT_ANTHROPIC_PROVIDER,
      model: env.CORREX_MODEL || env.ANTHROPIC_MODEL || DEFAULT_ANTHROPIC_MODEL,
      capabilities: ["tool_calling", "json_output"],
      contextWindow: window,
      maxOutputTokens: 8192,
      priority: 0
    }
  };
}

export {
  environmentModel,
  redactSecrets,
  createProviders,
  expandHome
};
