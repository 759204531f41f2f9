import type { RepositoryKnowledge } from '../../context/repository-knowledge.js';
import { createPackMemo, type PackMemo } from '../../context/pack-memo.js';
import type { HookSet } from '../../toolintent/hook-definition.js';
import type { ProjectInstruction } from '../../context/project-instructions.js';
import type { Tokenizer } from '../../context/tokenizer.js';
import { createEstimatingTokenizer } from '../../context/tokenizer.js';
import type { InferenceRouter } from '../../inference/inference-router.js';
import type { AssessmentPolicy } from '../../toolintent/default-rules.js';
import { hasCapability, type ToolDefinition } from '../../tools/tool-contract.js';
import { builtinTools } from '../../tools/builtin-tools.js';
import type { Workflow } from '../../transitions/workflow.js';
import type { ValidatorRegistry } from '../../validation/validator-registry.js';
import { CorrexError } from '../../base/correx-error.js';
import { sha256Hex, type Sha256 } from '../../base/sha256.js';
import type { ChecksConfig } from '../../validation/project-check.js';
import { currentBehaviour, type KernelBehaviour } from './behaviour.js';

/** The bounds that keep a stage from looping forever. */
export type KernelLimits = {
  /** Inference turns per stage attempt; past it the attempt fails (category `inference`). */
  readonly maxTurnsPerStage: number;
  /** Tool calls run per turn; extra calls are rejected with `call_limit`. */
  readonly maxCallsPerTurn: number;
  /**
   * How often the same call (tool + canonical arguments) may fail in one stage attempt; the next
   * identical failing proposal fails the attempt (category `tool`) instead of running again.
   */
  readonly maxRepeatedFailures: number;
  /** Wall-clock limit handed to providers for one inference call. */
  readonly inferenceTimeoutMs: number;
  /** A stage attempt's journal longer than this is compacted before the next model call. */
  readonly compactJournalAfter: number;
  /** How many of the newest journal entries compaction keeps verbatim. */
  readonly compactJournalKeep: number;
  /** The most tokens one compaction's summary may take (with `bounded-journal-summary`). */
  readonly compactJournalMaxTokens: number;
};

export const DEFAULT_KERNEL_LIMITS: KernelLimits = {
  maxTurnsPerStage: 12,
  maxCallsPerTurn: 8,
  maxRepeatedFailures: 2,
  inferenceTimeoutMs: 120_000,
  compactJournalAfter: 60,
  compactJournalKeep: 20,
  compactJournalMaxTokens: 2_000,
};

/**
 * Everything `decide` reads besides the session's events: the workflow, the tool contracts, the
 * assessment policy, the model router, the validators, the tokenizer and the bounds. It must be
 * the same for a live run and its replay (the composition root builds both from one config).
 */
export type KernelConfig = {
  readonly workflow: Workflow;
  readonly tools: ReadonlyMap<string, ToolDefinition>;
  readonly policy: AssessmentPolicy;
  readonly router: InferenceRouter;
  readonly validators: ValidatorRegistry;
  readonly tokenizer: Tokenizer;
  /** The real home directory `~` resolves to (an absolute, normalized path). */
  readonly homeDirectory: string;
  /** Tools whose re-run after an interruption cannot double an effect. */
  readonly idempotentTools: ReadonlySet<string>;
  readonly limits: KernelLimits;
  /** SHA-256 for digests, artifact hashes and derived ids; infrastructure passes Node's native one. */
  readonly sha256: Sha256;
  /** Workflows a stage may run as a sub-session (`subagent.workflow`), by id. Absent: none. */
  readonly subWorkflows?: ReadonlyMap<string, Workflow>;
  /** harness.yaml `checks:`: added, replacing or advisory project checks. Absent: the detected ones as they are. */
  readonly checks?: ChecksConfig;
  /** The decider version and behaviour flags in force; `policy.flags` are the same flags. */
  readonly behaviour: KernelBehaviour;
  /** The instruction files recorded at the session's start (absent: none were found). */
  readonly instructions?: readonly ProjectInstruction[];
  /** The user's hooks (absent: none configured). */
  readonly hooks?: HookSet;
  /** The repository survey recorded at the session's start (absent: none was made). */
  readonly knowledge?: RepositoryKnowledge;
  /** What the session may spend (flag `session-budgets`). Absent: no budget. */
  readonly budgets?: SessionBudgets;
  /** The configuration files read to build this config (recorded beside it, not digested). */
  readonly configurationFiles?: readonly ConfigurationFile[];
  /** Who writes a journal compaction's summary: correx, a line per entry, or the stage's model. */
  readonly journalSummary: JournalSummaryAuthor;
  /**
   * What the session's model calls have derived from pack texts (token counts, digests), kept
   * for the next call. Keyed by the text, so it never changes a request (absent: all afresh).
   */
  readonly packMemo?: PackMemo;
};

export type JournalSummaryAuthor = 'lines' | 'model';

/** A configuration file a session was built from, and the SHA-256 of the bytes read. */
export type ConfigurationFile = { readonly path: string; readonly sha256: string };

export type KernelConfigOptions = {
  readonly workflow: Workflow;
  readonly tools: readonly ToolDefinition[];
  readonly policy: AssessmentPolicy;
  readonly router: InferenceRouter;
  readonly validators: ValidatorRegistry;
  readonly homeDirectory: string;
  readonly tokenizer?: Tokenizer;
  /** Besides read-only tools, which are always idempotent. Default: the built-ins marked `idempotent` (`write_file`). */
  readonly idempotentTools?: readonly string[];
  readonly limits?: Partial<KernelLimits>;
  /** Defaults to the pure implementation in core/base (same digests, slower). */
  readonly sha256?: Sha256;
  /** Workflows that stages may run as sub-sessions (their `subagent.workflow` names one). */
  readonly subWorkflows?: readonly Workflow[];
  /** harness.yaml `checks:` (see `ChecksConfig`). */
  readonly checks?: ChecksConfig;
  /** Default: this release's behaviour (a new session); replay passes the recorded one. */
  readonly behaviour?: KernelBehaviour;
  /** The project's instruction files, read when the session started. */
  readonly instructions?: readonly ProjectInstruction[];
  readonly hooks?: HookSet;
  readonly knowledge?: RepositoryKnowledge;
  readonly budgets?: SessionBudgets;
  readonly configurationFiles?: readonly ConfigurationFile[];
  /** Default: `lines`. */
  readonly journalSummary?: JournalSummaryAuthor;
};

/** The kernel configuration is unusable (a duplicate tool, a bad bound). */
export class InvalidKernelConfigError extends CorrexError {
  constructor(message: string) {
    super('invalid_kernel_config', message);
  }
}

/** The built-in tools that declare themselves idempotent (the default `idempotentTools`). */
const idempotentBuiltins = builtinTools
  .filter((tool) => tool.idempotent === true)
  .map((tool) => tool.name);

export function createKernelConfig(options: KernelConfigOptions): KernelConfig {
  const tools = new Map<string, ToolDefinition>();
  for (const tool of options.tools) {
    if (tools.has(tool.name))
      throw new InvalidKernelConfigError(`tool ${tool.name} is listed twice`);
    tools.set(tool.name, tool);
  }
  const limits = { ...DEFAULT_KERNEL_LIMITS, ...options.limits };
  if (limits.compactJournalKeep >= limits.compactJournalAfter) {
    throw new InvalidKernelConfigError(
      'compactJournalKeep must be smaller than compactJournalAfter',
    );
  }
  for (const [name, value] of Object.entries(limits)) {
    if (!Number.isInteger(value) || value < 1) {
      throw new InvalidKernelConfigError(`limit ${name} must be a positive integer, got ${value}`);
    }
  }
  const budgets = checkedBudgets(options.budgets);
  const subWorkflows = subWorkflowsOf(options.workflow, options.subWorkflows ?? []);
  const idempotent = new Set(options.idempotentTools ?? idempotentBuiltins);
  for (const tool of tools.values())
    if (hasCapability(tool, 'READ_ONLY')) idempotent.add(tool.name);
  const behaviour = options.behaviour ?? currentBehaviour();
  return {
    workflow: options.workflow,
    tools,
    // One source for the flags: the rules read the session's, whatever the policy was built with.
    policy: { ...options.policy, flags: behaviour.flags },
    router: options.router,
    validators: options.validators,
    tokenizer: options.tokenizer ?? createEstimatingTokenizer(),
    homeDirectory: options.homeDirectory,
    idempotentTools: idempotent,
    limits,
    sha256: options.sha256 ?? sha256Hex,
    ...(subWorkflows.size === 0 ? {} : { subWorkflows }),
    ...(options.checks === undefined ? {} : { checks: options.checks }),
    behaviour,
    ...(options.instructions === undefined || options.instructions.length === 0
      ? {}
      : { instructions: options.instructions }),
    ...(options.hooks === undefined ||
    Object.values(options.hooks).every((list) => list.length === 0)
      ? {}
      : { hooks: options.hooks }),
    ...(options.knowledge === undefined ? {} : { knowledge: options.knowledge }),
    ...(budgets === undefined ? {} : { budgets }),
    ...(options.configurationFiles === undefined || options.configurationFiles.length === 0
      ? {}
      : { configurationFiles: options.configurationFiles }),
    journalSummary: options.journalSummary ?? 'lines',
    packMemo: createPackMemo(),
  };
}

/**
 * The sub-workflows by id, checked: ids are unique, every `subagent` stage (of the workflow and
 * of the sub-workflows) names one of them, and no workflow reaches itself through sub-sessions
 * (a session may not recurse without bound).
 */
function subWorkflowsOf(
  workflow: Workflow,
  list: readonly Workflow[],
): ReadonlyMap<string, Workflow> {
  const byId = new Map<string, Workflow>();
  for (const sub of list) {
    if (byId.has(sub.id))
      throw new InvalidKernelConfigError(`sub-workflow ${sub.id} is listed twice`);
    byId.set(sub.id, sub);
  }
  const children = (of: Workflow): string[] => {
    const ids: string[] = [];
    for (const stage of of.stages.values()) {
      const id = stage.subagent?.workflow;
      if (id === undefined) continue;
      if (!byId.has(id))
        throw new InvalidKernelConfigError(
          `stage ${stage.id} of workflow ${of.id} runs sub-workflow ${id}, which the configuration does not list`,
        );
      ids.push(id);
    }
    return ids;
  };
  const visit = (of: Workflow, path: readonly string[]): void => {
    for (const id of children(of)) {
      if (path.includes(id))
        throw new InvalidKernelConfigError(
          `workflows run each other as sub-sessions in a cycle: ${[...path, id].join(' -> ')}`,
        );
      visit(byId.get(id)!, [...path, id]);
    }
  };
  visit(workflow, [workflow.id]);
  for (const sub of byId.values()) visit(sub, [sub.id]);
  return byId;
}

/** The configuration a stage's sub-session runs under: the same one, with the sub-workflow. */
export function childKernelConfig(config: KernelConfig, workflowId: string): KernelConfig {
  const workflow = config.subWorkflows?.get(workflowId);
  if (workflow === undefined)
    throw new InvalidKernelConfigError(`no sub-workflow ${workflowId} in the kernel configuration`);
  return { ...config, workflow };
}

/** What a session may spend; a missing bound is no bound. Recorded in `session_configured`. */
export type SessionBudgets = {
  readonly maxTokens?: number;
  /** US dollars, priced by each model profile's `prices`. */
  readonly maxCostUsd?: number;
  /** From `session_created` to the latest recorded event. */
  readonly maxDurationMs?: number;
};

/** Budgets must be positive numbers; an empty set is no budget. */
function checkedBudgets(budgets: SessionBudgets | undefined): SessionBudgets | undefined {
  if (budgets === undefined) return undefined;
  const given = Object.entries(budgets).filter(([, value]) => value !== undefined);
  for (const [name, value] of given)
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0)
      throw new InvalidKernelConfigError(`budget ${name} must be a positive number, got ${value}`);
  return given.length === 0 ? undefined : (Object.fromEntries(given) as SessionBudgets);
}
