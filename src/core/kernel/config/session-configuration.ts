import type { SessionBudgets } from '../features/budget/budget.js';
import { BOUNDED_JOURNAL_SUMMARY } from './kernel-flags.js';
import { ChecksConfigSchema } from '../../validation/project-check.js';
import { z } from 'zod';
import { CorrexError } from '../../base/correx-error.js';
import { sha256Hex, type Sha256 } from '../../base/sha256.js';
import { canonicalJson } from '../../events/canonical-json.js';
import type { PayloadOf } from '../../events/event-definition.js';
import { createInferenceRouter } from '../../inference/inference-router.js';
import { ModelProfileListSchema } from '../../inference/model-profile.js';
import { ProjectInstructionSchema } from '../../context/project-instructions.js';
import { HookSetSchema } from '../../toolintent/hook-definition.js';
import { RepositoryKnowledgeSchema } from '../../context/repository-knowledge.js';
import { WorkspacePolicySchema } from '../../policies/workspace-policy.js';
import type { sessionConfigured } from '../../sessions/session-events.js';
import {
  createAssessmentPolicy,
  defaultToolCallRules,
  unsandboxedExecRule,
} from '../../toolintent/default-rules.js';
import { ApprovalTierSchema } from '../../approvals/approval-tier.js';
import { builtinTools } from '../../tools/builtin-tools.js';
import {
  defineTool,
  ParamRoleSchema,
  ToolCapabilitySchema,
  ToolSourceSchema,
  type ToolDefinition,
} from '../../tools/tool-contract.js';
import { safeParseWorkflow } from '../../transitions/workflow.js';
import { createDefaultValidatorRegistry } from '../../validation/default-validators.js';
import {
  createKernelConfig,
  DEFAULT_KERNEL_LIMITS,
  type KernelConfig,
  type KernelLimits,
} from './kernel-config.js';
import {
  KERNEL_VERSIONS,
  recordedBehaviour,
  UnknownBehaviourError,
  type KernelBehaviour,
} from './behaviour.js';
import { flagsToRecord } from './kernel-versions.js';

const positive = z.number().int().min(1);

/**
 * A tool that is not built in (an MCP server's, a plugin's), described whole: replay rebuilds
 * it from this record without starting anything.
 */
export const RecordedToolSchema = z.strictObject({
  name: z.string().min(1),
  description: z.string(),
  inputSchema: z.record(z.string(), z.json()),
  paramRoles: z.record(z.string(), ParamRoleSchema),
  capabilities: z.array(ToolCapabilitySchema),
  defaultTier: ApprovalTierSchema,
  source: ToolSourceSchema,
});
export type RecordedTool = z.infer<typeof RecordedToolSchema>;

/**
 * Everything a kernel config is built from, as data: what `session_configured` records, so that
 * replay and resume rebuild the very config a session started with instead of trusting that the
 * configuration files have not changed since. Validators and the tokenizer are correx's own and
 * not configurable, so they are named rather than described.
 */
export const SessionConfigurationSchema = z.strictObject({
  workflow: z.record(z.string(), z.json()),
  /** Built-in tools by name; any other tool described whole. */
  tools: z.array(z.union([z.string().min(1), RecordedToolSchema])),
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
    /** Recorded only by sessions with `bounded-journal-summary`, the only ones it bounds. */
    compactJournalMaxTokens: positive.optional(),
  }),
  /** The confinement the session's processes run under (absent: not stated, no tier raise). */
  sandbox: z.enum(['bubblewrap', 'none']).optional(),
  validators: z.literal('default'),
  tokenizer: z.literal('estimating'),
  /** The workflows stages may run as sub-sessions, by id (absent when there are none). */
  subWorkflows: z.record(z.string(), z.record(z.string(), z.json())).optional(),
  /** harness.yaml `checks:` (absent when neither file has one). */
  checks: ChecksConfigSchema.optional(),
  /** The decider's version (absent: recorded before behaviour was versioned, version 1). */
  kernelVersion: z.number().int().min(2).optional(),
  /** The behaviour flags in force, sorted (see core/kernel/config/behaviour.ts). */
  flags: z.array(z.string().min(1)).optional(),
  /** The project's instruction files as read at the start (absent when there were none). */
  instructions: z.array(ProjectInstructionSchema).optional(),
  /** The user's hooks (absent when none are configured). */
  hooks: HookSetSchema.optional(),
  /** The repository survey made at the start (absent when none was made). */
  knowledge: RepositoryKnowledgeSchema.optional(),
  /** What the session may spend (absent: no budget). */
  budgets: z
    .strictObject({
      maxTokens: z.number().positive().optional(),
      maxCostUsd: z.number().positive().optional(),
      maxDurationMs: z.number().positive().optional(),
    })
    .optional(),
  /** `model` when the stage's model writes compaction summaries (absent: correx's lines). */
  journalSummary: z.literal('model').optional(),
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

/** A tool as the configuration records it: a built-in by name, any other described whole. */
function describeTool(tool: ToolDefinition): string | RecordedTool {
  const builtin = builtinTools.find((candidate) => candidate.name === tool.name);
  if (builtin === tool) return tool.name;
  if (tool.source === undefined || tool.inputJsonSchema === undefined)
    throw new InvalidSessionConfigurationError(
      `tool ${tool.name} is neither built in nor from a recorded source, so a session cannot record it`,
    );
  return {
    name: tool.name,
    description: tool.description,
    inputSchema: asJson(tool.inputJsonSchema),
    paramRoles: { ...tool.paramRoles },
    capabilities: [...tool.capabilities],
    defaultTier: tool.defaultTier,
    source: { ...tool.source },
  };
}

/** The tool a recorded entry names or describes. */
function recordedTool(entry: string | RecordedTool): ToolDefinition {
  if (typeof entry !== 'string') return toolFromRecord(entry);
  const tool = builtinTools.find((candidate) => candidate.name === entry);
  if (tool === undefined)
    throw new InvalidSessionConfigurationError(`the recorded tool ${entry} is not a built-in tool`);
  return tool;
}

/** A tool rebuilt from its recorded description (arguments checked by its own JSON Schema). */
export function toolFromRecord(record: RecordedTool): ToolDefinition {
  let argsSchema: z.ZodType;
  try {
    argsSchema = z.fromJSONSchema(record.inputSchema as z.core.JSONSchema.JSONSchema);
  } catch (error) {
    throw new InvalidSessionConfigurationError(
      `the recorded schema of tool ${record.name} cannot be compiled: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return defineTool({
    name: record.name,
    description: record.description,
    argsSchema,
    paramRoles: record.paramRoles,
    capabilities: record.capabilities,
    defaultTier: record.defaultTier,
    source: record.source,
    inputJsonSchema: record.inputSchema,
  });
}

function definedBudgets(budgets: NonNullable<SessionConfiguration['budgets']>): SessionBudgets {
  return Object.fromEntries(
    Object.entries(budgets).filter(([, value]) => value !== undefined),
  ) as SessionBudgets;
}

function withoutUndefined(limits: SessionConfiguration['limits']): Partial<KernelLimits> {
  const { compactJournalMaxTokens, ...rest } = limits;
  return compactJournalMaxTokens === undefined ? rest : { ...rest, compactJournalMaxTokens };
}

/** The limits a session records: those its behaviour reads, so older configurations keep their digests. */
function recordedLimits(config: KernelConfig): SessionConfiguration['limits'] {
  const { compactJournalMaxTokens, ...limits } = { ...DEFAULT_KERNEL_LIMITS, ...config.limits };
  return config.behaviour.flags.has(BOUNDED_JOURNAL_SUMMARY.name)
    ? { ...limits, compactJournalMaxTokens }
    : limits;
}

/** The data a kernel config was built from. Fails for a tool that is neither built in nor recorded. */
export function describeKernelConfig(config: KernelConfig): SessionConfiguration {
  const tools = [...config.tools.values()].map(describeTool);
  const rules = config.policy.rules.filter((rule) => rule !== unsandboxedExecRule);
  if (
    rules.length !== defaultToolCallRules.length ||
    rules.some((rule, index) => rule !== defaultToolCallRules[index])
  )
    throw new InvalidSessionConfigurationError(
      "the policy registers rules other than correx's built-in ones, which a configuration cannot name",
    );
  // What is recorded must build a kernel again (resume, replay, another process's approval):
  // a policy the recorded form refuses is refused here, before a session runs on it.
  const policy = WorkspacePolicySchema.safeParse(config.policy.policy);
  if (!policy.success)
    throw new InvalidSessionConfigurationError(
      `the policy to record is invalid: ${policy.error.issues[0]?.message ?? 'invalid'}`,
      { cause: policy.error },
    );
  return SessionConfigurationSchema.parse({
    workflow: asJson(config.workflow.definition),
    tools,
    policy: asJson(config.policy.policy),
    models: asJson(config.router.profiles),
    homeDirectory: config.homeDirectory,
    idempotentTools: [...config.idempotentTools].sort(),
    limits: recordedLimits(config),
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
    ...(config.checks === undefined ? {} : { checks: config.checks }),
    // Unversioned sessions keep the digest they recorded.
    ...(config.behaviour.kernelVersion < 2
      ? {}
      : {
          kernelVersion: config.behaviour.kernelVersion,
          // The flags its version implies are not named (none until a release folds some).
          flags: flagsToRecord(
            KERNEL_VERSIONS,
            config.behaviour.kernelVersion,
            config.behaviour.flags,
          ),
        }),
    ...(config.instructions === undefined ? {} : { instructions: asJson(config.instructions) }),
    ...(config.hooks === undefined ? {} : { hooks: asJson(config.hooks) }),
    ...(config.knowledge === undefined ? {} : { knowledge: asJson(config.knowledge) }),
    ...(config.budgets === undefined ? {} : { budgets: config.budgets }),
    ...(config.journalSummary === 'model' ? { journalSummary: 'model' } : {}),
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
    ...(config.configurationFiles === undefined
      ? {}
      : { files: config.configurationFiles.map((file) => ({ ...file })) }),
  };
}

function recordedBehaviourOf(configuration: SessionConfiguration): KernelBehaviour {
  try {
    return recordedBehaviour(configuration.kernelVersion, configuration.flags);
  } catch (error) {
    if (error instanceof UnknownBehaviourError)
      throw new InvalidSessionConfigurationError(error.message, { cause: error });
    throw error;
  }
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
  const behaviour = recordedBehaviourOf(configuration);
  const tools = configuration.tools.map(recordedTool);
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
    limits: withoutUndefined(configuration.limits),
    sha256: options.sha256 ?? sha256Hex,
    ...(subWorkflows.length === 0 ? {} : { subWorkflows }),
    ...(configuration.checks === undefined ? {} : { checks: configuration.checks }),
    behaviour,
    ...(configuration.instructions === undefined
      ? {}
      : { instructions: configuration.instructions }),
    ...(configuration.hooks === undefined ? {} : { hooks: configuration.hooks }),
    ...(configuration.knowledge === undefined ? {} : { knowledge: configuration.knowledge }),
    ...(configuration.budgets === undefined
      ? {}
      : { budgets: definedBudgets(configuration.budgets) }),
    ...(configuration.journalSummary === undefined
      ? {}
      : { journalSummary: configuration.journalSummary }),
  });
}
