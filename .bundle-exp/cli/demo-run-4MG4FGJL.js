import {
  guardedPathOverlap,
  isInsidePath
} from "./chunk-Q3CLAD7B.js";
import {
  DEMO_PROVIDER,
  DEMO_TASK,
  DEMO_WORKFLOW_ID,
  createDemoModel,
  demoKernelConfig,
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
  describeSandbox,
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
import "./chunk-XFVAXZIU.js";
import "./chunk-6D7FPGJD.js";
import "./chunk-LOKLPSJE.js";
import {
  DEFAULT_NEVER_READABLE,
  runSession
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/demo-run.ts
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
var ASSETS = fileURLToPath(new URL("../../../../assets/", import.meta.url));
var DemoWorkspaceError = class extends CorrexError {
  constructor(message) {
    super("demo_workspace_invalid", message);
  }
};
var DemoAssetsMissingError = class extends CorrexError {
  constructor(path) {
    super(
      "demo_assets_missing",
      `the demo's bundled files are missing (${path}); reinstall correx`
    );
  }
};
function asset(name) {
  const path = join(ASSETS, name);
  if (!existsSync(path)) throw new DemoAssetsMissingError(path);
  return path;
}
function prepareDemoWorkspace(target, guarded) {
  const sample = asset("demo-project");
  let workspace;
  if (target === void 0) {
    const parent = realpathSync(tmpdir());
    const home = guarded.find((path) => isInsidePath(parent, path));
    if (home !== void 0)
      throw new DemoWorkspaceError(
        `the demo's folder goes in the temporary folder ${parent}, which is inside ${home}, kept out of the agent's reach; set TMPDIR elsewhere or give --workspace`
      );
    workspace = join(mkdtempSync(join(parent, "correx-demo-")), "median");
  } else {
    workspace = resolve(target);
    if (existsSync(workspace) && readdirSync(workspace).length > 0)
      throw new DemoWorkspaceError(
        `--workspace ${workspace} is not empty; give an empty or new folder`
      );
    const real = existsSync(workspace) ? realpathSync(workspace) : workspace;
    const overlap = guardedPathOverlap(real, guarded);
    if (overlap !== null) throw new DemoWorkspaceError(overlap);
  }
  mkdirSync(workspace, { recursive: true });
  cpSync(sample, workspace, { recursive: true });
  return realpathSync(workspace);
}
async function runDemo(request) {
  mkdirSync(request.correxHome, { recursive: true });
  const correxHome = realpathSync(request.correxHome);
  const workspace = prepareDemoWorkspace(request.workspace, [correxHome]);
  const homeDirectory = realpathSync(homedir());
  const availability = await detectSandbox();
  const notice = request.onNotice ?? ((line) => {
    if (availability.kind === "none") process.stderr.write(`correx: ${line}
`);
  });
  const config = demoKernelConfig({ homeDirectory, correxHome, sandbox: availability.kind });
  notice(
    availability.kind === "none" ? `${describeSandbox(availability, config.policy.policy.unsandboxedExecTier)} The demo's policy allows T2 in auto mode because its scripted model and sample are bundled and trusted.` : describeSandbox(availability)
  );
  const sandbox = {
    availability,
    neverWritable: config.policy.policy.neverWritable,
    neverReadable: config.policy.policy.neverReadable ?? DEFAULT_NEVER_READABLE,
    hiddenPaths: [correxHome],
    readablePaths: config.policy.policy.sandboxReadablePaths ?? []
  };
  const turns = await loadScriptedTurns(asset("demo-script.json"));
  const sessionId = request.ids.next();
  const outcome = await runSession(
    {
      store: request.store,
      sessionId,
      config,
      ports: {
        providers: /* @__PURE__ */ new Map([[DEMO_PROVIDER, createDemoModel(turns, DEMO_PROVIDER)]]),
        tools: createBuiltinToolRunner({
          exec: {
            searchPath: defaultSearchPath(),
            sandbox,
            preimages: createPreimageStore(preimageDirectory(correxHome))
          }
        }),
        probe: createDiskWorldProbe({ hashOnlyUnder: [workspace] }),
        checks: createDiskProjectCheckDetector(),
        // The sample's own tests are a detected check: they run confined like its exec calls.
        analysis: createProcessStaticAnalysisRunner({
          homeDirectory,
          searchPath: defaultSearchPath(),
          sandbox
        })
      },
      clock: request.clock,
      ids: request.ids,
      ...request.onEvent === void 0 ? {} : { onEvent: request.onEvent },
      ...request.signal === void 0 ? {} : { signal: request.signal }
    },
    { type: "start", task: DEMO_TASK, workspace, workflowId: DEMO_WORKFLOW_ID, mode: "auto" }
  );
  const tests = await runSampleTests(workspace, homeDirectory, sandbox);
  return { sessionId, workspace, status: outcome.status, sandbox: availability.kind, ...tests };
}
async function runSampleTests(workspace, homeDirectory, sandbox) {
  const output = createOutputBuffer();
  const run = await runConfinedProcess(
    {
      argv: [process.execPath, "--test"],
      cwd: workspace,
      workspaceRoot: workspace,
      homeDirectory,
      env: scrubbedEnvironment(homeDirectory, defaultSearchPath()),
      searchPath: defaultSearchPath(),
      egressAllowlist: [],
      timeoutMs: 6e4,
      onOutput: (chunk) => output.push(chunk)
    },
    sandbox
  );
  return {
    testsPass: run.ending === "exited" && run.exitCode === 0,
    testOutput: output.finish().output + (run.error ?? "")
  };
}
export {
  DemoAssetsMissingError,
  DemoWorkspaceError,
  prepareDemoWorkspace,
  runDemo
};
