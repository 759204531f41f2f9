import { DEFAULT_NEVER_READABLE } from '../../../core/policies/workspace-policy.js';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync } from 'node:fs';
import { createDiskProjectCheckDetector } from '../../../infrastructure/checks/disk-project-check-detector.js';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Clock } from '../../../core/base/clock.js';
import { CorrexError } from '../../../core/base/correx-error.js';
import type { IdSource } from '../../../core/base/id-source.js';
import type { CorrexEvent, CorrexEventStore } from '../../../core/event-catalog.js';
import { runSession } from '../../../core/kernel/index.js';
import type { SessionStatus } from '../../../core/sessions/session-status.js';
import { createBuiltinToolRunner } from '../../../infrastructure/kernel/builtin-tool-runner.js';
import {
  createPreimageStore,
  preimageDirectory,
} from '../../../infrastructure/sandbox/preimage-store.js';
import { createProcessStaticAnalysisRunner } from '../../../infrastructure/kernel/process-static-analysis-runner.js';
import { defaultSearchPath } from '../../../infrastructure/system/default-search-path.js';
import { guardedPathOverlap, isInsidePath } from '../../../infrastructure/system/guarded-paths.js';
import { loadScriptedTurns } from '../../../infrastructure/providers/scripted-provider.js';
import { type SandboxSettings } from '../../../infrastructure/sandbox/confined-process.js';
import {
  describeSandbox,
  detectSandbox,
} from '../../../infrastructure/sandbox/sandbox-availability.js';
import { createDiskWorldProbe } from '../../../infrastructure/world-probe/disk-world-probe.js';
import { DEMO_PROVIDER, DEMO_TASK, DEMO_WORKFLOW_ID, demoKernelConfig } from './demo-config.js';
import { createDemoModel } from './demo-model.js';
import { packageAssets } from '../../../infrastructure/system/package-assets.js';
import { runWorkspaceCheck } from '../../../infrastructure/sandbox/workspace-check.js';

/** `assets/` of the package. */
const ASSETS = packageAssets('');

export type DemoRequest = {
  readonly store: CorrexEventStore;
  /** correx's home; no tool of the demo may write under it. */
  readonly correxHome: string;
  /** Where the sample is copied: must be empty or absent. Default: a fresh temporary folder. */
  readonly workspace?: string;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly onEvent?: (event: CorrexEvent) => void;
  /** Where notices go (the unsandboxed warning); default: stderr, and only when unsandboxed. */
  readonly onNotice?: (line: string) => void;
  readonly signal?: AbortSignal;
};

export type DemoReport = {
  readonly sessionId: string;
  readonly workspace: string;
  readonly status: SessionStatus;
  /** Under which confinement the session's commands ran: `bubblewrap` or `none`. */
  readonly sandbox: 'bubblewrap' | 'none';
  /** Whether `node --test` passes in the workspace after the session, run by the demo itself. */
  readonly testsPass: boolean;
  readonly testOutput: string;
};

/** The demo cannot use the folder it was given. */
export class DemoWorkspaceError extends CorrexError {
  constructor(message: string) {
    super('demo_workspace_invalid', message);
  }
}

/** The bundled sample or script is not where the package keeps it (a broken install). */
export class DemoAssetsMissingError extends CorrexError {
  constructor(path: string) {
    super(
      'demo_assets_missing',
      `the demo's bundled files are missing (${path}); reinstall correx`,
    );
  }
}

function asset(name: string): string {
  const path = join(ASSETS, name);
  if (!existsSync(path)) throw new DemoAssetsMissingError(path);
  return path;
}

/**
 * Copies the bundled sample into an empty folder and returns its real path. A folder that
 * contains or lies inside `guarded` (correx's home) is refused before anything is copied: every
 * tool call there would be refused.
 */
export function prepareDemoWorkspace(
  target: string | undefined,
  guarded: readonly string[],
): string {
  const sample = asset('demo-project');
  let workspace: string;
  if (target === undefined) {
    const parent = realpathSync(tmpdir());
    const home = guarded.find((path) => isInsidePath(parent, path));
    if (home !== undefined)
      throw new DemoWorkspaceError(
        `the demo's folder goes in the temporary folder ${parent}, which is inside ${home}, kept out of the agent's reach; set TMPDIR elsewhere or give --workspace`,
      );
    workspace = join(mkdtempSync(join(parent, 'correx-demo-')), 'median');
  } else {
    workspace = resolve(target);
    if (existsSync(workspace) && readdirSync(workspace).length > 0)
      throw new DemoWorkspaceError(
        `--workspace ${workspace} is not empty; give an empty or new folder`,
      );
    const real = existsSync(workspace) ? realpathSync(workspace) : workspace;
    const overlap = guardedPathOverlap(real, guarded);
    if (overlap !== null) throw new DemoWorkspaceError(overlap);
  }
  mkdirSync(workspace, { recursive: true });
  cpSync(sample, workspace, { recursive: true });
  return realpathSync(workspace);
}

/**
 * Runs the demo: copies the sample (a real bug, a failing test), drives the default workflow on
 * it in `auto` mode with the bundled script as the model, then runs the sample's tests itself so
 * the report says whether the fix really works, not only what the session claims.
 */
export async function runDemo(request: DemoRequest): Promise<DemoReport> {
  mkdirSync(request.correxHome, { recursive: true });
  const correxHome = realpathSync(request.correxHome);
  const workspace = prepareDemoWorkspace(request.workspace, [correxHome]);
  const homeDirectory = realpathSync(homedir());
  const availability = await detectSandbox();
  const notice =
    request.onNotice ??
    ((line: string) => {
      if (availability.kind === 'none') process.stderr.write(`correx: ${line}\n`);
    });
  const config = demoKernelConfig({ homeDirectory, correxHome, sandbox: availability.kind });
  notice(
    availability.kind === 'none'
      ? `${describeSandbox(availability, config.policy.policy.unsandboxedExecTier)} The demo's policy allows T2 in auto mode because its scripted model and sample are bundled and trusted.`
      : describeSandbox(availability),
  );
  const sandbox: SandboxSettings = {
    availability,
    neverWritable: config.policy.policy.neverWritable,
    neverReadable: config.policy.policy.neverReadable ?? DEFAULT_NEVER_READABLE,
    hiddenPaths: [correxHome],
    readablePaths: config.policy.policy.sandboxReadablePaths ?? [],
  };
  const turns = await loadScriptedTurns(asset('demo-script.json'));
  const sessionId = request.ids.next();
  const outcome = await runSession(
    {
      store: request.store,
      sessionId,
      config,
      ports: {
        providers: new Map([[DEMO_PROVIDER, createDemoModel(turns, DEMO_PROVIDER)]]),
        tools: createBuiltinToolRunner({
          exec: {
            searchPath: defaultSearchPath(),
            sandbox,
            preimages: createPreimageStore(preimageDirectory(correxHome)),
          },
        }),
        probe: createDiskWorldProbe({ hashOnlyUnder: [workspace] }),
        checks: createDiskProjectCheckDetector(),
        // The sample's own tests are a detected check: they run confined like its exec calls.
        analysis: createProcessStaticAnalysisRunner({
          homeDirectory,
          searchPath: defaultSearchPath(),
          sandbox,
        }),
      },
      clock: request.clock,
      ids: request.ids,
      ...(request.onEvent === undefined ? {} : { onEvent: request.onEvent }),
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    },
    { type: 'start', task: DEMO_TASK, workspace, workflowId: DEMO_WORKFLOW_ID, mode: 'auto' },
  );
  const tests = await runSampleTests(workspace, homeDirectory, sandbox);
  return { sessionId, workspace, status: outcome.status, sandbox: availability.kind, ...tests };
}

/** The sample's tests run the code the model changed, so they get the same confinement. */
async function runSampleTests(
  workspace: string,
  homeDirectory: string,
  sandbox: SandboxSettings,
): Promise<{ testsPass: boolean; testOutput: string }> {
  const run = await runWorkspaceCheck(
    [process.execPath, '--test'],
    workspace,
    homeDirectory,
    sandbox,
    60_000,
  );
  return { testsPass: run.passed, testOutput: run.output };
}
