import { z } from 'zod';
import { CorrexError } from '../base/correx-error.js';
import { sha256Hex, type Sha256 } from '../base/sha256.js';
import { canonicalJson } from '../events/canonical-json.js';
import type { PayloadOf } from '../events/event-definition.js';
import { createInferenceRouter } from '../inference/inference-router.js';
import { ModelProfileListSchema } from '../inference/model-profile.js';
import { WorkspacePolicySchema } from '../policies/workspace-policy.js';
import type { sessionConfigured } from '../sessions/session-events.js';
import {
  createAssessmentPolicy,
  defaultToolCallRules,
  unsandboxedExecRule,
} from '../toolintent/default-rules.js';
import { builtinTools } from '../tools/builtin-tools.js';
import { safeParseWorkflow } from '../transitions/workflow.js';
import { createDefaultValidatorRegistry } from '../validation/default-validators.js';
import { createKernelConfig, DEFAULT_KERNEL_LIMITS, type KernelConfig } from './kernel-config.js';

const positive = z.number().int().min(1);

/**
 * Everything a kernel config is built from, as data: what `session_configured` records, so that
 * replay and resume rebuild the very config a session started with instead of trusting that the
 * configuration files have not changed since. Validators and the tokenizer are correx's own and
 * not configurable, so they are named rather than described.
 */
export const SessionConfigurationSchema = z.strictObject({
  workflow: z.record(z.string(), z.json()),
  tools: z.array(z.string().min(1)),
  policy: z.record(z.string(), z.json()),
  models: z.array(z.record(z.string(), z.json())),
  homeDirectory: z.string().min(1),
  idempotentTools: z.array(z.string().min(1)),
  limits: z.strictObject({
    maxTurnsPerStage: positive,
    maxCallsPerTurn: positive,
    maxRepeatedFailures: positive,
    inferenceTimeoutMs: positive,
    compactJournalAfter: positive,
    compactJournalKeep: positive,
  }),
  /** The confinement the session's processes run under (absent: not stated, no tier raise). */
  sandbox: z.enum(['bubblewrap', 'none']).optional(),
  validators: z.literal('default'),
  tokenizer: z.literal('estimating'),
  /** The workflows stages may run as sub-sessions, by id (absent when there are none). */
  subWorkflows: z.record(z.string(), z.record(z.string(), z.json())).optional(),
});
export type SessionConfiguration = z.infer<typeof SessionConfigurationSchema>;

/** A recorded configuration cannot be turned back into a kernel config. */
export class InvalidSessionConfigurationError extends CorrexError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_session_configuration', message, options);
  }
}

/** Round-trips a value through JSON so the description holds exactly what the log will. */
function asJson<T>(value: unknown): T {
  return JSON.parse(JSON.stringify(value)) as T;
}

/** The data a kernel config was built from. Fails for tools that are not correx's built-ins. */
export function describeKernelConfig(config: KernelConfig): SessionConfiguration {
  const builtin = new Map(builtinTools.map((tool) => [tool.name, tool]));
  for (const tool of config.tools.values()) {
    if (builtin.get(tool.name) !== tool)
      throw new InvalidSessionConfigurationError(
        `tool ${tool.name} is not a built-in tool; a session's configuration can only name built-in tools`,
      );
  }
  const rules = config.policy.rules.filter((rule) => rule !== unsandboxedExecRule);
  if (
    rules.length !== defaultToolCallRules.length ||
    rules.some((rule, index) => rule !== defaultToolCallRules[index])
  )
    throw new InvalidSessionConfigurationError(
      "the policy registers rules other than correx's built-in ones, which a configuration cannot name",
    );
  return SessionConfigurationSchema.parse({
    workflow: asJson(config.workflow.definition),
    tools: [...config.tools.keys()],
    policy: asJson(config.policy.policy),
    models: asJson(config.router.profiles),
    homeDirectory: config.homeDirectory,
    idempotentTools: [...config.idempotentTools].sort(),
    limits: { ...DEFAULT_KERNEL_LIMITS, ...config.limits },
    ...(config.policy.sandbox === undefined ? {} : { sandbox: config.policy.sandbox }),
    validators: 'default',
    tokenizer: 'estimating',
    // Only when there are any, so that configurations without them keep their digests.
    ...(config.subWorkflows === undefined || config.subWorkflows.size === 0
      ? {}
      : {
          subWorkflows: Object.fromEntries(
            [...config.subWorkflows].map(([id, sub]) => [id, asJson(sub.definition)]),
          ),
        }),
  });
}

/** The `session_configured` payload for a kernel config. */
export function sessionConfiguredPayload(
  config: KernelConfig,
): PayloadOf<typeof sessionConfigured> {
  const configuration = describeKernelConfig(config);
  return {
    type: 'session_configured',
    configuration: asJson(configuration),
    digest: config.sha256(canonicalJson(configuration)),
  };
}

/** Builds the kernel config a recorded configuration describes. */
export function kernelConfigFromConfiguration(
  recorded: unknown,
  options: { readonly sha256?: Sha256 } = {},
): KernelConfig {
  const parsed = SessionConfigurationSchema.safeParse(recorded);
  if (!parsed.success)
    throw new InvalidSessionConfigurationError(
      `the recorded configuration does not parse: ${parsed.error.issues[0]?.message ?? 'invalid'}`,
      { cause: parsed.error },
    );
  const configuration = parsed.data;
  const workflow = safeParseWorkflow(configuration.workflow, { source: 'session_configured' });
  if (!workflow.success)
    throw new InvalidSessionConfigurationError(
      `the recorded workflow is invalid: ${workflow.error.message}`,
      { cause: workflow.error },
    );
  const policy = WorkspacePolicySchema.safeParse(configuration.policy);
  if (!policy.success)
    throw new InvalidSessionConfigurationError(
      `the recorded policy is invalid: ${policy.error.issues[0]?.message ?? 'invalid'}`,
      { cause: policy.error },
    );
  const models = ModelProfileListSchema.safeParse(configuration.models);
  if (!models.success)
    throw new InvalidSessionConfigurationError(
      `the recorded model profiles are invalid: ${models.error.issues[0]?.message ?? 'invalid'}`,
      { cause: models.error },
    );
  const subWorkflows = Object.entries(configuration.subWorkflows ?? {}).map(([id, definition]) => {
    const sub = safeParseWorkflow(definition, { source: `session_configured sub-workflow ${id}` });
    if (!sub.success)
      throw new InvalidSessionConfigurationError(
        `the recorded sub-workflow ${id} is invalid: ${sub.error.message}`,
        { cause: sub.error },
      );
    return sub.workflow;
  });
  const byName = new Map(builtinTools.map((tool) => [tool.name, tool]));
  const tools = configuration.tools.map((name) => {
    const tool = byName.get(name);
    if (tool === undefined)
      throw new InvalidSessionConfigurationError(
        `the recorded tool ${name} is not a built-in tool`,
      );
    return tool;
  });
  return createKernelConfig({
    workflow: workflow.workflow,
    tools,
    policy: createAssessmentPolicy(
      policy.data,
      defaultToolCallRules,
      configuration.sandbox === undefined ? {} : { sandbox: configuration.sandbox },
    ),
    router: createInferenceRouter({ profiles: models.data }),
    validators: createDefaultValidatorRegistry(),
    homeDirectory: configuration.homeDirectory,
    idempotentTools: configuration.idempotentTools,
    limits: configuration.limits,
    sha256: options.sha256 ?? sha256Hex,
    ...(subWorkflows.length === 0 ? {} : { subWorkflows }),
  });
}
