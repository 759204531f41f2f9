import { existsSync, realpathSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { OperatorMode } from '../core/approvals/approval-tier.js';
import { CorrexError } from '../core/base/correx-error.js';
import { createInferenceRouter } from '../core/inference/inference-router.js';
import type { ModelProfile } from '../core/inference/model-profile.js';
import { createKernelConfig, type KernelConfig } from '../core/kernel/index.js';
import { GIT_NEVER_WRITABLE, type WorkspacePolicy } from '../core/policies/workspace-policy.js';
import { createAssessmentPolicy, defaultToolCallRules } from '../core/toolintent/default-rules.js';
import type { SandboxKind } from '../core/policies/sandbox-profile.js';
import { builtinTools } from '../core/tools/builtin-tools.js';
import type { Workflow } from '../core/transitions/workflow.js';
import { createDefaultValidatorRegistry } from '../core/validation/default-validators.js';
import { environmentModel } from '../infrastructure/config/environment-model.js';
import type { ProviderConfig } from '../infrastructure/config/harness-config.js';
import {
  loadHarnessConfig,
  type HarnessConfig,
} from '../infrastructure/config/load-harness-config.js';
import { requireTrustedWorkspace } from '../infrastructure/config/workspace-trust.js';
import { readWorkflowYamlFile } from '../infrastructure/config/workflow-yaml.js';
import type { McpServerListing } from '../infrastructure/mcp/list-mcp-tools.js';
import type { McpToolSource } from '../infrastructure/mcp/mcp-tool-source.js';
import { offerMcpTools } from '../infrastructure/mcp/offer-mcp-tools.js';
import { readProjectInstructions } from '../infrastructure/instructions/read-project-instructions.js';
import { probeRepository } from '../infrastructure/knowledge/probe-repository.js';
import type { ToolDefinition } from '../core/tools/tool-contract.js';
import { guardedPathOverlap, isInsidePath } from '../infrastructure/system/guarded-paths.js';
import { nodeSha256 } from '../infrastructure/system/node-sha256.js';
import { gitPathsOf } from '../infrastructure/workspace/git-paths.js';
import type { StartSessionRequest } from '../interfaces/session-host.js';

/** A session cannot be set up as asked (workspace, workflow or model). Exit code 2 in the CLI. */
export class SessionSetupError extends CorrexError {
  constructor(message: string) {
    super('session_setup', message);
  }
}

/** The workspace is outside the roots this host may run sessions in. */
export class WorkspaceNotAllowedError extends CorrexError {
  constructor(workspace: string, roots: readonly string[]) {
    super(
      'workspace_not_allowed',
      `workspace ${workspace} is not inside an allowed root (${roots.join(', ')})`,
    );
  }
}

export type SessionSetupOptions = {
  readonly correxHome: string;
  /** The real home directory `~` resolves to. */
  readonly homeDirectory: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Absolute paths the agent's tools must never touch besides correx's home (the store file). */
  readonly protectedPaths?: readonly string[];
  /** When given, a workspace must lie inside one of these (the server's allowed roots). */
  readonly allowedRoots?: readonly string[];
  /** The confinement this machine offers; `none` raises every exec (see docs/sandbox.md). */
  readonly sandbox: SandboxKind;
  /** Reaches configured MCP servers; absent: their tools are not offered (and a setup says so). */
  readonly mcp?: McpToolSource;
};

/** Everything a new session needs, resolved from the request and the configuration files. */
export type SessionSetup = {
  readonly workspace: string;
  readonly config: KernelConfig;
  readonly mode: OperatorMode;
  readonly modelProfile: string | undefined;
  /** How to reach each provider the model profiles name. */
  readonly providers: Readonly<Record<string, ProviderConfig>>;
  readonly harness: HarnessConfig;
  /** Each configured MCP server as listed for this session (a failed one says why). */
  readonly mcpServers: readonly McpServerListing[];
};

/** Resolves the workspace to a real directory that is allowed and holds none of correx's files. */
export function resolveWorkspace(path: string, options: SessionSetupOptions): string {
  const absolute = resolve(path);
  if (!existsSync(absolute) || !statSync(absolute).isDirectory())
    throw new SessionSetupError(`workspace ${absolute} is not a directory`);
  const workspace = realpathSync(absolute);
  if (options.allowedRoots !== undefined) {
    const roots = options.allowedRoots.map((root) => realpathSync(resolve(root)));
    if (!roots.some((root) => isInsidePath(workspace, root)))
      throw new WorkspaceNotAllowedError(workspace, roots);
  }
  // Inside one, every read and write the agent tried would be refused: say so before it starts.
  const overlap = guardedPathOverlap(workspace, [
    options.correxHome,
    ...(options.protectedPaths ?? []),
  ]);
  if (overlap !== null) throw new SessionSetupError(overlap);
  return workspace;
}

/**
 * Builds a new session's kernel config from the user's and the workspace's harness.yaml, the
 * environment model (OPENAI_BASE_URL) when no models are configured, and the request.
 */
export async function prepareSession(
  request: StartSessionRequest,
  options: SessionSetupOptions,
): Promise<SessionSetup> {
  const workspace = resolveWorkspace(request.workspace, options);
  const configured = await loadHarnessConfig({ correxHome: options.correxHome, workspace });
  requireTrustedWorkspace(options.correxHome, configured);
  const harness = withClientMcpServers(configured, request.mcpServers);
  const { workflow, file: workflowFile } = await resolveWorkflow(
    request.workflow ?? harness.defaults.workflow,
    harness,
  );
  const { profiles, providers } = resolveModels(harness, options.env, options.correxHome);
  const chosen = request.modelProfile ?? harness.defaults.model;
  let routed: readonly ModelProfile[] = profiles;
  if (chosen !== undefined) {
    const profile = profiles.find((candidate) => candidate.id === chosen);
    if (profile === undefined)
      throw new SessionSetupError(
        `no model profile "${chosen}" (configured: ${profiles.map((p) => p.id).join(', ') || 'none'})`,
      );
    // A chosen profile runs every stage: the router sees only it.
    routed = [profile];
  }
  const policy = protectPolicy(harness.policy, workspace, options);
  const mcpServers = await listConfiguredMcpServers(harness, workspace, policy, options);
  const mcpTools = uniqueTools(mcpServers.flatMap((listing) => (listing.ok ? listing.tools : [])));
  const config = createKernelConfig({
    workflow: offerMcpTools(workflow, mcpTools, harness.mcpServers),
    subWorkflows: reachableSubWorkflows(workflow, harness.workflows),
    tools: [...builtinTools, ...mcpTools],
    policy: createAssessmentPolicy(policy, defaultToolCallRules, {
      sandbox: options.sandbox,
    }),
    router: createInferenceRouter({ profiles: routed }),
    validators: createDefaultValidatorRegistry(),
    homeDirectory: options.homeDirectory,
    sha256: nodeSha256,
    instructions: readProjectInstructions({ workspace, correxHome: options.correxHome }),
    ...(harness.hooks === undefined ? {} : { hooks: harness.hooks }),
    knowledge: probeRepository(workspace),
    budgets: { ...harness.budgets, ...request.budgets },
    limits: harness.limits,
    journalSummary: harness.journalSummary,
    configurationFiles: [
      ...harness.files,
      // A trusted workspace's hook and server programs governed the session too: by digest.
      ...(harness.trustedAuthority?.files.filter(
        (file) => !harness.files.some((read) => read.path === file.path),
      ) ?? []),
      ...(workflowFile === undefined ? [] : [workflowFile]),
    ],
    ...(harness.checks === undefined ? {} : { checks: harness.checks }),
  });
  return {
    workspace,
    config,
    mode: request.mode ?? harness.mode,
    modelProfile: chosen,
    providers,
    harness,
    mcpServers,
  };
}

/**
 * The configuration with the MCP servers a client brought (an editor over ACP) beside the
 * configured ones: listed, sandboxed, tiered and approval-gated exactly like them. A client's
 * server may not take a configured server's name.
 */
function withClientMcpServers(
  harness: HarnessConfig,
  servers: StartSessionRequest['mcpServers'],
): HarnessConfig {
  if (servers === undefined || Object.keys(servers).length === 0) return harness;
  for (const name of Object.keys(servers))
    if (name in harness.mcpServers)
      throw new SessionSetupError(
        `the client's MCP server "${name}" has the name of a configured one (mcpServers: in harness.yaml); rename it`,
      );
  return { ...harness, mcpServers: { ...harness.mcpServers, ...servers } };
}

/**
 * Lists the configured MCP servers' tools for a new session (the session records them). A
 * server that cannot be listed is reported in the setup and offers nothing; the session runs.
 */
async function listConfiguredMcpServers(
  harness: HarnessConfig,
  workspace: string,
  policy: WorkspacePolicy,
  options: SessionSetupOptions,
): Promise<McpServerListing[]> {
  const names = Object.keys(harness.mcpServers).sort();
  if (names.length === 0) return [];
  if (options.mcp === undefined)
    return names.map((server) => ({
      server,
      ok: false,
      error: 'this host does not start MCP servers',
    }));
  return options.mcp.list(harness.mcpServers, workspace, policy);
}

/** The first of any tools whose names collide (two servers' names mangled alike). */
function uniqueTools(tools: readonly ToolDefinition[]): ToolDefinition[] {
  const seen = new Set<string>();
  return tools.filter((tool) => !seen.has(tool.name) && seen.add(tool.name) !== undefined);
}

/**
 * correx's own files, and `.git` in any form at any depth with the git directories the
 * workspace's `.git` leads to, are never writable, whatever the configured policy says.
 */
export function protectPolicy(
  policy: WorkspacePolicy,
  workspace: string,
  options: Pick<SessionSetupOptions, 'correxHome' | 'protectedPaths'>,
  /** The workspace's git paths (default: read from its `.git` now). */
  gitPaths: readonly string[] = gitPathsOf(workspace),
): WorkspacePolicy {
  const guarded = [options.correxHome, ...(options.protectedPaths ?? []), ...gitPaths].map((path) => `${existsSync(path) ? realpathSync(path) : resolve(path)}/**`);
  const neverWritable = [...policy.neverWritable, ...GIT_NEVER_WRITABLE, ...guarded];
  return { ...policy, neverWritable: [...new Set(neverWritable)] };
}

/**
 * The configured workflows a session may run as sub-sessions: those its stages name, and theirs
 * in turn. Only these are recorded; an unknown name is left for the kernel config to refuse.
 */
export function reachableSubWorkflows(
  workflow: Workflow,
  known: ReadonlyMap<string, Workflow>,
): Workflow[] {
  const found = new Map<string, Workflow>();
  const visit = (of: Workflow) => {
    for (const stage of of.stages.values()) {
      const id = stage.subagent?.workflow;
      const sub = id === undefined ? undefined : known.get(id);
      if (sub === undefined || found.has(sub.id) || sub.id === workflow.id) continue;
      found.set(sub.id, sub);
      visit(sub);
    }
  };
  visit(workflow);
  return [...found.values()];
}

/** A workflow by name from the configuration (built-in `default-coding` and `chat` too), or a workflow YAML file. */
export async function resolveWorkflow(
  name: string,
  harness: HarnessConfig,
): Promise<{ workflow: Workflow; file?: { path: string; sha256: string } }> {
  if (name.includes('/') || /\.ya?ml$/.test(name)) {
    const path = resolve(name);
    const read = await readWorkflowYamlFile(path);
    return { workflow: read.workflow, file: { path, sha256: read.sha256 } };
  }
  const workflow = harness.workflows.get(name);
  if (workflow === undefined)
    throw new SessionSetupError(
      `no workflow "${name}" (known: ${[...harness.workflows.keys()].join(', ')}; or give a workflow YAML file)`,
    );
  return { workflow };
}

/** The model profiles and providers configured (or, with none, the environment's model). */
export function resolveModels(
  harness: HarnessConfig,
  env: SessionSetupOptions['env'],
  /** The user's configuration folder, named in the error so the person knows which file. */
  correxHome?: string,
): { profiles: readonly ModelProfile[]; providers: Readonly<Record<string, ProviderConfig>> } {
  if (harness.models.length > 0) return { profiles: harness.models, providers: harness.providers };
  const fromEnvironment = environmentModel(env);
  if (fromEnvironment === undefined)
    throw new SessionSetupError(
      `no model is configured: add a provider and a model profile to ${correxHome === undefined ? '$CORREX_HOME/harness.yaml' : join(correxHome, 'harness.yaml')} (\`correx init\` writes a template), or set OPENAI_BASE_URL and CORREX_MODEL; \`correx demo\` runs without a model`,
    );
  return {
    profiles: [fromEnvironment.profile],
    providers: { ...harness.providers, [fromEnvironment.providerName]: fromEnvironment.provider },
  };
}
