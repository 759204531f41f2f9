import { parseDuration } from '../../core/base/duration.js';
import { z } from 'zod';
import { OperatorModeSchema } from '../../core/approvals/approval-tier.js';
import { ModelProfileListSchema } from '../../core/inference/model-profile.js';
import {
  PolicyOverlaySchema,
  WorkspacePolicySchema,
} from '../../core/policies/workspace-policy.js';
import { ChecksConfigSchema } from '../../core/validation/project-check.js';
import { McpServersConfigSchema } from '../mcp/mcp-server-config.js';
import { HookSetSchema } from '../../core/toolintent/hook-definition.js';
import { ConfigFileError, formatKeyPath, type YamlSource } from './yaml-source.js';

/**
 * How correx reaches one model server. Secrets never live in the file: `apiKeyEnv` names the
 * environment variable that holds the key.
 */
export const ProviderConfigSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('openai-compatible'),
    /** API root including `/v1`, e.g. `http://127.0.0.1:8080/v1` for llama.cpp's llama-server. */
    baseUrl: z.url(),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name such as OPENAI_API_KEY')
      .optional(),
    streaming: z.boolean().default(true),
    structuredOutputs: z.boolean().default(true),
  }),
  z.strictObject({
    kind: z.literal('anthropic'),
    baseUrl: z.url().optional(),
    apiKeyEnv: z
      .string()
      .regex(/^[A-Z_][A-Z0-9_]*$/, 'an environment variable name such as ANTHROPIC_API_KEY')
      .default('ANTHROPIC_API_KEY'),
    streaming: z.boolean().default(true),
  }),
  z.strictObject({
    kind: z.literal('llama-cpp'),
    /** A GGUF file on disk; correx never downloads a model. `~` is the home directory. */
    modelPath: z.string().min(1),
    contextSize: z.number().int().positive().optional(),
    gpu: z.union([z.literal(false), z.literal('auto')]).default('auto'),
    /** CPU threads of a generation; default every physical core but one (at least 1). */
    threads: z.number().int().positive().optional(),
    /** Layers offloaded to the GPU: a number, `max`, or `auto` (the default). */
    gpuLayers: z
      .union([z.number().int().nonnegative(), z.literal('auto'), z.literal('max')])
      .optional(),
    /** Prompt tokens evaluated per batch. */
    batchSize: z.number().int().positive().optional(),
    /** Upper bound on one local call in milliseconds (the kernel's timeout applies too). */
    timeoutMs: z.number().int().positive().optional(),
  }),
]);
export type ProviderConfig = z.infer<typeof ProviderConfigSchema>;

const NameSchema = z.string().regex(/^[a-z0-9][a-z0-9._-]*$/, 'names are lowercase [a-z0-9._-]');

/** The user's own `$CORREX_HOME/harness.yaml`: everything may be set here. */
export const UserHarnessConfigSchema = z.strictObject({
  mode: OperatorModeSchema.default('prompt'),
  providers: z.record(NameSchema, ProviderConfigSchema).default({}),
  models: ModelProfileListSchema.default([]),
  policy: WorkspacePolicySchema.default(WorkspacePolicySchema.parse({})),
  /** Workflow definitions, each in the workflow schema with its own `id` (see docs/workflows.md). */
  workflows: z.array(z.unknown()).default([]),
  /** The project checks every session runs before verify and review complete (added, replaced, advisory). */
  checks: ChecksConfigSchema.optional(),
  defaults: z
    .strictObject({ workflow: NameSchema.optional(), model: NameSchema.optional() })
    .default({}),
  /** MCP servers whose tools sessions are offered (see docs/mcp.md), in other clients' shape. */
  mcpServers: McpServersConfigSchema.default({}),
  /** Programs told about tool calls, stages and sessions (see docs/hooks.md). */
  hooks: HookSetSchema.optional(),
  /** Per-session defaults; `correx run --max-…` overrides them. */
  budgets: z
    .strictObject({
      maxTokens: z.number().int().positive().optional(),
      maxCostUsd: z.number().positive().optional(),
      /** `30m`, `2h`, `90s`. */
      maxDuration: z
        .string()
        .refine((text) => parseDuration(text) !== null, 'a duration such as 90s, 30m or 2h')
        .optional(),
    })
    .default({}),
  /** How long a stage may go on (docs/configuration.md, "Limits"). */
  limits: z
    .strictObject({
      /** Model turns one stage attempt may take before it fails. */
      turnsPerStage: z.number().int().min(1).max(1_000).optional(),
      /** Tool calls one model answer may make; the rest are rejected. */
      callsPerTurn: z.number().int().min(1).max(200).optional(),
      /** How often the same failing call may run again in one attempt. */
      repeatedFailures: z.number().int().min(1).max(100).optional(),
      /** The longest one model call may take: `90s`, `5m`. */
      modelTimeout: z
        .string()
        .refine(
          (text) => (parseDuration(text) ?? 0) >= 1_000,
          'a duration of at least 1s, such as 90s or 5m',
        )
        .optional(),
    })
    .default({}),
  /** How a long stage attempt's journal is compacted (docs/configuration.md, "Journal"). */
  journal: z
    .strictObject({
      /** Entries a stage attempt's journal may hold before the older ones are summarised. */
      compactAfter: z.number().int().min(2).optional(),
      /** The newest entries a compaction keeps verbatim. */
      keep: z.number().int().min(1).optional(),
      /** The most tokens one compaction's summary may take. */
      summaryMaxTokens: z.number().int().min(50).optional(),
      /** Who writes the summary: `lines` (correx, a line per entry) or `model` (the stage's model). */
      summary: z.enum(['lines', 'model']).default('lines'),
    })
    .default({ summary: 'lines' }),
});
export type UserHarnessConfig = z.infer<typeof UserHarnessConfigSchema>;

/**
 * A workspace's `harness.yaml`, which comes with the repository and so is not trusted to widen
 * anything by itself: it may add workflows, choose among the user's model profiles and narrow
 * policy; its hooks, MCP servers and policy widenings wait for the operator's trust.
 * Providers, model profiles and the operator mode come only from the user's file or flags.
 */
export const WorkspaceHarnessConfigSchema = z.strictObject({
  policy: PolicyOverlaySchema.optional(),
  workflows: z.array(z.unknown()).default([]),
  /** This repository's own checks: its definition of done, run sandboxed like any command. */
  checks: ChecksConfigSchema.optional(),
  defaults: z
    .strictObject({ workflow: NameSchema.optional(), model: NameSchema.optional() })
    .default({}),
  /** The repository's MCP servers: started only once the operator trusted this content. */
  mcpServers: McpServersConfigSchema.optional(),
  /** The repository's hooks: run only once the operator trusted this content. */
  hooks: HookSetSchema.optional(),
});
export type WorkspaceHarnessConfig = z.infer<typeof WorkspaceHarnessConfigSchema>;

// What a session may spend or keep in its packs is the user's to say, not a repository's. (A
// repository's hooks and MCP servers are programs run with the user's rights: they are read, but
// take effect only once the operator trusted that content; see workspace-trust.ts.)
const USER_ONLY_KEYS = ['mode', 'providers', 'models', 'budgets', 'limits', 'journal'] as const;

/** Validates a parsed file against `schema`; a failure names file, line, column and key. */
export function parseConfigSource<Schema extends z.ZodType>(
  source: YamlSource,
  schema: Schema,
): z.infer<Schema> {
  const result = schema.safeParse(source.data ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0]!;
  const key = formatKeyPath(issue.path);
  const detail =
    issue.code === 'unrecognized_keys'
      ? `unknown key${issue.keys.length > 1 ? 's' : ''} ${issue.keys.join(', ')}`
      : issue.message;
  const more =
    result.error.issues.length > 1
      ? ` (and ${result.error.issues.length - 1} more problem(s))`
      : '';
  throw new ConfigFileError(source.locate(issue.path), `${key ? `${key}: ` : ''}${detail}${more}`);
}

/** Parses the user's harness.yaml. */
export function parseUserHarnessConfig(source: YamlSource): UserHarnessConfig {
  return parseConfigSource(source, UserHarnessConfigSchema);
}

/** Parses a workspace harness.yaml, refusing the keys only the user may set. */
export function parseWorkspaceHarnessConfig(source: YamlSource): WorkspaceHarnessConfig {
  const data = source.data;
  if (typeof data === 'object' && data !== null) {
    for (const key of USER_ONLY_KEYS) {
      if (key in data) {
        throw new ConfigFileError(
          source.locate([key]),
          `${key}: a workspace file may not set ${key}; set it in $CORREX_HOME/harness.yaml or on the command line`,
        );
      }
    }
  }
  return parseConfigSource(source, WorkspaceHarnessConfigSchema);
}
