import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
import {
  createDefaultCodingWorkflow
} from "./chunk-6D7FPGJD.js";
import {
  readBoundedFile
} from "./chunk-LOKLPSJE.js";
import {
  DEFAULT_NEVER_WRITABLE,
  builtinTools,
  createAssessmentPolicy,
  createDefaultValidatorRegistry,
  createInferenceRouter,
  createKernelConfig,
  createToolCallProposal,
  defaultToolCallRules,
  parseWorkspacePolicy
} from "./chunk-OYJRPCLU.js";
import {
  FinishReasonSchema,
  InferenceError,
  InferenceFailureCategorySchema,
  TokenUsageSchema
} from "./chunk-IRD534JB.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/providers/scripted-provider.ts
import { parse as parseYaml } from "yaml";
import { z } from "zod";
var ScriptedToolCallSchema = z.strictObject({
  name: z.string().min(1),
  /** Arguments as data; serialized as JSON. */
  args: z.record(z.string(), z.unknown()).optional(),
  /** Or the exact text a model sent, e.g. broken JSON to exercise recovery. */
  argsRaw: z.string().optional(),
  callId: z.string().min(1).optional()
}).refine((call) => call.args === void 0 !== (call.argsRaw === void 0), {
  message: "give exactly one of args or argsRaw"
});
var ScriptedTurnSchema = z.union([
  z.strictObject({
    text: z.string().default(""),
    toolCalls: z.array(ScriptedToolCallSchema).default([]),
    finishReason: FinishReasonSchema.optional(),
    usage: TokenUsageSchema.optional(),
    /**
     * Play `text` as plain text even when the request offers a finishing tool (by default a
     * text-only turn is then played as that tool's call, the way a tool-calling model answers).
     */
    plainText: z.boolean().optional()
  }),
  /** A model that never answers: the call settles only when it is aborted (as `cancelled`). */
  z.strictObject({ hang: z.literal(true) }),
  z.strictObject({
    fail: z.strictObject({
      category: InferenceFailureCategorySchema,
      message: z.string(),
      retryAfterMs: z.number().int().nonnegative().optional()
    })
  })
]);
var ScriptedProviderError = class extends CorrexError {
  constructor(code, message) {
    super(code, message);
  }
};
function createScriptedProvider(options) {
  const parsed = z.array(ScriptedTurnSchema).safeParse(options.turns);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `turns[${i.path.join(".")}]: ${i.message}`);
    throw new ScriptedProviderError("script_invalid", `invalid script: ${issues.join("; ")}`);
  }
  const turns = parsed.data;
  const name = options.name ?? "scripted";
  const requests = [];
  let next = 0;
  const cancelled = () => new InferenceError({
    category: "cancelled",
    provider: name,
    message: "the call was cancelled"
  });
  return {
    name,
    requests,
    remainingTurns: () => turns.length - next,
    infer(request, signal) {
      requests.push(request);
      if (signal?.aborted === true) return Promise.reject(cancelled());
      const turn = turns[next];
      if (turn === void 0) {
        return Promise.reject(
          new ScriptedProviderError(
            "script_exhausted",
            `the script has ${turns.length} turns; call ${next + 1} has none`
          )
        );
      }
      const index = next;
      next += 1;
      if ("hang" in turn) {
        return new Promise((_resolve, reject) => {
          signal?.addEventListener("abort", () => reject(cancelled()), { once: true });
        });
      }
      if ("fail" in turn) {
        return Promise.reject(new InferenceError({ provider: name, ...turn.fail }));
      }
      const toolCalls = turn.toolCalls.map(
        (call, position) => createToolCallProposal(
          call.callId ?? `scripted-${index + 1}-${position + 1}`,
          call.name,
          call.argsRaw ?? JSON.stringify(call.args)
        )
      );
      const finishing = request.tools.find((tool) => tool.name.startsWith("finish_"));
      const asCall = finishing !== void 0 && toolCalls.length === 0 && turn.text !== "" && turn.plainText !== true;
      if (asCall)
        toolCalls.push(
          createToolCallProposal(`scripted-${index + 1}-1`, finishing.name, turn.text)
        );
      const result = {
        text: asCall ? "" : turn.text,
        toolCalls,
        finishReason: turn.finishReason ?? (toolCalls.length > 0 ? "tool_calls" : "stop"),
        usage: turn.usage ?? { inputTokens: 0, outputTokens: 0 },
        modelId: request.model,
        latencyMs: 0
      };
      return Promise.resolve(result);
    }
  };
}
async function loadScriptedTurns(path) {
  const text = (await readBoundedFile(path, { maxBytes: 64 * 1024 * 1024, what: "the script" })).toString("utf8");
  let data;
  try {
    data = /\.ya?ml$/i.test(path) ? parseYaml(text) : JSON.parse(text);
  } catch (error) {
    throw new ScriptedProviderError(
      "script_invalid",
      `${path}: not valid ${/\.ya?ml$/i.test(path) ? "YAML" : "JSON"}: ${error.message}`
    );
  }
  const turns = Array.isArray(data) ? data : data?.turns;
  if (!Array.isArray(turns)) {
    throw new ScriptedProviderError(
      "script_invalid",
      `${path}: expected a list of turns or { turns: [...] }`
    );
  }
  return turns;
}

// src/interfaces/cli/commands/demo-config.ts
var DEMO_PROVIDER = "scripted";
var DEMO_WORKFLOW_ID = "default-coding";
var DEMO_TASK = "The tests of this project fail: median([10, 9, 2]) returns 2 instead of 9. Fix src/median.js so that `node --test` passes.";
function demoKernelConfig(options) {
  const policy = parseWorkspacePolicy({
    neverWritable: [...DEFAULT_NEVER_WRITABLE, `${options.correxHome}/**`],
    unsandboxedExecTier: "T2"
  });
  return createKernelConfig({
    workflow: createDefaultCodingWorkflow(),
    tools: builtinTools,
    policy: createAssessmentPolicy(
      policy,
      defaultToolCallRules,
      options.sandbox === void 0 ? {} : { sandbox: options.sandbox }
    ),
    router: createInferenceRouter({
      profiles: [
        {
          id: "demo",
          provider: DEMO_PROVIDER,
          model: "scripted-demo",
          capabilities: ["tool_calling", "json_output"],
          contextWindow: 64e3,
          maxOutputTokens: 2e3
        }
      ]
    }),
    validators: createDefaultValidatorRegistry(),
    homeDirectory: options.homeDirectory,
    sha256: nodeSha256
  });
}

// src/interfaces/cli/commands/demo-model.ts
var PLACEHOLDER = /\{\{artifact:([a-z]+)\}\}/g;
function createDemoModel(turns, name) {
  const inner = createScriptedProvider({ turns, name });
  return {
    name,
    async infer(request, signal) {
      const result = await inner.infer(request, signal);
      const pack = request.messages.map((message) => message.content).join("\n");
      const fill = (raw) => raw.replace(PLACEHOLDER, (placeholder, kind) => {
        const named = [
          ...pack.matchAll(new RegExp(`Accepted ${kind} artifact ([0-9a-f]{64})`, "g"))
        ];
        return named.at(-1)?.[1] ?? placeholder;
      });
      return {
        ...result,
        text: fill(result.text),
        toolCalls: result.toolCalls.map(
          (call) => call.argsRaw.includes("{{artifact:") ? createToolCallProposal(call.callId, call.name, fill(call.argsRaw)) : call
        )
      };
    }
  };
}

export {
  loadScriptedTurns,
  DEMO_PROVIDER,
  DEMO_WORKFLOW_ID,
  DEMO_TASK,
  demoKernelConfig,
  createDemoModel
};
