import { createBuiltinToolRunner } from '../infrastructure/kernel/builtin-tool-runner.js';
import { createDiskProjectCheckDetector } from '../infrastructure/checks/disk-project-check-detector.js';
import { createNodeTimer } from '../infrastructure/kernel/node-timer.js';
import { createTypeScriptLanguageDiagnostics } from '../infrastructure/lsp/typescript-language-diagnostics.js';
import { createProcessStaticAnalysisRunner } from '../infrastructure/kernel/process-static-analysis-runner.js';
import type { SandboxSettings } from '../infrastructure/sandbox/confined-process.js';
import { createPreimageStore } from '../infrastructure/sandbox/preimage-store.js';
import type { SandboxAvailability } from '../infrastructure/sandbox/sandbox-availability.js';
import { createDiskWorldProbe } from '../infrastructure/world-probe/disk-world-probe.js';
import { DEFAULT_NEVER_READABLE } from '../core/policies/workspace-policy.js';
import type { LivePortsFactory } from './session-host.js';

export type LivePortsOptions = {
  readonly homeDirectory: string;
  /** correx's home and store: hidden from every process a session starts. */
  readonly hiddenPaths: readonly string[];
  readonly availability: SandboxAvailability;
  /** Where exec change records keep pre-images (`<correx home>/preimages`); none: hashes only. */
  readonly preimageDirectory?: string;
  /** The trusted PATH programs resolve on (never the workspace). */
  readonly searchPath: string;
};

/**
 * The real outside world of a session: the built-in tools (exec confined by the sandbox this
 * machine offers), the disk probe, and definition-of-done checks confined the same way.
 */
export function createLivePorts(options: LivePortsOptions): LivePortsFactory {
  const preimages =
    options.preimageDirectory === undefined
      ? undefined
      : createPreimageStore(options.preimageDirectory);
  return ({ workspace, providers, config }) => {
    const policy = config.policy.policy;
    const sandbox: SandboxSettings = {
      availability: options.availability,
      neverWritable: policy.neverWritable,
      neverReadable: policy.neverReadable ?? DEFAULT_NEVER_READABLE,
      hiddenPaths: options.hiddenPaths,
      readablePaths: policy.sandboxReadablePaths ?? [],
    };
    return {
      providers,
      tools: createBuiltinToolRunner({
        exec: {
          searchPath: options.searchPath,
          sandbox,
          ...(preimages === undefined ? {} : { preimages }),
        },
      }),
      probe: createDiskWorldProbe({ hashOnlyUnder: [workspace] }),
      checks: createDiskProjectCheckDetector(),
      // A provider's rate limit (retryAfterMs) is waited out on the real clock.
      timer: createNodeTimer(),
      // typescript-language-server, started sandboxed per request (nothing outlives a session).
      diagnostics: createTypeScriptLanguageDiagnostics({
        homeDirectory: options.homeDirectory,
        searchPath: options.searchPath,
        sandbox,
      }),
      analysis: createProcessStaticAnalysisRunner({
        homeDirectory: options.homeDirectory,
        searchPath: options.searchPath,
        sandbox,
      }),
    };
  };
}
