import {
  resolveModels
} from "./chunk-4XOSVEIW.js";
import {
  createProviders
} from "./chunk-CRPBL2XJ.js";
import {
  steeringDeliveriesOf
} from "./chunk-ZTXOABQK.js";
import "./chunk-Q3CLAD7B.js";
import "./chunk-OMD473OS.js";
import "./chunk-XFVAXZIU.js";
import {
  loadHarnessConfig
} from "./chunk-H6KIDXDK.js";
import "./chunk-R6SHVX2P.js";
import "./chunk-P2JR5UVJ.js";
import "./chunk-BEI6ZGZB.js";
import "./chunk-6D7FPGJD.js";
import "./chunk-LOKLPSJE.js";
import {
  PinnedContextOverBudgetError,
  assertNever,
  createEstimatingTokenizer,
  createInferenceRouter,
  replay,
  resolveContextPackSettings,
  steeringNotePayload
} from "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import {
  ConcurrencyError
} from "./chunk-CORQQBM5.js";
import {
  InferenceError,
  sha256Hex
} from "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/core/router/append-steering-note.ts
var MAX_ATTEMPTS = 5;
async function appendSteeringNote(ports, note, seenSequence) {
  const eventId = ports.ids.next();
  const timestamp = ports.clock.now();
  let expectedSequence = seenSequence;
  for (let attempt = 1; ; attempt++) {
    try {
      return await ports.store.append(
        {
          eventId,
          sessionId: note.sessionId,
          timestamp,
          causationId: null,
          correlationId: null,
          payload: steeringNotePayload(note)
        },
        { expectedSequence }
      );
    } catch (error) {
      if (!(error instanceof ConcurrencyError) || attempt >= MAX_ATTEMPTS) throw error;
      expectedSequence = error.actualSequence;
    }
  }
}

// src/core/router/router-context.ts
var ROUTER_SYSTEM_PROMPT = [
  "You are the correx router, a conversational assistant beside one correx session.",
  "You answer from the workflow status and the stage history given here. You run no tools, change no files and do not control the workflow: pausing, cancelling and approving are correx commands, not yours.",
  "When you mention a stage outcome, cite its event exactly as listed, as #<sequence>.",
  "If the status and history do not say something, say that you do not know; never guess."
].join("\n");
var DEFAULT_KEEP_LAST = 6;
var MAX_TASK_CHARACTERS = 600;
function buildRouterContext(input, budget, tokenizer, options = {}) {
  const settings = resolveContextPackSettings(budget, {
    ...options.entryOverheadTokens === void 0 ? {} : { entryOverheadTokens: options.entryOverheadTokens }
  });
  const hash = options.hash ?? sha256Hex;
  const keepLast = input.keepLast ?? DEFAULT_KEEP_LAST;
  if (!Number.isInteger(keepLast) || keepLast < 1) {
    throw new RangeError(`keepLast must be a positive integer, got ${keepLast}`);
  }
  const candidate = (entry, pinned) => ({
    entry,
    tokens: tokenizer.count(entry.content),
    pinned,
    dropped: false
  });
  const l0 = (id, kind, content) => candidate(
    { id, layer: "L0", kind, role: "user", source: { kind: "builtin", id }, content },
    true
  );
  const system = [
    l0("router-system", "system", ROUTER_SYSTEM_PROMPT),
    l0("router-status", "system", statusText(input.state, input.steering === true))
  ];
  const summaries = input.state.l2Memory.map(
    (memory) => candidate(
      {
        id: `stage-outcome:${memory.eventId}`,
        layer: "L2",
        kind: "summary",
        role: "user",
        source: { kind: "event", id: memory.eventId },
        content: `#${memory.sequence} [${memory.outcome}] ${memory.summary}`
      },
      false
    )
  );
  const recent = input.history.slice(-keepLast);
  const firstIndex = input.history.length - recent.length;
  const turns = recent.map(
    (turn, offset) => candidate(
      {
        id: `turn:${firstIndex + offset}`,
        layer: "L1",
        kind: "turn",
        role: turn.role === "user" ? "user" : "assistant",
        source: { kind: "builtin", id: `router-turn-${firstIndex + offset}` },
        content: turn.content
      },
      // The question being answered is never dropped.
      offset === recent.length - 1 && turn.role === "user"
    )
  );
  const all = [...system, ...summaries, ...turns];
  const cost = (c) => c.tokens + settings.overhead;
  const pinnedTokens = all.filter((c) => c.pinned).reduce((sum, c) => sum + cost(c), 0);
  if (pinnedTokens > settings.available) {
    throw new PinnedContextOverBudgetError(pinnedTokens, settings.available);
  }
  let total = all.reduce((sum, c) => sum + cost(c), 0);
  for (const c of [...summaries, ...turns]) {
    if (total <= settings.available) break;
    if (c.pinned) continue;
    c.dropped = true;
    total -= cost(c);
  }
  const entries = all.filter((c) => !c.dropped).map((c) => ({
    ...c.entry,
    tokens: c.tokens,
    originalTokens: c.tokens,
    compression: "none",
    contentSha256: hash(c.entry.content)
  }));
  const excluded = all.filter((c) => c.dropped).map((c) => ({
    id: c.entry.id,
    layer: c.entry.layer,
    kind: c.entry.kind,
    source: c.entry.source,
    tokens: c.tokens,
    reason: "over_budget"
  }));
  return {
    stageId: "router",
    entries,
    totalTokens: total,
    manifest: {
      budgetTokens: settings.available,
      totalTokens: total,
      tokenizer: tokenizer.name,
      included: entries.map(
        ({ id, layer, kind, source, tokens, originalTokens, compression, contentSha256 }) => ({
          id,
          layer,
          kind,
          source,
          tokens,
          originalTokens,
          compression,
          contentSha256
        })
      ),
      excluded
    }
  };
}
function renderRouterContext(pack) {
  const system = pack.entries.filter((e) => e.layer === "L0").map((e) => e.content);
  const history = pack.entries.filter((e) => e.layer === "L2").map((e) => e.content);
  if (history.length > 0) system.push(["Stage history (oldest first):", ...history].join("\n"));
  return [
    { role: "system", content: system.join("\n\n") },
    ...pack.entries.filter((e) => e.layer === "L1").map((e) => ({ role: e.role, content: e.content }))
  ];
}
function statusText(state, steering) {
  const lines = [
    `Session ${state.sessionId ?? "(no events yet)"}, as of event #${state.lastSequence}.`,
    `Workflow status: ${state.workflowStatus}.`,
    `Current stage: ${state.currentStageId ?? "none"}.`
  ];
  if (state.task !== null) {
    const task = state.task.length <= MAX_TASK_CHARACTERS ? state.task : `${state.task.slice(0, MAX_TASK_CHARACTERS - 1)}\u2026`;
    lines.push(`Task: ${task}`);
  }
  if (state.pendingApprovals.length === 0) {
    if (state.workflowStatus === "running") lines.push("Waiting for approval: nothing.");
  } else {
    lines.push(
      "Waiting for approval (a person answers with correx approve/deny <session> <call>):",
      ...state.pendingApprovals.map(
        (pending) => `- call ${pending.callId} (${pending.tool}, tier ${pending.tier}), requested at #${pending.sequence}: ${pending.reason}`
      )
    );
  }
  if (steering) {
    lines.push(
      "The user's latest message is a steering note: correx records it for the agent, which sees it in its next context pack. Acknowledge it briefly."
    );
  }
  return lines.join("\n");
}

// src/core/router/router-errors.ts
var RouterInputError = class extends CorrexError {
  constructor(message) {
    super("router_input_invalid", message);
  }
};
var RouterUnknownSessionError = class extends CorrexError {
  constructor(sessionId) {
    super("router_session_not_found", `no session ${sessionId}: a steering note needs a session`);
    this.sessionId = sessionId;
  }
  sessionId;
};
var RouterSessionFinishedError = class extends CorrexError {
  constructor(sessionId, status) {
    super(
      "router_session_finished",
      `session ${sessionId} is ${status}; a steering note could never reach its model`
    );
    this.sessionId = sessionId;
  }
  sessionId;
};
var RouterWiringError = class extends CorrexError {
  constructor(message) {
    super("router_wiring", message);
  }
};

// src/core/router/router-projection.ts
var ROUTER_FOLDED_TYPES = /* @__PURE__ */ new Set([
  "session_created",
  "workflow_started",
  "workflow_completed",
  "workflow_failed",
  "workflow_cancelled",
  "orchestration_paused",
  "orchestration_resumed",
  "stage_started",
  "stage_completed",
  "stage_failed",
  "transition_taken",
  "approval_requested",
  "approval_granted",
  "approval_denied",
  "session_retried"
]);
var MAX_SUMMARY_CHARACTERS = 200;
var routerProjection = {
  name: "router",
  // 2: pending approvals and retries are folded too.
  version: 2,
  initial: () => ({
    sessionId: null,
    workflowStatus: "idle",
    currentStageId: null,
    activeStage: null,
    task: null,
    pendingApprovals: [],
    l2Memory: [],
    lastSequence: 0
  }),
  evolve(state, event) {
    const next = { ...state, sessionId: event.sessionId, lastSequence: event.sequence };
    if (!ROUTER_FOLDED_TYPES.has(event.payload.type)) return next;
    return evolveKnown(next, event.payload, event);
  }
};
function loadRouterState(store, sessionId) {
  return replay(store, routerProjection, sessionId);
}
function evolveKnown(state, payload, event) {
  const remember2 = (entry) => [
    ...state.l2Memory,
    { ...entry, sequence: event.sequence, eventId: event.eventId, timestamp: event.timestamp }
  ];
  switch (payload.type) {
    case "session_created":
      return { ...state, task: payload.task };
    case "workflow_started":
      return { ...state, workflowStatus: "running", currentStageId: payload.firstStageId };
    case "orchestration_paused":
      return { ...state, workflowStatus: "paused" };
    case "orchestration_resumed":
      return { ...state, workflowStatus: "running" };
    case "workflow_completed":
      return {
        ...state,
        workflowStatus: "completed",
        currentStageId: null,
        activeStage: null,
        pendingApprovals: []
      };
    case "workflow_failed":
      return {
        ...state,
        workflowStatus: "failed",
        currentStageId: null,
        activeStage: null,
        pendingApprovals: []
      };
    case "session_retried":
      return { ...state, workflowStatus: "running", currentStageId: payload.stageId };
    case "approval_requested":
      return {
        ...state,
        pendingApprovals: [
          ...state.pendingApprovals.filter((pending) => pending.callId !== payload.callId),
          {
            callId: payload.callId,
            tool: payload.tool,
            tier: payload.tier,
            reason: clip(firstLine(payload.reason)),
            sequence: event.sequence
          }
        ]
      };
    case "approval_granted":
    case "approval_denied":
      return {
        ...state,
        pendingApprovals: state.pendingApprovals.filter(
          (pending) => pending.callId !== payload.callId
        )
      };
    case "workflow_cancelled": {
      const running = state.activeStage;
      return {
        ...state,
        workflowStatus: "cancelled",
        currentStageId: null,
        activeStage: null,
        pendingApprovals: [],
        l2Memory: running === null ? state.l2Memory : remember2({
          stageId: running.stageId,
          attempt: running.attempt,
          outcome: "cancelled",
          summary: clip(
            `stage ${running.stageId} attempt ${running.attempt} cancelled by ${payload.by}` + (payload.reason === void 0 ? "" : `: ${payload.reason}`)
          )
        })
      };
    }
    case "stage_started":
      return {
        ...state,
        currentStageId: payload.stageId,
        activeStage: { stageId: payload.stageId, attempt: payload.attempt }
      };
    case "stage_completed":
      return {
        ...state,
        currentStageId: payload.stageId,
        activeStage: null,
        l2Memory: remember2({
          stageId: payload.stageId,
          attempt: payload.attempt,
          outcome: "success",
          summary: clip(
            `stage ${payload.stageId} attempt ${payload.attempt} completed` + (payload.verdict === void 0 ? "" : ` with verdict ${payload.verdict}`)
          )
        })
      };
    case "stage_failed":
      return {
        ...state,
        currentStageId: payload.stageId,
        activeStage: null,
        l2Memory: remember2({
          stageId: payload.stageId,
          attempt: payload.attempt,
          outcome: "failure",
          summary: clip(
            `stage ${payload.stageId} attempt ${payload.attempt} failed (${payload.category}): ${firstLine(payload.message)}`
          )
        })
      };
    case "transition_taken":
      return { ...state, currentStageId: payload.to ?? state.currentStageId };
    default:
      return assertNever(payload);
  }
}
function firstLine(message) {
  const line = message.split("\n", 1)[0].trim();
  return line === "" ? "no message" : line;
}
function clip(text) {
  return text.length <= MAX_SUMMARY_CHARACTERS ? text : `${text.slice(0, MAX_SUMMARY_CHARACTERS - 1)}\u2026`;
}

// src/core/router/router-facade.ts
var DEFAULT_ROUTER_CONFIG = {
  conversationKeepLast: DEFAULT_KEEP_LAST,
  tokenBudget: 4096,
  maxAnswerTokens: 1024,
  timeoutMs: 6e4
};
var FINISHED = /* @__PURE__ */ new Set([
  "completed",
  "failed",
  "cancelled"
]);
var MAX_STEERING_NOTE_CHARACTERS = 2e4;
function createRouterFacade(options) {
  const config = { ...DEFAULT_ROUTER_CONFIG, ...options.config };
  const tokenizer = options.tokenizer ?? createEstimatingTokenizer();
  const histories = /* @__PURE__ */ new Map();
  const historyOf = (sessionId) => histories.get(sessionId) ?? [];
  return {
    historyOf,
    forget: (sessionId) => void histories.delete(sessionId),
    deliveriesOf: (sessionId) => steeringDeliveriesOf(options.store, sessionId),
    async deliveryOf(sessionId, noteEventId) {
      const notes = await steeringDeliveriesOf(options.store, sessionId);
      return notes.find((note) => note.noteEventId === noteEventId);
    },
    async onUserInput(sessionId, input, mode = "normal", signal) {
      if (input.trim() === "") throw new RouterInputError("the input is empty");
      if (mode === "steering" && input.length > MAX_STEERING_NOTE_CHARACTERS) {
        throw new RouterInputError(
          `a steering note holds at most ${MAX_STEERING_NOTE_CHARACTERS} characters`
        );
      }
      const { state, sequence } = await loadRouterState(options.store, sessionId);
      if (mode === "steering" && sequence === 0) throw new RouterUnknownSessionError(sessionId);
      if (mode === "steering" && FINISHED.has(state.workflowStatus))
        throw new RouterSessionFinishedError(sessionId, state.workflowStatus);
      const route = options.router.route({
        stageId: "router",
        requiredCapabilities: [],
        allowedTools: [],
        ...config.preferredProfileId === void 0 ? {} : { preferredProfileId: config.preferredProfileId }
      });
      if (!route.ok) {
        throw new RouterWiringError(
          `no model profile can serve the router: ${route.rejections.map((r) => r.profileId).join(", ") || "no profiles configured"}`
        );
      }
      const profile = route.profile;
      const provider = options.providers.get(profile.provider);
      if (provider === void 0) {
        throw new RouterWiringError(`no inference provider named ${profile.provider} is wired`);
      }
      const maxAnswerTokens = Math.min(config.maxAnswerTokens, profile.maxOutputTokens);
      const userTurn = { role: "user", content: input, timestamp: options.clock.now() };
      const pack = buildRouterContext(
        {
          state,
          history: [...historyOf(sessionId), userTurn],
          keepLast: config.conversationKeepLast,
          steering: mode === "steering"
        },
        { maxTokens: Math.min(config.tokenBudget, profile.contextWindow - maxAnswerTokens) },
        tokenizer
      );
      const cancelled = () => new InferenceError({
        category: "cancelled",
        provider: provider.name,
        message: "the router call was cancelled"
      });
      if (isAborted(signal)) throw cancelled();
      const result = await provider.infer(
        {
          model: profile.model,
          messages: renderRouterContext(pack),
          tools: [],
          limits: { maxOutputTokens: maxAnswerTokens, timeoutMs: config.timeoutMs }
        },
        signal
      );
      if (isAborted(signal)) throw cancelled();
      const content = result.text.trim();
      const note = mode === "steering" ? await appendSteeringNote(options, { sessionId, content: input }, sequence) : null;
      remember(histories, sessionId, config.conversationKeepLast * 2, [
        userTurn,
        { role: "router", content, timestamp: options.clock.now() }
      ]);
      return {
        sessionId,
        mode,
        content,
        citedSequences: citedSequences(content, state),
        steeringNote: note === null ? null : { eventId: note.eventId, sequence: note.sequence },
        asOfSequence: sequence,
        provider: provider.name,
        model: result.modelId
      };
    }
  };
}
function remember(histories, sessionId, cap, turns) {
  histories.set(sessionId, [...histories.get(sessionId) ?? [], ...turns].slice(-cap));
}
function citedSequences(answer, state) {
  const known = new Set(state.l2Memory.map((entry) => entry.sequence));
  const cited = [];
  for (const match of answer.matchAll(/#(\d+)\b/g)) {
    const sequence = Number(match[1]);
    if (known.has(sequence) && !cited.includes(sequence)) cited.push(sequence);
  }
  return cited;
}
function isAborted(signal) {
  return signal?.aborted === true;
}

// src/main/compose-router.ts
async function composeRouter(options) {
  const harness = await loadHarnessConfig({ correxHome: options.correxHome });
  const { profiles, providers } = resolveModels(harness, options.env, options.correxHome);
  const set = await createProviders({
    configs: providers,
    names: profiles.map((profile) => profile.provider),
    env: options.env
  });
  const facade = createRouterFacade({
    store: options.store,
    router: createInferenceRouter({ profiles }),
    providers: set.providers,
    clock: options.clock,
    ids: options.ids,
    ...harness.defaults.model === void 0 ? {} : { config: { preferredProfileId: harness.defaults.model } }
  });
  return { facade, dispose: () => set.dispose() };
}
export {
  composeRouter
};
