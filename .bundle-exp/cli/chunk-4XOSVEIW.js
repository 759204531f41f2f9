import {
  environmentModel
} from "./chunk-CRPBL2XJ.js";
import {
  guardedPathOverlap,
  isInsidePath
} from "./chunk-Q3CLAD7B.js";
import {
  gitPathsOf
} from "./chunk-OMD473OS.js";
import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
import {
  loadHarnessConfig,
  requireTrustedWorkspace
} from "./chunk-H6KIDXDK.js";
import {
  MAX_CONFIG_FILE_BYTES,
  readBoundedFile
} from "./chunk-LOKLPSJE.js";
import {
  GIT_NEVER_WRITABLE,
  InvalidWorkflowError,
  builtinTools,
  createAssessmentPolicy,
  createDefaultValidatorRegistry,
  createInferenceRouter,
  createKernelConfig,
  defaultToolCallRules,
  parseWorkflow,
  safeParseWorkflow
} from "./chunk-OYJRPCLU.js";
import {
  hasCapability
} from "./chunk-IRD534JB.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/main/session-setup.ts
import { existsSync as existsSync2, realpathSync, statSync } from "node:fs";
import { join as join3, resolve } from "node:path";

// src/infrastructure/config/workflow-yaml.ts
import { createHash } from "node:crypto";
import { LineCounter, parseDocument } from "yaml";
var WorkflowFileError = class extends CorrexError {
  file;
  constructor(file, message, options) {
    super("workflow_file", `${file}: ${message}`, options);
    this.file = file;
  }
};
function parseWorkflowYaml(text, file) {
  const lineCounter = new LineCounter();
  const document = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const syntax = document.errors[0];
  if (syntax) {
    const at = lineCounter.linePos(syntax.pos[0]);
    throw new WorkflowFileError(
      `${file}:${at.line}:${at.col}`,
      `invalid YAML: ${syntax.message.split("\n")[0]}`
    );
  }
  const data = document.toJS({ maxAliasCount: 100 });
  const nested = typeof data === "object" && data !== null && "workflow" in data && !("stages" in data);
  const prefix = nested ? ["workflow"] : [];
  const result = safeParseWorkflow(nested ? data.workflow : data, {
    source: file
  });
  if (result.success) return result.workflow;
  const located = result.error.issues.map(
    (issue) => locate(issue, document, lineCounter, prefix, file)
  );
  throw new InvalidWorkflowError(file, located);
}
async function readWorkflowYamlFile(path) {
  let bytes;
  try {
    bytes = await readBoundedFile(path, {
      maxBytes: MAX_CONFIG_FILE_BYTES,
      what: "the workflow file"
    });
  } catch (error) {
    throw new WorkflowFileError(path, `cannot read: ${error.message}`, { cause: error });
  }
  return {
    workflow: parseWorkflowYaml(bytes.toString("utf8"), path),
    sha256: createHash("sha256").update(bytes).digest("hex")
  };
}
function locate(issue, document, lineCounter, prefix, file) {
  const path = [...prefix, ...issue.path];
  for (let length = path.length; length >= 0; length--) {
    const node = document.getIn(path.slice(0, length), true);
    if (node && typeof node === "object" && node.range) {
      const { line, col } = lineCounter.linePos(node.range[0]);
      return { ...issue, line, column: col, message: `${file}:${line}:${col}: ${issue.message}` };
    }
  }
  return { ...issue, message: `${file}: ${issue.message}` };
}

// src/infrastructure/mcp/offer-mcp-tools.ts
var MUTATING_BUILTINS = ["write_file", "edit_file", "exec", "move_file", "copy_file"];
function offerMcpTools(workflow, tools, servers) {
  const mcpTools = tools.filter((tool) => tool.source?.kind === "mcp");
  if (mcpTools.length === 0) return workflow;
  const definition = structuredClone(workflow.definition);
  for (const stage of definition.stages) {
    if (stage.subagent !== void 0) continue;
    const callsTools = stage.allowedTools.length > 0;
    const mutating = stage.allowedTools.some((name) => MUTATING_BUILTINS.includes(name));
    for (const tool of mcpTools) {
      const chosen = servers[tool.source.id]?.stages;
      const offered = chosen !== void 0 ? chosen.includes(stage.id) : callsTools && (hasCapability(tool, "READ_ONLY") || mutating);
      if (offered && !stage.allowedTools.includes(tool.name)) stage.allowedTools.push(tool.name);
    }
  }
  return parseWorkflow(definition, { source: `${workflow.id} with MCP tools` });
}

// src/infrastructure/instructions/read-project-instructions.ts
import { hash } from "node:crypto";
import { lstatSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
var INSTRUCTION_FILE = "AGENTS.md";
var FALLBACK_INSTRUCTION_FILE = "CLAUDE.md";
var SKIPPED = /* @__PURE__ */ new Set(["node_modules", ".git", "dist", "build", "target", "vendor", ".venv"]);
function readProjectInstructions(options) {
  const maxBytes = options.maxBytes ?? 32 * 1024;
  const found = [];
  const user = readRegular(join(options.correxHome, INSTRUCTION_FILE), maxBytes);
  if (user !== void 0)
    found.push({ scope: "user", path: "$CORREX_HOME/AGENTS.md", directory: "", ...user });
  for (const name of [INSTRUCTION_FILE, FALLBACK_INSTRUCTION_FILE]) {
    const root = readRegular(join(options.workspace, name), maxBytes);
    if (root !== void 0) {
      found.push({ scope: "workspace", path: name, directory: "", ...root });
      break;
    }
  }
  const nested = [];
  const maxNested = options.maxNested ?? 32;
  const maxDepth = options.maxDepth ?? 6;
  const visit = (dir, depth) => {
    if (depth > maxDepth || nested.length >= maxNested) return;
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      if (nested.length >= maxNested) return;
      if (!entry.isDirectory() || SKIPPED.has(entry.name)) continue;
      const child = join(dir, entry.name);
      const file = readRegular(join(child, INSTRUCTION_FILE), maxBytes);
      const directory = relative(options.workspace, child);
      if (file !== void 0)
        nested.push({
          scope: "directory",
          path: `${directory}/${INSTRUCTION_FILE}`,
          directory,
          ...file
        });
      visit(child, depth + 1);
    }
  };
  visit(options.workspace, 1);
  return [...found, ...nested];
}
function readRegular(path, maxBytes) {
  try {
    if (!lstatSync(path).isFile()) return void 0;
    const bytes = readFileSync(path);
    const kept = bytes.subarray(0, maxBytes).toString("utf8");
    return {
      sha256: hash("sha256", bytes, "hex"),
      content: kept,
      truncated: bytes.length > maxBytes
    };
  } catch {
    return void 0;
  }
}

// src/infrastructure/knowledge/probe-repository.ts
import { existsSync, lstatSync as lstatSync2, readdirSync as readdirSync2, readFileSync as readFileSync2 } from "node:fs";
import { extname, join as join2, relative as relative2 } from "node:path";

// src/infrastructure/knowledge/exported-symbols.ts
import { createRequire } from "node:module";
var loaded;
function typescript() {
  loaded ??= createRequire(import.meta.url)("typescript");
  return loaded;
}
function exportedSymbols(fileName, text) {
  const ts = typescript();
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false);
  const names = [];
  const exported = (node) => ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((modifier) => modifier.kind === ts.SyntaxKind.ExportKeyword);
  for (const statement of source.statements) {
    if (ts.isFunctionDeclaration(statement) && exported(statement) && statement.name)
      names.push(`function ${statement.name.text}`);
    else if (ts.isClassDeclaration(statement) && exported(statement) && statement.name)
      names.push(`class ${statement.name.text}`);
    else if (ts.isInterfaceDeclaration(statement) && exported(statement))
      names.push(`interface ${statement.name.text}`);
    else if (ts.isTypeAliasDeclaration(statement) && exported(statement))
      names.push(`type ${statement.name.text}`);
    else if (ts.isEnumDeclaration(statement) && exported(statement))
      names.push(`enum ${statement.name.text}`);
    else if (ts.isVariableStatement(statement) && exported(statement)) {
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name)) names.push(`const ${declaration.name.text}`);
    } else if (ts.isExportDeclaration(statement) && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) names.push(element.name.text);
    } else if (ts.isExportAssignment(statement)) names.push("default");
  }
  return names;
}

// src/infrastructure/knowledge/probe-repository.ts
var SKIPPED2 = /* @__PURE__ */ new Set([
  "node_modules",
  ".git",
  "dist",
  "build",
  "target",
  "vendor",
  ".venv",
  "__pycache__",
  "coverage",
  ".next"
]);
var LANGUAGES = {
  ".ts": "TypeScript",
  ".tsx": "TypeScript",
  ".mts": "TypeScript",
  ".cts": "TypeScript",
  ".js": "JavaScript",
  ".jsx": "JavaScript",
  ".mjs": "JavaScript",
  ".cjs": "JavaScript",
  ".py": "Python",
  ".go": "Go",
  ".rs": "Rust",
  ".java": "Java",
  ".kt": "Kotlin",
  ".rb": "Ruby",
  ".c": "C",
  ".h": "C",
  ".cc": "C++",
  ".cpp": "C++",
  ".cs": "C#",
  ".php": "PHP",
  ".swift": "Swift",
  ".sh": "Shell"
};
var LOCKFILES = [
  ["pnpm-lock.yaml", "pnpm"],
  ["yarn.lock", "yarn"],
  ["bun.lockb", "bun"],
  ["package-lock.json", "npm"],
  ["poetry.lock", "poetry"],
  ["uv.lock", "uv"],
  ["Pipfile.lock", "pipenv"],
  ["Cargo.lock", "cargo"],
  ["go.sum", "go modules"]
];
var SYMBOL_EXTENSIONS = /* @__PURE__ */ new Set([".ts", ".tsx", ".mts", ".cts", ".js", ".jsx", ".mjs", ".cjs"]);
function probeRepository(workspace, options = {}) {
  const maxFiles = options.maxFiles ?? 5e3;
  const files = [];
  let truncated = false;
  const topLevel = /* @__PURE__ */ new Map();
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync2(dir, { withFileTypes: true });
    } catch {
      return;
    }
    entries.sort((a, b) => a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    for (const entry of entries) {
      if (files.length >= maxFiles) {
        truncated = true;
        return;
      }
      const path = join2(dir, entry.name);
      if (entry.isDirectory()) {
        if (!SKIPPED2.has(entry.name)) walk(path);
      } else if (entry.isFile()) {
        const rel = relative2(workspace, path);
        files.push(rel);
        const top = rel.includes("/") ? `${rel.split("/")[0]}/` : rel;
        topLevel.set(top, (topLevel.get(top) ?? 0) + 1);
      }
    }
  };
  walk(workspace);
  const languageCounts = /* @__PURE__ */ new Map();
  for (const file of files) {
    const language = LANGUAGES[extname(file)];
    if (language !== void 0)
      languageCounts.set(language, (languageCounts.get(language) ?? 0) + 1);
  }
  const languages = [...languageCounts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)).map(([language, count]) => ({ language, files: count }));
  const packageJson = readJson(join2(workspace, "package.json"));
  const scripts = {};
  const rawScripts = packageJson?.scripts;
  if (typeof rawScripts === "object" && rawScripts !== null) {
    for (const [name, command] of Object.entries(rawScripts).slice(0, 40))
      if (typeof command === "string") scripts[name] = command;
  }
  const packageManager = LOCKFILES.find(([file]) => existsSync(join2(workspace, file)))?.[1] ?? (packageJson !== void 0 ? "npm" : existsSync(join2(workspace, "pyproject.toml")) ? "pip" : null);
  const runner = packageManager === "pnpm" || packageManager === "yarn" || packageManager === "bun" ? packageManager : "npm";
  const testCommands = Object.keys(scripts).filter((name) => name === "test" || name.startsWith("test:")).map((name) => name === "test" ? `${runner} test` : `${runner} run ${name}`);
  if (testCommands.length === 0) {
    if (existsSync(join2(workspace, "Cargo.toml"))) testCommands.push("cargo test");
    else if (existsSync(join2(workspace, "go.mod"))) testCommands.push("go test ./...");
    else if (existsSync(join2(workspace, "pyproject.toml")) || files.some((f) => /(^|\/)test_[^/]*\.py$/.test(f)))
      testCommands.push("pytest");
  }
  const entryPoints = /* @__PURE__ */ new Set();
  const declared = [packageJson?.main, packageJson?.module, ...binEntries(packageJson?.bin)];
  for (const entry of declared)
    if (typeof entry === "string") entryPoints.add(entry.replace(/^\.\//, ""));
  for (const candidate of [
    "src/index.ts",
    "src/main.ts",
    "index.ts",
    "index.js",
    "src/index.js",
    "main.py",
    "src/main.rs",
    "main.go",
    "cmd/main.go"
  ])
    if (files.includes(candidate)) entryPoints.add(candidate);
  const maxSymbolFiles = options.maxSymbolFiles ?? 40;
  const maxBytes = options.maxSymbolFileBytes ?? 256 * 1024;
  const symbolFiles = [
    ...[...entryPoints].filter((file) => files.includes(file)),
    ...files.filter((file) => !file.includes(".test.") && !file.endsWith(".d.ts"))
  ].filter(
    (file, index, all) => SYMBOL_EXTENSIONS.has(extname(file)) && all.indexOf(file) === index
  );
  if (symbolFiles.length > maxSymbolFiles) truncated = true;
  const symbols = symbolFiles.slice(0, maxSymbolFiles).flatMap((file) => {
    const path = join2(workspace, file);
    try {
      if (lstatSync2(path).size > maxBytes) return [];
      const names = exportedSymbols(file, readFileSync2(path, "utf8")).slice(0, 30);
      return names.length === 0 ? [] : [{ file, names }];
    } catch {
      return [];
    }
  });
  return {
    fileCount: files.length,
    tree: [...topLevel].slice(0, 40).map(([name, count]) => name.endsWith("/") ? `${name} (${count} files)` : name),
    languages,
    packageManager,
    scripts,
    testCommands,
    entryPoints: [...entryPoints],
    symbols,
    truncated: truncated || topLevel.size > 40
  };
}
function readJson(path) {
  try {
    const info = lstatSync2(path);
    if (!info.isFile() || info.size > MAX_CONFIG_FILE_BYTES) return void 0;
    const value = JSON.parse(readFileSync2(path, "utf8"));
    return typeof value === "object" && value !== null ? value : void 0;
  } catch {
    return void 0;
  }
}
function binEntries(bin) {
  if (typeof bin === "string") return [bin];
  if (typeof bin === "object" && bin !== null) return Object.values(bin);
  return [];
}

// src/main/session-setup.ts
var SessionSetupError = class extends CorrexError {
  constructor(message) {
    super("session_setup", message);
  }
};
var WorkspaceNotAllowedError = class extends CorrexError {
  constructor(workspace, roots) {
    super(
      "workspace_not_allowed",
      `workspace ${workspace} is not inside an allowed root (${roots.join(", ")})`
    );
  }
};
function resolveWorkspace(path, options) {
  const absolute = resolve(path);
  if (!existsSync2(absolute) || !statSync(absolute).isDirectory())
    throw new SessionSetupError(`workspace ${absolute} is not a directory`);
  const workspace = realpathSync(absolute);
  if (options.allowedRoots !== void 0) {
    const roots = options.allowedRoots.map((root) => realpathSync(resolve(root)));
    if (!roots.some((root) => isInsidePath(workspace, root)))
      throw new WorkspaceNotAllowedError(workspace, roots);
  }
  const overlap = guardedPathOverlap(workspace, [
    options.correxHome,
    ...options.protectedPaths ?? []
  ]);
  if (overlap !== null) throw new SessionSetupError(overlap);
  return workspace;
}
async function prepareSession(request, options) {
  const workspace = resolveWorkspace(request.workspace, options);
  const harness = await loadHarnessConfig({ correxHome: options.correxHome, workspace });
  requireTrustedWorkspace(options.correxHome, harness);
  const { workflow, file: workflowFile } = await resolveWorkflow(
    request.workflow ?? harness.defaults.workflow,
    harness
  );
  const { profiles, providers } = resolveModels(harness, options.env, options.correxHome);
  const chosen = request.modelProfile ?? harness.defaults.model;
  let routed = profiles;
  if (chosen !== void 0) {
    const profile = profiles.find((candidate) => candidate.id === chosen);
    if (profile === void 0)
      throw new SessionSetupError(
        `no model profile "${chosen}" (configured: ${profiles.map((p) => p.id).join(", ") || "none"})`
      );
    routed = [profile];
  }
  const policy = protectPolicy(harness.policy, workspace, options);
  const mcpServers = await listConfiguredMcpServers(harness, workspace, policy, options);
  const mcpTools = uniqueTools(mcpServers.flatMap((listing) => listing.ok ? listing.tools : []));
  const config = createKernelConfig({
    workflow: offerMcpTools(workflow, mcpTools, harness.mcpServers),
    subWorkflows: reachableSubWorkflows(workflow, harness.workflows),
    tools: [...builtinTools, ...mcpTools],
    policy: createAssessmentPolicy(policy, defaultToolCallRules, {
      sandbox: options.sandbox
    }),
    router: createInferenceRouter({ profiles: routed }),
    validators: createDefaultValidatorRegistry(),
    homeDirectory: options.homeDirectory,
    sha256: nodeSha256,
    instructions: readProjectInstructions({ workspace, correxHome: options.correxHome }),
    ...harness.hooks === void 0 ? {} : { hooks: harness.hooks },
    knowledge: probeRepository(workspace),
    budgets: { ...harness.budgets, ...request.budgets },
    limits: harness.limits,
    journalSummary: harness.journalSummary,
    configurationFiles: [
      ...harness.files,
      // A trusted workspace's hook and server programs governed the session too: by digest.
      ...harness.trustedAuthority?.files.filter(
        (file) => !harness.files.some((read) => read.path === file.path)
      ) ?? [],
      ...workflowFile === void 0 ? [] : [workflowFile]
    ],
    ...harness.checks === void 0 ? {} : { checks: harness.checks }
  });
  return {
    workspace,
    config,
    mode: request.mode ?? harness.mode,
    modelProfile: chosen,
    providers,
    harness,
    mcpServers
  };
}
async function listConfiguredMcpServers(harness, workspace, policy, options) {
  const names = Object.keys(harness.mcpServers).sort();
  if (names.length === 0) return [];
  if (options.mcp === void 0)
    return names.map((server) => ({
      server,
      ok: false,
      error: "this host does not start MCP servers"
    }));
  return options.mcp.list(harness.mcpServers, workspace, policy);
}
function uniqueTools(tools) {
  const seen = /* @__PURE__ */ new Set();
  return tools.filter((tool) => !seen.has(tool.name) && seen.add(tool.name) !== void 0);
}
function protectPolicy(policy, workspace, options) {
  const guarded = [
    options.correxHome,
    ...options.protectedPaths ?? [],
    ...gitPathsOf(workspace)
  ].map((path) => `${existsSync2(path) ? realpathSync(path) : resolve(path)}/**`);
  const neverWritable = [...policy.neverWritable, ...GIT_NEVER_WRITABLE, ...guarded];
  return { ...policy, neverWritable: [...new Set(neverWritable)] };
}
function reachableSubWorkflows(workflow, known) {
  const found = /* @__PURE__ */ new Map();
  const visit = (of) => {
    for (const stage of of.stages.values()) {
      const id = stage.subagent?.workflow;
      const sub = id === void 0 ? void 0 : known.get(id);
      if (sub === void 0 || found.has(sub.id) || sub.id === workflow.id) continue;
      found.set(sub.id, sub);
      visit(sub);
    }
  };
  visit(workflow);
  return [...found.values()];
}
async function resolveWorkflow(name, harness) {
  if (name.includes("/") || /\.ya?ml$/.test(name)) {
    const path = resolve(name);
    const read = await readWorkflowYamlFile(path);
    return { workflow: read.workflow, file: { path, sha256: read.sha256 } };
  }
  const workflow = harness.workflows.get(name);
  if (workflow === void 0)
    throw new SessionSetupError(
      `no workflow "${name}" (known: ${[...harness.workflows.keys()].join(", ")}; or give a workflow YAML file)`
    );
  return { workflow };
}
function resolveModels(harness, env, correxHome) {
  if (harness.models.length > 0) return { profiles: harness.models, providers: harness.providers };
  const fromEnvironment = environmentModel(env);
  if (fromEnvironment === void 0)
    throw new SessionSetupError(
      `no model is configured: add a provider and a model profile to ${correxHome === void 0 ? "$CORREX_HOME/harness.yaml" : join3(correxHome, "harness.yaml")} (\`correx init\` writes a template), or set OPENAI_BASE_URL and CORREX_MODEL; \`correx demo\` runs without a model`
    );
  return {
    profiles: [fromEnvironment.profile],
    providers: { ...harness.providers, [fromEnvironment.providerName]: fromEnvironment.provider }
  };
}

export {
  SessionSetupError,
  resolveWorkspace,
  prepareSession,
  resolveModels
};
