import {
  environmentModel,
  expandHome,
  redactSecrets
} from "./chunk-CRPBL2XJ.js";
import {
  SQLITE_SCHEMA_VERSION,
  parseStoreLocation
} from "./chunk-ORXSUEWY.js";
import {
  checkSchema
} from "./chunk-3PFGHKN4.js";
import "./chunk-XXOLSKOG.js";
import {
  createPostgresPool
} from "./chunk-YCTECULU.js";
import {
  DEFAULT_POSTGRES_SCHEMA,
  redactConnectionString
} from "./chunk-XESUYX36.js";
import "./chunk-3K2LSKRX.js";
import "./chunk-5UEANXJE.js";
import {
  detectSandbox
} from "./chunk-32WDO2ZJ.js";
import "./chunk-XFVAXZIU.js";
import {
  describeAuthority,
  loadHarnessConfig
} from "./chunk-H6KIDXDK.js";
import "./chunk-R6SHVX2P.js";
import "./chunk-P2JR5UVJ.js";
import "./chunk-BEI6ZGZB.js";
import "./chunk-6D7FPGJD.js";
import "./chunk-LOKLPSJE.js";
import "./chunk-OYJRPCLU.js";
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

// src/infrastructure/doctor/check-model-endpoint.ts
import { existsSync } from "node:fs";

// src/infrastructure/doctor/doctor-check.ts
function passed(name, detail) {
  return { name, ok: true, detail };
}
function problem(name, detail, fix) {
  return { name, ok: false, detail, fix };
}

// src/infrastructure/doctor/probe-fetch.ts
var MAX_REDIRECTS = 3;
var ProbeRedirectError = class extends CorrexError {
  constructor(from, to) {
    super(
      "probe_redirected",
      `${from} redirects to ${to}, another host; correx does not follow a redirect off the configured host`
    );
    this.from = from;
    this.to = to;
  }
  from;
  to;
};
async function probeFetch(url, init, timeoutMs) {
  const signal = AbortSignal.timeout(timeoutMs);
  let current = url;
  for (let redirects = 0; ; redirects += 1) {
    const response = await fetch(current, { ...init, redirect: "manual", signal });
    const location = response.headers.get("location");
    if (response.status >= 300 && response.status < 400 && location !== null) {
      await response.body?.cancel();
      const next = new URL(location, current);
      if (next.origin !== new URL(current).origin) throw new ProbeRedirectError(current, next.href);
      if (redirects === MAX_REDIRECTS)
        throw new CorrexError(
          "probe_redirected",
          `${url} redirects more than ${MAX_REDIRECTS} times`
        );
      current = next.href;
      continue;
    }
    return { status: response.status, ok: response.ok, text: await response.text() };
  }
}

// src/infrastructure/doctor/check-model-endpoint.ts
var DEFAULT_CALL_TIMEOUT_MS = 3e4;
var ANTHROPIC_ROOT = "https://api.anthropic.com/v1";
var ANTHROPIC_VERSION = "2023-06-01";
var PROBE_TOOL = {
  name: "report_ready",
  description: "Report that you are ready.",
  parameters: {
    type: "object",
    properties: { ready: { type: "boolean" } },
    required: ["ready"]
  }
};
var PROBE_PROMPT = "Call the report_ready tool with ready set to true. Do not answer in text.";
async function checkModelEndpoint(target, options) {
  const { profile, provider } = target;
  const name = `model ${profile.id}`;
  if (provider.kind === "llama-cpp") {
    const path = expandHome(provider.modelPath);
    return [
      existsSync(path) ? passed(name, `${path} is there; tool calls are constrained by grammar`) : problem(
        name,
        `no GGUF file at ${path}`,
        `put the model file there or change providers.${target.providerName}.modelPath in ${target.origin} (correx never downloads a model)`
      )
    ];
  }
  const keyName = provider.apiKeyEnv;
  const key = keyName === void 0 ? void 0 : options.env[keyName];
  if (keyName !== void 0 && (key === void 0 || key === ""))
    return [
      problem(
        `${name}: key`,
        `${keyName} is not set`,
        `export ${keyName}=... (the key of providers.${target.providerName} in ${target.origin})`
      )
    ];
  const wire = provider.kind === "anthropic" ? anthropicWire(provider.baseUrl, key) : openAiWire(provider.baseUrl, key);
  const where = `${profile.model} at ${wire.root}`;
  const urlFix = target.origin === "OPENAI_BASE_URL" ? "OPENAI_BASE_URL" : `providers.${target.providerName}.baseUrl in ${target.origin}`;
  const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
  const listTimeoutMs = Math.min(options.listTimeoutMs ?? 5e3, callTimeoutMs);
  let listing;
  try {
    listing = await probeFetch(`${wire.root}/models`, { headers: wire.headers }, listTimeoutMs);
  } catch (error) {
    if (error instanceof ProbeRedirectError)
      return [
        problem(
          `${name}: reachable`,
          error.message,
          `point ${urlFix} at the server itself (${new URL(error.to).origin} if that is the right one)`
        )
      ];
    return [
      problem(
        `${name}: reachable`,
        `cannot reach ${wire.root}: ${describeFetchError(error, listTimeoutMs)}`,
        `start the model server (llama-server --jinja --port 8080, ollama serve, ...) or correct ${urlFix}`
      )
    ];
  }
  const checks = [];
  if (listing.status === 401 || listing.status === 403)
    return [
      problem(
        `${name}: reachable`,
        `${wire.root} refused the key (HTTP ${listing.status})`,
        keyName === void 0 ? `the server wants a key: set apiKeyEnv on providers.${target.providerName} (or OPENAI_API_KEY)` : `set ${keyName} to a valid key`
      )
    ];
  checks.push(passed(`${name}: reachable`, `${wire.root} answers (HTTP ${listing.status})`));
  if (listing.ok) {
    const ids = modelIds(parseJson(listing.text));
    if (ids === null)
      checks.push(passed(`${name}: listed`, `${wire.root}/models lists no models; not checked`));
    else if (ids.includes(profile.model))
      checks.push(
        passed(`${name}: listed`, `${profile.model} is among the ${ids.length} models served`)
      );
    else
      return [
        ...checks,
        problem(
          `${name}: listed`,
          `${wire.root} does not serve ${profile.model}; it serves ${ids.slice(0, 8).join(", ") || "nothing"}${ids.length > 8 ? ", ..." : ""}`,
          `set the model name in ${target.origin === "OPENAI_BASE_URL" ? "CORREX_MODEL" : `models[id=${profile.id}].model of ${target.origin}`} to one the server serves`
        )
      ];
  } else {
    checks.push(
      passed(`${name}: listed`, `${wire.root}/models answers HTTP ${listing.status}; not checked`)
    );
  }
  checks.push(
    await checkToolCalling(`${name}: tool calling`, where, wire, profile.model, key, options)
  );
  return checks;
}
function openAiWire(baseUrl, key) {
  return {
    root: baseUrl.replace(/\/+$/, ""),
    headers: {
      "content-type": "application/json",
      ...key === void 0 ? {} : { authorization: `Bearer ${key}` }
    },
    request: (model) => ({
      path: "/chat/completions",
      body: {
        model,
        messages: [{ role: "user", content: PROBE_PROMPT }],
        tools: [{ type: "function", function: PROBE_TOOL }],
        tool_choice: "required",
        max_tokens: 64,
        stream: false
      }
    }),
    calledTool: (body) => {
      const calls = body?.choices?.[0]?.message?.tool_calls;
      return Array.isArray(calls) && calls.length > 0;
    }
  };
}
function anthropicWire(baseUrl, key) {
  return {
    root: (baseUrl ?? ANTHROPIC_ROOT).replace(/\/+$/, ""),
    headers: {
      "content-type": "application/json",
      "x-api-key": key,
      "anthropic-version": ANTHROPIC_VERSION
    },
    request: (model) => ({
      path: "/messages",
      body: {
        model,
        max_tokens: 64,
        messages: [{ role: "user", content: PROBE_PROMPT }],
        tools: [
          {
            name: PROBE_TOOL.name,
            description: PROBE_TOOL.description,
            input_schema: PROBE_TOOL.parameters
          }
        ],
        tool_choice: { type: "any" }
      }
    }),
    calledTool: (body) => (body?.content ?? []).some(
      (part) => part.type === "tool_use"
    )
  };
}
async function checkToolCalling(name, where, wire, model, key, options) {
  const { path, body } = wire.request(model);
  const fix = 'use a model and server with tool calling (llama-server needs --jinja; Ollama a model tagged "tools")';
  try {
    const callTimeoutMs = options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS;
    const response = await probeFetch(
      `${wire.root}${path}`,
      { method: "POST", headers: wire.headers, body: JSON.stringify(body) },
      callTimeoutMs
    );
    const text = response.text;
    if (!response.ok)
      return problem(
        name,
        `${where} refused a request with one tool (HTTP ${response.status}): ${clip(redactSecrets(text, [key]))}`,
        fix
      );
    let parsed = null;
    try {
      parsed = JSON.parse(text);
    } catch {
    }
    return wire.calledTool(parsed) ? passed(name, `${where} answered a request with one tool by calling it`) : problem(name, `${where} answered a request with one tool without calling it`, fix);
  } catch (error) {
    if (error.name === "TimeoutError")
      return problem(
        name,
        `${where}: ${describeFetchError(error, options.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS)}`,
        "a server that is slow rather than hung (a large local model) may need more: correx doctor --probe-timeout 2m"
      );
    return problem(name, `${where}: ${describeFetchError(error)}`, fix);
  }
}
function modelIds(body) {
  const data = body?.data ?? body?.models;
  if (!Array.isArray(data)) return null;
  return data.map(
    (entry) => entry.id ?? entry.name
  ).filter((id) => typeof id === "string");
}
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
function describeFetchError(error, timeoutMs) {
  const cause = error.cause;
  if (error.name === "TimeoutError")
    return timeoutMs === void 0 ? "no answer in time" : `no answer within ${timeoutMs / 1e3} s`;
  if (CorrexError.isInstance(error)) return error.message;
  return cause?.code ?? cause?.message ?? error.message;
}
function clip(text) {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= 200 ? line : `${line.slice(0, 199)}\u2026`;
}

// src/infrastructure/doctor/check-sandbox.ts
async function checkSandbox(options = {}) {
  const availability = await detectSandbox(options);
  if (availability.kind === "bubblewrap")
    return passed(
      "sandbox",
      `${availability.bwrapPath} (${availability.version}) confines commands${availability.userNamespace ? "" : " (without a user namespace)"}`
    );
  return problem(
    "sandbox",
    `commands would run unsandboxed: ${availability.reason}`,
    availability.reason.includes("not installed") ? "install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)" : "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or kernel.apparmor_restrict_unprivileged_userns=0), or run where bwrap can create namespaces"
  );
}

// src/infrastructure/doctor/check-store.ts
import { accessSync, constants, existsSync as existsSync2 } from "node:fs";
import { dirname } from "node:path";
import Database from "better-sqlite3";
async function checkStore(location) {
  const parsed = parseStoreLocation(location);
  if (parsed.kind === "postgres") return checkPostgresStore(parsed.url);
  const path = parsed.path;
  if (!existsSync2(path)) {
    const folder = existingAncestor(dirname(path));
    return writable(folder) ? passed("store", `${path} does not exist yet; the first run creates it`) : problem(
      "store",
      `${path} does not exist and ${folder} is not writable`,
      `make ${folder} writable, or point --store / CORREX_STORE elsewhere`
    );
  }
  let version;
  try {
    const db = new Database(path, { readonly: true, fileMustExist: true });
    try {
      version = db.pragma("user_version", { simple: true });
      if (version > 0) db.prepare("SELECT count(*) FROM sessions").get();
    } finally {
      db.close();
    }
  } catch (error) {
    return problem(
      "store",
      `cannot open ${path}: ${error.message}`,
      `check that ${path} is a correx SQLite store (or move it aside; the next run starts a new one)`
    );
  }
  if (version > SQLITE_SCHEMA_VERSION)
    return problem(
      "store",
      `${path} has schema version ${version}, newer than this correx (${SQLITE_SCHEMA_VERSION})`,
      "upgrade correx"
    );
  if (!writable(path) || !writable(dirname(path)))
    return problem(
      "store",
      `${path} (or its folder) is not writable`,
      `chmod u+w ${path} ${dirname(path)}`
    );
  return passed(
    "store",
    version === SQLITE_SCHEMA_VERSION ? `${path} opens, schema version ${version} is current, writable` : `${path} opens and is writable; its schema (version ${version} of ${SQLITE_SCHEMA_VERSION}) is brought up to date on the next open`
  );
}
async function checkPostgresStore(url) {
  const location = redactConnectionString(url);
  const pool = createPostgresPool(url, { maxConnections: 1 });
  try {
    await checkSchema(pool, location, DEFAULT_POSTGRES_SCHEMA);
    const writable2 = await pool.query(
      `SELECT has_table_privilege(current_user, $1, 'INSERT') AS ok`,
      [`${DEFAULT_POSTGRES_SCHEMA}.events`]
    );
    return writable2.rows[0]?.ok === true ? passed("store", `${location} opens, schema current, writable`) : problem(
      "store",
      `${location}: this role may not insert into ${DEFAULT_POSTGRES_SCHEMA}.events`,
      `GRANT INSERT ON ${DEFAULT_POSTGRES_SCHEMA}.events TO the role correx connects as`
    );
  } catch (error) {
    const message = error.message;
    return problem(
      "store",
      message,
      /migrate/.test(message) ? `correx migrate --store ${location}` : "check that PostgreSQL runs and the URL (host, port, user, database) is right"
    );
  } finally {
    await pool.end();
  }
}
function existingAncestor(path) {
  let current = path;
  while (!existsSync2(current) && dirname(current) !== current) current = dirname(current);
  return current;
}
function writable(path) {
  try {
    accessSync(path, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

// src/infrastructure/doctor/configuration-in-force.ts
function configurationInForce(harness, env) {
  const file = harness.sources[0] ?? "harness.yaml";
  const baseUrl = env.OPENAI_BASE_URL;
  if (harness.models.length > 0) {
    const targets = harness.models.flatMap((profile) => {
      const provider = harness.providers[profile.provider];
      return provider === void 0 ? [] : [{ profile, providerName: profile.provider, provider, origin: file }];
    });
    const names = harness.models.map((profile) => profile.id).join(", ");
    const sameServer = targets.some(
      (target) => target.provider.kind === "openai-compatible" && sameUrl(target.provider.baseUrl, baseUrl ?? "")
    );
    const check = baseUrl !== void 0 && baseUrl !== "" && !sameServer ? problem(
      "configuration",
      `OPENAI_BASE_URL=${baseUrl} is set but not used: ${file} configures models (${names}), and those win`,
      `to use OPENAI_BASE_URL, remove models: and defaults.model from ${file}; to use the file, unset OPENAI_BASE_URL`
    ) : passed(
      "configuration",
      `models from ${file} win: ${names}${sameServer ? " (OPENAI_BASE_URL names the same server)" : ""}`
    );
    return { check, targets };
  }
  let fromEnvironment;
  try {
    fromEnvironment = environmentModel(env);
  } catch (error) {
    return {
      check: problem(
        "configuration",
        error.message,
        "set CORREX_MODEL to the name the server serves"
      ),
      targets: []
    };
  }
  if (fromEnvironment === void 0)
    return {
      check: problem(
        "configuration",
        `no model configured: ${harness.sources.length === 0 ? "no harness.yaml" : `${file} has no models`} and OPENAI_BASE_URL is not set`,
        "export OPENAI_BASE_URL=http://127.0.0.1:8080/v1 CORREX_MODEL=<model>, or run correx init and edit its models:"
      ),
      targets: []
    };
  return {
    check: passed(
      "configuration",
      `the environment's model: OPENAI_BASE_URL=${fromEnvironment.provider.kind === "openai-compatible" ? fromEnvironment.provider.baseUrl : baseUrl} with CORREX_MODEL=${fromEnvironment.profile.model} (${harness.sources.length === 0 ? "no harness.yaml" : `${file} configures no models`})`
    ),
    targets: [
      {
        profile: fromEnvironment.profile,
        providerName: fromEnvironment.providerName,
        provider: fromEnvironment.provider,
        origin: "OPENAI_BASE_URL"
      }
    ]
  };
}
function sameUrl(a, b) {
  return a.replace(/\/+$/, "") === b.replace(/\/+$/, "");
}

// src/infrastructure/doctor/run-doctor.ts
async function runDoctor(options) {
  const checks = [
    await checkSandbox(options.sandbox),
    await checkStore(options.store)
  ];
  let harness;
  try {
    harness = await loadHarnessConfig({
      correxHome: options.correxHome,
      ...options.workspace === void 0 ? {} : { workspace: options.workspace }
    });
  } catch (error) {
    checks.push(
      problem(
        "configuration",
        error.message,
        "correct harness.yaml where the message says"
      )
    );
    return checks;
  }
  const inForce = configurationInForce(harness, options.env);
  checks.push(inForce.check);
  if (harness.untrustedAuthority !== void 0)
    checks.push(
      problem(
        "workspace trust",
        `${harness.untrustedAuthority.workspace} ships ${describeAuthority(harness.untrustedAuthority)}, not trusted in this form: a run refuses to start`,
        `review it, then correx trust ${harness.untrustedAuthority.workspace}`
      )
    );
  else if (harness.trustedAuthority !== void 0)
    checks.push(
      passed(
        "workspace trust",
        `${describeAuthority(harness.trustedAuthority)}: trusted (${harness.trustedAuthority.digest.slice(0, 12)})`
      )
    );
  for (const target of inForce.targets) checks.push(...await checkModelEndpoint(target, options));
  return checks;
}
export {
  runDoctor
};
