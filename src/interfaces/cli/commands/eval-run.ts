import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Clock } from '../../../core/base/clock.js';
import { CorrexError } from '../../../core/base/correx-error.js';
import type { IdSource } from '../../../core/base/id-source.js';
import type { CorrexEvent, CorrexEventStore } from '../../../core/event-catalog.js';
import { InferenceError } from '../../../core/inference/inference-failure.js';
import type { InferenceProvider } from '../../../core/inference/inference-provider.js';
import { ownSessionSpend, recordedKernelConfig, runSession } from '../../../core/kernel/index.js';
import { replayAnySession } from '../../fork-replay.js';
import { forkSession } from '../../session-fork.js';
import { DEFAULT_NEVER_READABLE } from '../../../core/policies/workspace-policy.js';
import { createDiskProjectCheckDetector } from '../../../infrastructure/checks/disk-project-check-detector.js';
import {
  loadEvalSuite,
  scriptedModelFolder,
  type EvalTask,
} from '../../../infrastructure/eval/eval-suite.js';
import { createBuiltinToolRunner } from '../../../infrastructure/kernel/builtin-tool-runner.js';
import { createProcessStaticAnalysisRunner } from '../../../infrastructure/kernel/process-static-analysis-runner.js';
import {
  loadScriptedTurns,
  type ScriptedTurn,
} from '../../../infrastructure/providers/scripted-provider.js';
import { type SandboxSettings } from '../../../infrastructure/sandbox/confined-process.js';
import {
  createPreimageStore,
  preimageDirectory,
} from '../../../infrastructure/sandbox/preimage-store.js';
import { detectSandbox } from '../../../infrastructure/sandbox/sandbox-availability.js';
import { defaultSearchPath } from '../../../infrastructure/system/default-search-path.js';
import { nodeSha256 } from '../../../infrastructure/system/node-sha256.js';
import { createDiskWorldProbe } from '../../../infrastructure/world-probe/disk-world-probe.js';
import { materialiseTaskWorkspace } from '../../../infrastructure/eval/task-workspace.js';
import { protectedHashes, scoreEvalRun } from './eval-run-score.js';
import { DEMO_WORKFLOW_ID } from './demo-config.js';
import { createDemoModel } from './demo-model.js';
import { evalKernelConfig, SCRIPTED_PROVIDER } from './eval-config.js';

export type EvalRunRequest = {
  readonly suite: string;
  readonly models: readonly string[];
  readonly repeat: number;
  readonly store: CorrexEventStore;
  readonly correxHome: string;
  /** Where each run's workspace copy goes (default: a fresh temporary folder). */
  readonly workdir?: string;
  readonly clock: Clock;
  readonly ids: IdSource;
  readonly onRun?: (run: EvalRunResult) => void;
  /** Only these tasks of the suite (default: all). */
  readonly tasks?: readonly string[];
  /**
   * Each run starts as a fork of this recorded session at this point (a sequence, stage or call
   * as `correx fork --at` takes it): only the suffix is live. Needs exactly one task to score.
   */
  readonly from?: { readonly sessionId: string; readonly at: string };
  /**
   * Runs a task with a configured model profile (harness.yaml) in auto mode, as `correx run`
   * does; absent: only `scripted:<name>` models can run.
   */
  readonly startConfigured?: (run: {
    readonly task: string;
    readonly workspace: string;
    readonly model: string;
  }) => Promise<{ readonly sessionId: string; readonly status: string }>;
  /**
   * Records a fork of `from` with a configured model profile in auto mode into `workspace` (as
   * `correx fork` does) and returns its id and how to drive it; absent: only scripted models
   * can run from a recorded prefix.
   */
  readonly forkConfigured?: (run: {
    readonly from: { readonly sessionId: string; readonly at: string };
    readonly workspace: string;
    readonly model: string;
  }) => Promise<{
    readonly sessionId: string;
    readonly drive: () => Promise<{ readonly status: string }>;
  }>;
};

/** One task run by one model, scored. */
export type EvalRunResult = {
  readonly model: string;
  readonly task: string;
  readonly repeat: number;
  readonly sessionId: string;
  readonly workspace: string;
  readonly status: string;
  readonly passed: boolean;
  /** Why it did not pass (the checks that failed), empty when it passed. */
  readonly failures: readonly string[];
  readonly tokens: { readonly input: number; readonly output: number };
  readonly cost: number | null;
  readonly durationMs: number;
  /** Calls a person would have been asked about in prompt mode (auto mode approved them). */
  readonly approvalsWouldAsk: number;
  readonly policyBlocks: number;
  /** Whether the session re-derives byte for byte (`correx replay <id> --verify`). */
  readonly replays: boolean;
  /** With `--from`: the recorded session and event the run was forked from. */
  readonly forkedFrom?: { readonly sessionId: string; readonly atSequence: number };
  /** A task whose workspace is a git reference: the repository, the reference and its commit. */
  readonly workspaceGit?: {
    readonly repository: string;
    readonly ref: string;
    readonly commit: string;
  };
};

export type EvalModelSummary = {
  readonly model: string;
  readonly runs: number;
  readonly passed: number;
  readonly passRate: number;
  readonly tokens: { readonly input: number; readonly output: number };
  readonly cost: number | null;
  readonly durationMs: number;
  readonly approvalsWouldAsk: number;
  readonly policyBlocks: number;
};

export type EvalReport = {
  readonly suite: string;
  /** With `--from`: the recorded prefix every run started from. */
  readonly from?: { readonly sessionId: string; readonly at: string };
  readonly models: readonly EvalModelSummary[];
  readonly runs: readonly EvalRunResult[];
};

/**
 * `correx eval run`: each task of the suite, for each model, `repeat` times, in a fresh copy of
 * its workspace, under the sandbox, in auto mode; then the suite's checks score the copy (the
 * project's own test command run confined, required files, files that must stay unchanged) and
 * the session is replayed. Models: `scripted:<name>` plays `<suite>/models/<name>/<task>.json`.
 */
export async function runEval(request: EvalRunRequest): Promise<EvalReport> {
  const suite = loadEvalSuite(request.suite);
  const tasks = selectTasks(suite.tasks, request.tasks, request.from);
  mkdirSync(request.correxHome, { recursive: true });
  const correxHome = realpathSync(request.correxHome);
  const homeDirectory = realpathSync(homedir());
  const availability = await detectSandbox();
  const base = request.workdir ?? mkdtempSync(join(realpathSync(tmpdir()), 'correx-eval-'));
  mkdirSync(base, { recursive: true });
  const runs: EvalRunResult[] = [];
  // Every model is checked before anything runs: a misspelt one costs no run of the others.
  const models = request.models.map((model) => {
    if (model.startsWith('scripted:')) {
      const name = model.slice('scripted:'.length);
      return { model, name, scripts: scriptedModelFolder(suite, name) };
    }
    if (
      request.from === undefined
        ? request.startConfigured === undefined
        : request.forkConfigured === undefined
    )
      throw new EvalModelError(model);
    return { model, name: model.replace(/[^A-Za-z0-9._-]/g, '_'), scripts: null };
  });
  for (const { model, name, scripts } of models) {
    for (const task of tasks)
      for (let repeat = 1; repeat <= request.repeat; repeat++) {
        const config = evalKernelConfig({
          model: name,
          homeDirectory,
          correxHome,
          sandbox: availability.kind,
        });
        // The checks run confined as the scripted sessions' commands do.
        const sandbox: SandboxSettings = {
          availability,
          neverWritable: config.policy.policy.neverWritable,
          neverReadable: config.policy.policy.neverReadable ?? DEFAULT_NEVER_READABLE,
          hiddenPaths: [correxHome],
          readablePaths: config.policy.policy.sandboxReadablePaths ?? [],
        };
        const script = scripts === null ? null : join(scripts, `${task.id}.json`);
        const started = Date.now();
        // Every run's session is recorded before the checks' baseline is taken: a fork's
        // workspace exists only once the fork is.
        const prepared =
          request.from === undefined
            ? prepareFresh(request, base, name, task, repeat, model, script, {
                config,
                correxHome,
                homeDirectory,
              })
            : await prepareFork(request, request.from, base, name, task, repeat, model, script, {
                config,
                correxHome,
                homeDirectory,
              });
        const workspace = prepared.workspace;
        const before = protectedHashes(workspace, task);
        const outcome = await prepared.run(sandbox);
        const sessionId = outcome.sessionId;
        const durationMs = Date.now() - started;
        const failures = await scoreEvalRun(
          task,
          workspace,
          before,
          outcome.status,
          homeDirectory,
          sandbox,
        );
        const events = await request.store.read(sessionId);
        const replay = await replayAnySession(request.store, sessionId, { sha256: nodeSha256 });
        // A run forked from a recorded session is charged for its own calls, not the prefix's.
        const spend = ownSessionSpend(events);
        const run: EvalRunResult = {
          model,
          task: task.id,
          repeat,
          sessionId,
          workspace,
          status: outcome.status,
          passed: failures.length === 0,
          failures,
          tokens: spend.tokens,
          cost: spend.costUsd,
          durationMs,
          approvalsWouldAsk: approvalsWouldAsk(events),
          policyBlocks: events.filter(
            (event) =>
              event.payload.type === 'tool_call_assessed' && event.payload.verdict === 'BLOCK',
          ).length,
          replays: replay.ok,
          ...(task.source.kind === 'git' && request.from === undefined
            ? {
                workspaceGit: {
                  repository: task.source.repository,
                  ref: task.source.ref,
                  commit: task.source.commit,
                },
              }
            : {}),
          ...(replay.forkedFrom === undefined
            ? {}
            : {
                forkedFrom: {
                  sessionId: replay.forkedFrom.parentSessionId,
                  atSequence: replay.forkedFrom.atSequence,
                },
              }),
        };
        runs.push(run);
        request.onRun?.(run);
      }
  }
  return {
    suite: suite.name,
    ...(request.from === undefined ? {} : { from: request.from }),
    models: request.models.map((model) => summarize(model, runs)),
    runs,
  };
}

type RunSetup = {
  readonly config: ReturnType<typeof evalKernelConfig>;
  readonly correxHome: string;
  readonly homeDirectory: string;
};

type PreparedRun = {
  readonly workspace: string;
  run(sandbox: SandboxSettings): Promise<{ readonly sessionId: string; readonly status: string }>;
};

/** `--task` picks tasks; `--from` needs exactly one (its checks score the forks). */
function selectTasks(
  all: readonly EvalTask[],
  wanted: readonly string[] | undefined,
  from: EvalRunRequest['from'],
): readonly EvalTask[] {
  const known = all.map((task) => task.id);
  const unknown = (wanted ?? []).filter((id) => !known.includes(id));
  if (unknown.length > 0)
    throw new CorrexError(
      'usage',
      `no task ${unknown.join(', ')} in the suite (its tasks: ${known.join(', ')})`,
    );
  const tasks = wanted === undefined ? all : all.filter((task) => wanted.includes(task.id));
  if (from !== undefined && tasks.length !== 1)
    throw new CorrexError(
      'usage',
      `--from forks one recorded session: name the one task whose checks score it with --task (the suite's tasks: ${known.join(', ')})`,
    );
  return tasks;
}

/** A run from the task's workspace: a fresh copy, the task started from scratch. */
function prepareFresh(
  request: EvalRunRequest,
  base: string,
  name: string,
  task: EvalTask,
  repeat: number,
  model: string,
  script: string | null,
  setup: RunSetup,
): PreparedRun {
  const workspace = prepareWorkspace(base, `${name}-${task.id}-${repeat}`, task);
  return {
    workspace,
    run: (sandbox) =>
      script === null
        ? request.startConfigured!({ task: task.task, workspace, model })
        : runScripted(request, { ...setup, sandbox, workspace, task, script }),
  };
}

/**
 * A run from a recorded prefix: the session forked at the point into the run's folder (its
 * workspace rebuilt as it was there), onto the model, in auto mode. A scripted model plays its
 * task script from the turn after those the prefix already recorded answers for.
 */
async function prepareFork(
  request: EvalRunRequest,
  from: NonNullable<EvalRunRequest['from']>,
  base: string,
  name: string,
  task: EvalTask,
  repeat: number,
  model: string,
  script: string | null,
  setup: RunSetup,
): Promise<PreparedRun> {
  const target = join(base, `${name}-${task.id}-${repeat}`);
  if (script === null) {
    const forked = await request.forkConfigured!({ from, workspace: target, model });
    return {
      workspace: realpathSync(target),
      run: async () => ({ sessionId: forked.sessionId, ...(await forked.drive()) }),
    };
  }
  const fork = await forkSession(
    {
      store: request.store,
      preimages: createPreimageStore(preimageDirectory(setup.correxHome)),
      clock: request.clock,
      ids: request.ids,
      sha256: nodeSha256,
    },
    {
      parentSessionId: from.sessionId,
      at: from.at,
      forkSessionId: request.ids.next(),
      workspace: target,
      mode: 'auto',
      modelProfile: name,
      configure: (parent) => ({ ...parent, router: setup.config.router }),
      by: 'correx eval run',
    },
  );
  const prefix = await request.store.read(fork.sessionId, { limit: fork.atSequence });
  const answered = prefix.filter((event) => event.payload.type === 'inference_completed').length;
  const workspace = fork.workspace;
  return {
    workspace,
    run: async (sandbox) => {
      const turns = (await loadScriptedTurns(script)).slice(answered);
      const outcome = await runSession({
        store: request.store,
        sessionId: fork.sessionId,
        // As any resumed session: driven with the configuration it recorded.
        config: await recordedKernelConfig(request.store, fork.sessionId, nodeSha256),
        ports: scriptedPorts(turns, { ...setup, sandbox, workspace }),
        clock: request.clock,
        ids: request.ids,
      });
      return { sessionId: fork.sessionId, status: outcome.status };
    },
  };
}

/** One scripted session of a task, its ports built here like the demo's. */
async function runScripted(
  request: EvalRunRequest,
  run: {
    readonly config: ReturnType<typeof evalKernelConfig>;
    readonly sandbox: SandboxSettings;
    readonly workspace: string;
    readonly task: EvalTask;
    readonly script: string;
    readonly correxHome: string;
    readonly homeDirectory: string;
  },
): Promise<{ readonly sessionId: string; readonly status: string }> {
  const turns = await loadScriptedTurns(run.script);
  const sessionId = request.ids.next();
  const outcome = await runSession(
    {
      store: request.store,
      sessionId,
      config: run.config,
      ports: scriptedPorts(turns, run),
      clock: request.clock,
      ids: request.ids,
    },
    {
      type: 'start',
      task: run.task.task,
      workspace: run.workspace,
      workflowId: DEMO_WORKFLOW_ID,
      mode: 'auto',
    },
  );
  return { sessionId, status: outcome.status };
}

/** The ports of a scripted run, built here like the demo's. */
function scriptedPorts(
  turns: readonly ScriptedTurn[],
  run: {
    readonly sandbox: SandboxSettings;
    readonly workspace: string;
    readonly correxHome: string;
    readonly homeDirectory: string;
  },
) {
  return {
    providers: new Map([
      [SCRIPTED_PROVIDER, givesUpWhenExhausted(createDemoModel(turns, SCRIPTED_PROVIDER))],
    ]),
    tools: createBuiltinToolRunner({
      exec: {
        searchPath: defaultSearchPath(),
        sandbox: run.sandbox,
        preimages: createPreimageStore(preimageDirectory(run.correxHome)),
      },
    }),
    probe: createDiskWorldProbe({ hashOnlyUnder: [run.workspace] }),
    checks: createDiskProjectCheckDetector(),
    analysis: createProcessStaticAnalysisRunner({
      homeDirectory: run.homeDirectory,
      searchPath: defaultSearchPath(),
      sandbox: run.sandbox,
    }),
  };
}

/** A model name `eval run` cannot run. */
export class EvalModelError extends CorrexError {
  constructor(model: string) {
    super(
      'usage',
      `model ${model}: not scripted:<name>, and no configured model profiles can run here`,
    );
  }
}

function prepareWorkspace(base: string, name: string, task: EvalTask): string {
  const workspace = join(base, name);
  materialiseTaskWorkspace(task.source, workspace);
  for (const [path, content] of Object.entries(task.files ?? {})) {
    mkdirSync(dirname(join(workspace, path)), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }
  return realpathSync(workspace);
}

/** Calls auto mode approved that prompt mode would have asked a person about, and those asked. */
function approvalsWouldAsk(events: readonly CorrexEvent[]): number {
  return events.filter((event) => {
    const payload = event.payload;
    if (payload.type === 'approval_requested') return true;
    return (
      payload.type === 'approval_granted' &&
      (payload.reason ?? '').startsWith('operator mode auto approves')
    );
  }).length;
}

function summarize(model: string, runs: readonly EvalRunResult[]): EvalModelSummary {
  const mine = runs.filter((run) => run.model === model);
  const passed = mine.filter((run) => run.passed).length;
  const costs = mine.map((run) => run.cost).filter((cost): cost is number => cost !== null);
  return {
    model,
    runs: mine.length,
    passed,
    passRate: mine.length === 0 ? 0 : passed / mine.length,
    tokens: {
      input: mine.reduce((sum, run) => sum + run.tokens.input, 0),
      output: mine.reduce((sum, run) => sum + run.tokens.output, 0),
    },
    cost: costs.length === 0 ? null : costs.reduce((sum, cost) => sum + cost, 0),
    durationMs: mine.reduce((sum, run) => sum + run.durationMs, 0),
    approvalsWouldAsk: mine.reduce((sum, run) => sum + run.approvalsWouldAsk, 0),
    policyBlocks: mine.reduce((sum, run) => sum + run.policyBlocks, 0),
  };
}

/**
 * A scripted model that runs out of turns gives up the way a model that cannot go on does: a
 * request failure that no retry mends, so the stage (and then the workflow) fails.
 */
function givesUpWhenExhausted(inner: InferenceProvider): InferenceProvider {
  return {
    name: inner.name,
    async infer(request, signal) {
      try {
        return await inner.infer(request, signal);
      } catch (error) {
        if (error instanceof InferenceError) throw error;
        throw new InferenceError({
          category: 'invalid_request',
          provider: inner.name,
          message: `the scripted model gives up: ${(error as Error).message}`,
        });
      }
    },
  };
}
