import { createBuiltinToolRunner } from '../infrastructure/kernel/builtin-tool-runner.js';
import { createDiskProjectCheckDetector } from '../infrastructure/checks/disk-project-check-detector.js';
import { createNodeTimer } from '../infrastructure/kernel/node-timer.js';
import { createTypeScriptLanguageDiagnostics } from '../infrastructure/lsp/typescript-language-diagnostics.js';
import { createProcessStaticAnalysisRunner } from '../infrastructure/kernel/process-static-analysis-runner.js';
import type { SandboxSettings } from '../infrastructure/sandbox/confined-process.js';
import { createPreimageStore } from '../infrastructure/sandbox/preimage-store.js';
import type { SandboxAvailability } from '../infrastructure/sandbox/sandbox-availability.js';
import { createDiskWorldProbe } from '../infrastructure/world-probe/disk-world-probe.js';
import { createMcpToolSource } from '../infrastructure/mcp/mcp-tool-source.js';
import { createRoutingToolRunner } from '../infrastructure/mcp/mcp-tool-runner.js';
import { createHookNotifier } from '../infrastructure/hooks/hook-notifier.js';
import { createProcessHookRunner } from '../infrastructure/hooks/process-hook-runner.js';
import {
  DEFAULT_NEVER_READABLE,
  DEFAULT_UNSANDBOXED_EXEC_TIER,
} from '../core/policies/workspace-policy.js';
import type { LivePortsFactory } from './session-host.js';

/** Why a check is not run without a sandbox under a policy that asks for every unconfined command. */
export const UNCONFINED_CHECKS_REFUSED =
  "not run: no sandbox is available, and a check runs the workspace's own scripts (which the model can write) on the host; install bubblewrap, or set policy.unsandboxedExecTier to T2 in your harness.yaml to accept unconfined checks";

export type LivePortsOptions = {
  readonly homeDirectory: string;
  /** correx's home and store: hidden from every process a session starts. */
  readonly hiddenPaths: readonly string[];
  readonly availability: SandboxAvailability;
  /** Where exec change records keep pre-images (`<correx home>/preimages`); none: hashes only. */
  readonly preimageDirectory?: string;
  /** The trusted PATH programs resolve on (never the workspace). */
  readonly searchPath: string;
  /** correx's environment: MCP servers take their `${NAME}` secrets and `passEnv` from it. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Status lines of work that records nothing while it runs (the language server's checks). */
  readonly progress?: (line: string) => void;
};

/**
 * Unconfined checks run on the host only where the policy lets unconfined commands run without
 * a person (an unsandboxedExecTier below T3, as the bundled demo's policy has).
 */
export function unconfinedChecksRule(unsandboxedExecTier: string | undefined): {
  readonly refuseUnconfined?: string;
} {
  return (unsandboxedExecTier ?? DEFAULT_UNSANDBOXED_EXEC_TIER) === 'T3'
    ? { refuseUnconfined: UNCONFINED_CHECKS_REFUSED }
    : {};
}

/**
 * The real outside world of a session: the built-in tools (exec confined by the sandbox this
 * machine offers), the disk probe, and definition-of-done checks confined the same way.
 */
export function createLivePorts(options: LivePortsOptions): LivePortsFactory {
  const preimages =
    options.preimageDirectory === undefined
      ? undefined
      : createPreimageStore(options.preimageDirectory);
  const mcp = createMcpToolSource({
    ...options,
    env: options.env ?? {},
    ...(preimages === undefined ? {} : { preimages }),
  });
  return ({ workspace, providers, config, mcpServers, onCommandOutput }) => {
    const policy = config.policy.policy;
    const sandbox: SandboxSettings = {
      availability: options.availability,
      neverWritable: policy.neverWritable,
      neverReadable: policy.neverReadable ?? DEFAULT_NEVER_READABLE,
      hiddenPaths: options.hiddenPaths,
      readablePaths: policy.sandboxReadablePaths ?? [],
    };
    const builtin = createBuiltinToolRunner({
      exec: {
        searchPath: options.searchPath,
        sandbox,
        ...(preimages === undefined ? {} : { preimages }),
        ...(onCommandOutput === undefined ? {} : { onLiveOutput: onCommandOutput }),
      },
    });
    // MCP servers start on a recorded MCP tool's first call, never for a session without one.
    const usesMcp = [...config.tools.values()].some((tool) => tool.source?.kind === 'mcp');
    const mcpRunner =
      usesMcp && mcpServers !== undefined ? mcp.runner(mcpServers, workspace, policy) : undefined;
    const hookOptions = {
      homeDirectory: options.homeDirectory,
      sandbox,
      searchPath: options.searchPath,
    };
    // typescript-language-server, started sandboxed on the session's first check and kept
    // for its later ones (tsserver loads the project once), stopped when the session ends.
    const diagnostics = createTypeScriptLanguageDiagnostics({
      homeDirectory: options.homeDirectory,
      searchPath: options.searchPath,
      sandbox,
      ...(options.progress === undefined ? {} : { onProgress: options.progress }),
    });
    const notifier =
      config.hooks === undefined
        ? undefined
        : createHookNotifier(config.hooks, { ...hookOptions, workspaceRoot: workspace });
    return {
      providers,
      tools: mcpRunner === undefined ? builtin : createRoutingToolRunner(builtin, mcpRunner),
      hooks: createProcessHookRunner(hookOptions),
      ...(notifier === undefined ? {} : { observe: (event) => notifier.observe(event) }),
      close: async () => {
        await mcpRunner?.close();
        await diagnostics.close();
        await notifier?.settled();
      },
      probe: createDiskWorldProbe({ hashOnlyUnder: [workspace] }),
      checks: createDiskProjectCheckDetector(),
      // A provider's rate limit (retryAfterMs) is waited out on the real clock.
      timer: createNodeTimer(),
      diagnostics,
      analysis: createProcessStaticAnalysisRunner({
        homeDirectory: options.homeDirectory,
        searchPath: options.searchPath,
        sandbox,
        ...unconfinedChecksRule(policy.unsandboxedExecTier),
      }),
    };
  };
}
