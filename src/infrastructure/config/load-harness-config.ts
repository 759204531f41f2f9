import { parseDuration } from '../../core/base/duration.js';
import type { SessionBudgets } from '../../core/kernel/index.js';
import {
  DEFAULT_KERNEL_LIMITS,
  type JournalSummaryAuthor,
  type KernelLimits,
} from '../../core/kernel/index.js';
import { createHash } from 'node:crypto';
import { MAX_CONFIG_FILE_BYTES, readBoundedFile } from '../system/bounded-file-read.js';
import { join } from 'node:path';
import type { OperatorMode } from '../../core/approvals/approval-tier.js';
import type { ModelProfile } from '../../core/inference/model-profile.js';
import { mergePolicy, type PolicyWidening } from '../../core/policies/merge-policy.js';
import type { WorkspacePolicy } from '../../core/policies/workspace-policy.js';
import { defaultCodingWorkflow } from '../../core/transitions/default-coding-workflow.js';
import { chatWorkflow } from '../../core/transitions/chat-workflow.js';
import { safeParseWorkflow, type Workflow } from '../../core/transitions/workflow.js';
import {
  parseUserHarnessConfig,
  parseWorkspaceHarnessConfig,
  type ProviderConfig,
  type UserHarnessConfig,
  UserHarnessConfigSchema,
} from './harness-config.js';
import { mergeChecksConfig, type ChecksConfig } from '../../core/validation/project-check.js';
import type { McpServersConfig } from '../mcp/mcp-server-config.js';
import type { HookSet } from '../../core/toolintent/hook-definition.js';
import { ConfigFileError, parseYamlSource, type YamlSource } from './yaml-source.js';
import { widenPolicy } from '../../core/policies/widen-policy.js';
import {
  describeWorkspaceAuthority,
  isTrusted,
  type WorkspaceAuthority,
} from './workspace-trust.js';

export const HARNESS_FILE = 'harness.yaml';

/** The configuration a session runs with: the user's file, narrowed by the workspace's. */
export type HarnessConfig = {
  readonly mode: OperatorMode;
  readonly providers: Readonly<Record<string, ProviderConfig>>;
  readonly models: readonly ModelProfile[];
  readonly policy: WorkspacePolicy;
  /** What the workspace file asked for that would have widened the user's policy: refused, shown to the user. */
  readonly refusedPolicy: readonly PolicyWidening[];
  /** By id; always includes the built-in `default` coding workflow unless the user redefines it. */
  readonly workflows: ReadonlyMap<string, Workflow>;
  readonly defaults: { readonly workflow: string; readonly model?: string };
  /** The user's hooks, then a trusted workspace's (an untrusted one adds none); absent when none. */
  readonly hooks?: HookSet;
  /** The MCP servers of the user's file, and a trusted workspace's (an untrusted one adds none). */
  readonly mcpServers: McpServersConfig;
  /** What each session may spend unless the run says otherwise. */
  readonly budgets: SessionBudgets;
  /** The kernel limits the user's `limits:` and `journal:` set (only those they name). */
  readonly limits: Partial<KernelLimits>;
  /** `journal.summary`: who writes a compaction's summary. */
  readonly journalSummary: JournalSummaryAuthor;
  /** `checks:` of the user's file and the workspace's, merged (absent when neither has one). */
  readonly checks?: ChecksConfig;
  /** The files that were read, in order. */
  readonly sources: readonly string[];
  /**
   * What the workspace's file asks for that can run code or widen policy, when the operator has
   * not trusted this content: none of it is in this configuration. Starting anything must refuse.
   */
  readonly untrustedAuthority?: WorkspaceAuthority;
  /** The same, when the operator trusted exactly this content: it is applied. */
  readonly trustedAuthority?: WorkspaceAuthority;
  /** The same files with the SHA-256 of the bytes read, for `session_configured`. */
  readonly files: readonly { readonly path: string; readonly sha256: string }[];
};

/** The kernel limits `limits:` names. */
function runLimits(limits: UserHarnessConfig['limits']): Partial<KernelLimits> {
  return {
    ...(limits.turnsPerStage === undefined ? {} : { maxTurnsPerStage: limits.turnsPerStage }),
    ...(limits.callsPerTurn === undefined ? {} : { maxCallsPerTurn: limits.callsPerTurn }),
    ...(limits.repeatedFailures === undefined
      ? {}
      : { maxRepeatedFailures: limits.repeatedFailures }),
    ...(limits.modelTimeout === undefined
      ? {}
      : { inferenceTimeoutMs: parseDuration(limits.modelTimeout)! }),
  };
}

/** The kernel limits `journal:` names; `keep` must stay below `compactAfter`, defaults included. */
function journalLimits(journal: UserHarnessConfig['journal'], source: YamlSource | undefined) {
  const limits: Partial<KernelLimits> = {
    ...(journal.compactAfter === undefined ? {} : { compactJournalAfter: journal.compactAfter }),
    ...(journal.keep === undefined ? {} : { compactJournalKeep: journal.keep }),
    ...(journal.summaryMaxTokens === undefined
      ? {}
      : { compactJournalMaxTokens: journal.summaryMaxTokens }),
  };
  const after = limits.compactJournalAfter ?? DEFAULT_KERNEL_LIMITS.compactJournalAfter;
  const keep = limits.compactJournalKeep ?? DEFAULT_KERNEL_LIMITS.compactJournalKeep;
  if (keep >= after)
    throw new ConfigFileError(
      source?.locate(['journal', journal.keep === undefined ? 'compactAfter' : 'keep']) ??
        HARNESS_FILE,
      `journal.keep (${keep}) must be smaller than journal.compactAfter (${after})`,
    );
  return limits;
}

/**
 * Reads `$CORREX_HOME/harness.yaml` (the user's, trusted) and then `<workspace>/harness.yaml`
 * (the repository's, which may only narrow unless the operator trusted its content; see
 * workspace-trust.ts). Either may be absent. Every error names the file,
 * line, column and key.
 */
export async function loadHarnessConfig(options: {
  correxHome: string;
  workspace?: string;
}): Promise<HarnessConfig> {
  const userSource = await readSource(join(options.correxHome, HARNESS_FILE));
  const workspaceSource = options.workspace
    ? await readSource(join(options.workspace, HARNESS_FILE))
    : undefined;
  const user = userSource ? parseUserHarnessConfig(userSource) : UserHarnessConfigSchema.parse({});
  const workspace = workspaceSource ? parseWorkspaceHarnessConfig(workspaceSource) : undefined;

  const workflows = new Map<string, Workflow>([
    [defaultCodingWorkflow.id, defaultCodingWorkflow],
    [chatWorkflow.id, chatWorkflow],
  ]);
  const origin = new Map<string, string>([
    [defaultCodingWorkflow.id, 'built in'],
    [chatWorkflow.id, 'built in'],
  ]);
  const addWorkflows = (
    source: YamlSource,
    definitions: readonly unknown[],
    mayReplaceBuiltIn: boolean,
  ) => {
    definitions.forEach((definition, index) => {
      const result = safeParseWorkflow(definition, { source: source.file });
      if (!result.success) {
        const issue = result.error.issues[0];
        const where = source.locate(['workflows', index, ...(issue?.path ?? [])]);
        throw new ConfigFileError(where, issue?.message ?? result.error.message, {
          cause: result.error,
        });
      }
      const id = result.workflow.id;
      const earlier = origin.get(id);
      if (earlier && !(earlier === 'built in' && mayReplaceBuiltIn)) {
        throw new ConfigFileError(
          source.locate(['workflows', index, 'id']),
          `workflow "${id}" is already defined (${earlier})`,
        );
      }
      workflows.set(id, result.workflow);
      origin.set(id, source.file);
    });
  };
  if (userSource) addWorkflows(userSource, user.workflows, true);
  if (workspaceSource && workspace) addWorkflows(workspaceSource, workspace.workflows, false);

  const merged = mergePolicy(user.policy, workspace?.policy ?? {});
  const defaults = { ...user.defaults, ...workspace?.defaults };
  const workflow = defaults.workflow ?? defaultCodingWorkflow.id;
  const lastSource = workspaceSource ?? userSource;
  if (!workflows.has(workflow)) {
    throw new ConfigFileError(
      lastSource?.locate(['defaults', 'workflow']) ?? HARNESS_FILE,
      `defaults.workflow: no workflow "${workflow}"`,
    );
  }
  if (
    defaults.model !== undefined &&
    !user.models.some((profile) => profile.id === defaults.model)
  ) {
    throw new ConfigFileError(
      lastSource?.locate(['defaults', 'model']) ?? HARNESS_FILE,
      `defaults.model: no model profile "${defaults.model}"`,
    );
  }
  user.models.forEach((profile, index) => {
    if (!(profile.provider in user.providers) && profile.provider !== 'scripted') {
      throw new ConfigFileError(
        userSource!.locate(['models', index, 'provider']),
        `models[${index}].provider: no provider "${profile.provider}" under providers:`,
      );
    }
  });
  const checks = mergeChecksConfig(user.checks, workspace?.checks);
  const authority =
    workspaceSource === undefined || workspace === undefined
      ? null
      : describeWorkspaceAuthority({
          workspace: options.workspace!,
          harnessFile: { path: workspaceSource.file, sha256: workspaceSource.sha256 },
          ...(workspace.hooks === undefined ? {} : { hooks: workspace.hooks }),
          ...(workspace.mcpServers === undefined ? {} : { mcpServers: workspace.mcpServers }),
          widenings: merged.refused,
        });
  const trusted = authority !== null && isTrusted(options.correxHome, authority);
  const hooks = trusted ? joinHooks(user.hooks, authority.hooks) : user.hooks;
  return {
    mode: user.mode,
    providers: user.providers,
    models: user.models,
    policy: trusted ? widenPolicy(merged.policy, authority.widenings) : merged.policy,
    refusedPolicy: trusted ? [] : merged.refused,
    workflows,
    // The user's server of a name wins over the workspace's.
    mcpServers: trusted ? { ...authority.mcpServers, ...user.mcpServers } : user.mcpServers,
    ...(hooks === undefined ? {} : { hooks }),
    ...(authority === null
      ? {}
      : trusted
        ? { trustedAuthority: authority }
        : { untrustedAuthority: authority }),
    defaults: { workflow, ...(defaults.model === undefined ? {} : { model: defaults.model }) },
    budgets: {
      ...(user.budgets.maxTokens === undefined ? {} : { maxTokens: user.budgets.maxTokens }),
      ...(user.budgets.maxCostUsd === undefined ? {} : { maxCostUsd: user.budgets.maxCostUsd }),
      ...(user.budgets.maxDuration === undefined
        ? {}
        : { maxDurationMs: parseDuration(user.budgets.maxDuration)! }),
    },
    limits: { ...runLimits(user.limits), ...journalLimits(user.journal, userSource) },
    journalSummary: user.journal.summary,
    ...(checks === undefined ? {} : { checks }),
    sources: [userSource?.file, workspaceSource?.file].filter(
      (file): file is string => file !== undefined,
    ),
    files: [userSource, workspaceSource]
      .filter((source): source is ReadSource => source !== undefined)
      .map((source) => ({ path: source.file, sha256: source.sha256 })),
  };
}

/** The user's hooks, then a trusted workspace's, per event. */
function joinHooks(user: HookSet | undefined, workspace: HookSet | undefined): HookSet | undefined {
  if (workspace === undefined) return user;
  if (user === undefined) return workspace;
  return {
    pre_tool_use: [...user.pre_tool_use, ...workspace.pre_tool_use],
    post_tool_use: [...user.post_tool_use, ...workspace.post_tool_use],
    stage_end: [...user.stage_end, ...workspace.stage_end],
    session_end: [...user.session_end, ...workspace.session_end],
  };
}

type ReadSource = YamlSource & { readonly sha256: string };

async function readSource(path: string): Promise<ReadSource | undefined> {
  let bytes: Buffer;
  try {
    bytes = await readBoundedFile(path, { maxBytes: MAX_CONFIG_FILE_BYTES, what: HARNESS_FILE });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ConfigFileError(path, `cannot read: ${(error as Error).message}`, { cause: error });
  }
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  return Object.assign(parseYamlSource(bytes.toString('utf8'), path), { sha256 });
}
