import {
  DEMO_WORKFLOW_ID,
  createDemoModel,
  loadScriptedTurns
} from "./chunk-KAU6ZE5Z.js";
import {
  createBuiltinToolRunner,
  createDiskProjectCheckDetector,
  createProcessStaticAnalysisRunner,
  runConfinedProcess,
  scrubbedEnvironment
} from "./chunk-W4KNPWTK.js";
import {
  createOutputBuffer,
  defaultSearchPath
} from "./chunk-3PPHKKT7.js";
import "./chunk-BF55S3NM.js";
import "./chunk-OMD473OS.js";
import {
  detectSandbox
} from "./chunk-32WDO2ZJ.js";
import {
  createDiskWorldProbe
} from "./chunk-MTLPFOPA.js";
import "./chunk-I3NCHX22.js";
import {
  createPreimageStore,
  preimageDirectory
} from "./chunk-76ZWS4BR.js";
import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
import {
  createDefaultCodingWorkflow
} from "./chunk-6D7FPGJD.js";
import "./chunk-LOKLPSJE.js";
import {
  DEFAULT_NEVER_READABLE,
  DEFAULT_NEVER_WRITABLE,
  builtinTools,
  createAssessmentPolicy,
  createDefaultValidatorRegistry,
  createInferenceRouter,
  createKernelConfig,
  defaultToolCallRules,
  parseWorkspacePolicy,
  replaySession,
  runSession,
  sessionSpend
} from "./chunk-OYJRPCLU.js";
import {
  matchGlob
} from "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import {
  InferenceError
} from "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/eval-run.ts
import { createHash } from "node:crypto";
import {
  cpSync,
  existsSync as existsSync2,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync as readFileSync2,
  realpathSync,
  writeFileSync
} from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join as join2, relative } from "node:path";

// src/infrastructure/eval/eval-suite.ts
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
var BUILTIN_SUITES = fileURLToPath(new URL("../../../assets/eval/", import.meta.url));
var EvalTaskSchema = z.strictObject({
  id: z.string().regex(/^[a-z0-9][a-z0-9-]*$/),
  /** What kind of task it is (bug fix, refactor...), for the report. */
  kind: z.string().optional(),
  task: z.string().min(1),
  /** The task's own workspace folder, relative to the suite; default: the suite's. */
  workspace: z.string().optional(),
  /** Files written over the copied workspace before the run (path → content). */
  files: z.record(z.string(), z.string()).optional(),
  checks: z.strictObject({
    /** The project's own test command, run confined in the workspace after the session. */
    command: z.array(z.string()).min(1),
    /** Files that must exist afterwards. */
    requiredFiles: z.array(z.string()).optional(),
    /** Globs (workspace-relative) of files the session must leave byte-identical. */
    forbiddenChanges: z.array(z.string()).optional()
  })
});
var EvalSuiteSchema = z.strictObject({
  name: z.string(),
  description: z.string().optional(),
  workspace: z.string().optional(),
  tasks: z.array(EvalTaskSchema).min(1)
});
var EvalSuiteError = class extends CorrexError {
  constructor(message) {
    super("usage", message);
  }
};
function loadEvalSuite(nameOrFolder) {
  const folder = nameOrFolder === "builtin" ? join(BUILTIN_SUITES, "builtin") : resolve(nameOrFolder);
  const file = join(folder, "suite.json");
  if (!existsSync(file)) throw new EvalSuiteError(`no suite at ${folder} (it holds no suite.json)`);
  let raw;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new EvalSuiteError(`${file}: not JSON: ${error.message}`);
  }
  const parsed = EvalSuiteSchema.safeParse(raw);
  if (!parsed.success)
    throw new EvalSuiteError(
      `${file}: ${parsed.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`).join("; ")}`
    );
  const suite = parsed.data;
  const tasks = suite.tasks.map((task) => {
    const relativeFolder = task.workspace ?? suite.workspace;
    if (relativeFolder === void 0)
      throw new EvalSuiteError(`${file}: task ${task.id} names no workspace (nor does the suite)`);
    const workspaceFolder = resolve(folder, relativeFolder);
    if (!existsSync(workspaceFolder) || !statSync(workspaceFolder).isDirectory())
      throw new EvalSuiteError(
        `${file}: task ${task.id}: workspace ${workspaceFolder} is not a folder`
      );
    return { ...task, workspaceFolder };
  });
  return { name: suite.name, folder, tasks };
}
function scriptedModelFolder(suite, name) {
  const inSuite = join(suite.folder, "models", name);
  const folder = existsSync(inSuite) ? inSuite : resolve(name);
  if (!existsSync(folder) || !statSync(folder).isDirectory())
    throw new EvalSuiteError(
      `scripted:${name}: no folder of scripts (looked in ${inSuite} and ${resolve(name)})`
    );
  return folder;
}

// src/interfaces/cli/commands/eval-config.ts
var SCRIPTED_PROVIDER = "scripted";
function evalKernelConfig(options) {
  const policy = parseWorkspacePolicy({
    neverWritable: [...DEFAULT_NEVER_WRITABLE, `${options.correxHome}/**`],
    unsandboxedExecTier: "T2"
  });
  return createKernelConfig({
    workflow: createDefaultCodingWorkflow(),
    tools: builtinTools,
    policy: createAssessmentPolicy(policy, defaultToolCallRules, { sandbox: options.sandbox }),
    router: createInferenceRouter({
      profiles: [
        {
          id: options.model,
          provider: SCRIPTED_PROVIDER,
          model: `scripted-${options.model}`,
          capabilities: ["tool_calling", "json_output"],
          contextWindow: 64e3,
          maxOutputTokens: 2e3
        }
      ]
    }),
    validators: createDefaultValidatorRegistry(),
    homeDirectory: options.homeDirectory,
    sha256: nodeSha256
  });
}

// src/interfaces/cli/commands/eval-run.ts
async function runEval(request) {
  const suite = loadEvalSuite(request.suite);
  mkdirSync(request.correxHome, { recursive: true });
  const correxHome = realpathSync(request.correxHome);
  const homeDirectory = realpathSync(homedir());
  const availability = await detectSandbox();
  const base = request.workdir ?? mkdtempSync(join2(realpathSync(tmpdir()), "correx-eval-"));
  mkdirSync(base, { recursive: true });
  const runs = [];
  const models = request.models.map((model) => {
    if (model.startsWith("scripted:")) {
      const name = model.slice("scripted:".length);
      return { model, name, scripts: scriptedModelFolder(suite, name) };
    }
    if (request.startConfigured === void 0) throw new EvalModelError(model);
    return { model, name: model.replace(/[^A-Za-z0-9._-]/g, "_"), scripts: null };
  });
  for (const { model, name, scripts } of models) {
    for (const task of suite.tasks)
      for (let repeat = 1; repeat <= request.repeat; repeat++) {
        const workspace = prepareWorkspace(base, `${name}-${task.id}-${repeat}`, task);
        const config = evalKernelConfig({
          model: name,
          homeDirectory,
          correxHome,
          sandbox: availability.kind
        });
        const sandbox = {
          availability,
          neverWritable: config.policy.policy.neverWritable,
          neverReadable: config.policy.policy.neverReadable ?? DEFAULT_NEVER_READABLE,
          hiddenPaths: [correxHome],
          readablePaths: config.policy.policy.sandboxReadablePaths ?? []
        };
        const before = protectedHashes(workspace, task);
        const started = Date.now();
        const outcome = scripts === null ? await request.startConfigured({ task: task.task, workspace, model }) : await runScripted(request, {
          config,
          sandbox,
          workspace,
          task,
          script: join2(scripts, `${task.id}.json`),
          correxHome,
          homeDirectory
        });
        const sessionId = outcome.sessionId;
        const durationMs = Date.now() - started;
        const failures = await score(
          task,
          workspace,
          before,
          outcome.status,
          homeDirectory,
          sandbox
        );
        const events = await request.store.read(sessionId);
        const replay = await replaySession(request.store, sessionId, void 0, {
          sha256: nodeSha256
        });
        const spend = sessionSpend(events);
        const run = {
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
            (event) => event.payload.type === "tool_call_assessed" && event.payload.verdict === "BLOCK"
          ).length,
          replays: replay.ok
        };
        runs.push(run);
        request.onRun?.(run);
      }
  }
  return { suite: suite.name, models: request.models.map((model) => summarize(model, runs)), runs };
}
async function runScripted(request, run) {
  const turns = await loadScriptedTurns(run.script);
  const sessionId = request.ids.next();
  const outcome = await runSession(
    {
      store: request.store,
      sessionId,
      config: run.config,
      ports: {
        providers: /* @__PURE__ */ new Map([
          [SCRIPTED_PROVIDER, givesUpWhenExhausted(createDemoModel(turns, SCRIPTED_PROVIDER))]
        ]),
        tools: createBuiltinToolRunner({
          exec: {
            searchPath: defaultSearchPath(),
            sandbox: run.sandbox,
            preimages: createPreimageStore(preimageDirectory(run.correxHome))
          }
        }),
        probe: createDiskWorldProbe({ hashOnlyUnder: [run.workspace] }),
        checks: createDiskProjectCheckDetector(),
        analysis: createProcessStaticAnalysisRunner({
          homeDirectory: run.homeDirectory,
          searchPath: defaultSearchPath(),
          sandbox: run.sandbox
        })
      },
      clock: request.clock,
      ids: request.ids
    },
    {
      type: "start",
      task: run.task.task,
      workspace: run.workspace,
      workflowId: DEMO_WORKFLOW_ID,
      mode: "auto"
    }
  );
  return { sessionId, status: outcome.status };
}
var EvalModelError = class extends CorrexError {
  constructor(model) {
    super(
      "usage",
      `model ${model}: not scripted:<name>, and no configured model profiles can run here`
    );
  }
};
function prepareWorkspace(base, name, task) {
  const workspace = join2(base, name);
  cpSync(task.workspaceFolder, workspace, { recursive: true });
  for (const [path, content] of Object.entries(task.files ?? {})) {
    mkdirSync(dirname(join2(workspace, path)), { recursive: true });
    writeFileSync(join2(workspace, path), content);
  }
  return realpathSync(workspace);
}
function protectedHashes(workspace, task) {
  const hashes = /* @__PURE__ */ new Map();
  const globs = task.checks.forbiddenChanges ?? [];
  if (globs.length === 0) return hashes;
  for (const path of listFiles(workspace))
    if (globs.some((glob) => matchGlob(glob, path)))
      hashes.set(
        path,
        createHash("sha256").update(readFileSync2(join2(workspace, path))).digest("hex")
      );
  return hashes;
}
function listFiles(root) {
  return readdirSync(root, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).map((entry) => relative(root, join2(entry.parentPath, entry.name)));
}
async function score(task, workspace, before, status, homeDirectory, sandbox) {
  const failures = [];
  if (status !== "completed") failures.push(`session ${status}`);
  const output = createOutputBuffer();
  const run = await runConfinedProcess(
    {
      argv: task.checks.command,
      cwd: workspace,
      workspaceRoot: workspace,
      homeDirectory,
      env: scrubbedEnvironment(homeDirectory, defaultSearchPath()),
      searchPath: defaultSearchPath(),
      egressAllowlist: [],
      timeoutMs: 12e4,
      onOutput: (chunk) => output.push(chunk)
    },
    sandbox
  );
  if (run.ending !== "exited" || run.exitCode !== 0)
    failures.push(`${task.checks.command.join(" ")} fails (exit ${run.exitCode ?? run.ending})`);
  for (const path of task.checks.requiredFiles ?? [])
    if (!existsSync2(join2(workspace, path))) failures.push(`${path} is missing`);
  const after = protectedHashes(workspace, task);
  for (const [path, hash] of before)
    if (after.get(path) !== hash) failures.push(`${path} changed (forbidden)`);
  for (const path of after.keys())
    if (!before.has(path)) failures.push(`${path} created (forbidden)`);
  return failures;
}
function approvalsWouldAsk(events) {
  return events.filter((event) => {
    const payload = event.payload;
    if (payload.type === "approval_requested") return true;
    return payload.type === "approval_granted" && (payload.reason ?? "").startsWith("operator mode auto approves");
  }).length;
}
function summarize(model, runs) {
  const mine = runs.filter((run) => run.model === model);
  const passed = mine.filter((run) => run.passed).length;
  const costs = mine.map((run) => run.cost).filter((cost) => cost !== null);
  return {
    model,
    runs: mine.length,
    passed,
    passRate: mine.length === 0 ? 0 : passed / mine.length,
    tokens: {
      input: mine.reduce((sum, run) => sum + run.tokens.input, 0),
      output: mine.reduce((sum, run) => sum + run.tokens.output, 0)
    },
    cost: costs.length === 0 ? null : costs.reduce((sum, cost) => sum + cost, 0),
    durationMs: mine.reduce((sum, run) => sum + run.durationMs, 0),
    approvalsWouldAsk: mine.reduce((sum, run) => sum + run.approvalsWouldAsk, 0),
    policyBlocks: mine.reduce((sum, run) => sum + run.policyBlocks, 0)
  };
}
function givesUpWhenExhausted(inner) {
  return {
    name: inner.name,
    async infer(request, signal) {
      try {
        return await inner.infer(request, signal);
      } catch (error) {
        if (error instanceof InferenceError) throw error;
        throw new InferenceError({
          category: "invalid_request",
          provider: inner.name,
          message: `the scripted model gives up: ${error.message}`
        });
      }
    }
  };
}
export {
  EvalModelError,
  runEval
};
