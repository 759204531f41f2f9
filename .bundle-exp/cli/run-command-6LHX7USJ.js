import {
  readApprovalDetails
} from "./chunk-U2ZHV2HL.js";
import {
  ALWAYS_ALLOW_REASON,
  alwaysAllowScope,
  describeGrantScope,
  recordGrant
} from "./chunk-BE4BQRBL.js";
import {
  checkReportLines,
  contentDiff,
  fileChangeDiff
} from "./chunk-XJAH34JX.js";
import {
  runSummaryLines
} from "./chunk-Q5EJZHTI.js";
import {
  createSessionProgress
} from "./chunk-YJ4IKDJS.js";
import {
  formatEventJson
} from "./chunk-COXYAFIA.js";
import {
  JSON_HELP,
  WAIT_HELP,
  announceWait,
  refuseUnattendedPrompt,
  storedText,
  waitDuration
} from "./chunk-SBJOCTIJ.js";
import {
  SESSION_ARGUMENT,
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import {
  readSessionLogs,
  runSummary
} from "./chunk-JKRDLZET.js";
import {
  recordedFileContent
} from "./chunk-DZXTZ55Z.js";
import {
  EXIT_CODES
} from "./chunk-UVXJS6JF.js";
import "./chunk-76ZWS4BR.js";
import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
import {
  formatEventLine
} from "./chunk-ZXW5ESJJ.js";
import "./chunk-XKPU3YP3.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import {
  askWorkspaceTrust
} from "./chunk-MGA2ZQAD.js";
import "./chunk-NR7OTU2D.js";
import "./chunk-H6KIDXDK.js";
import "./chunk-R6SHVX2P.js";
import "./chunk-P2JR5UVJ.js";
import {
  parseDuration
} from "./chunk-BEI6ZGZB.js";
import "./chunk-6D7FPGJD.js";
import "./chunk-LOKLPSJE.js";
import "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import {
  OperatorModeSchema
} from "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import {
  visibleText
} from "./chunk-7N5K7NRY.js";
import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/interfaces/cli/commands/run-command.ts
import { resolve } from "node:path";
import { Command, Option } from "commander";

// src/interfaces/exec-command-line.ts
var PLAIN = /^[\w@%+=:,./-]+$/;
function shellWord(word) {
  return PLAIN.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}
function execCommandLine(argsRaw) {
  let args;
  try {
    args = JSON.parse(argsRaw);
  } catch {
    return void 0;
  }
  if (typeof args !== "object" || args === null) return void 0;
  const { command, argv } = args;
  if (typeof command === "string") return command;
  return Array.isArray(argv) && argv.length > 0 && argv.every((part) => typeof part === "string") ? argv.map(shellWord).join(" ") : void 0;
}
function execFolder(targets, workspace) {
  const cwd = targets.find((target) => target.param === "cwd");
  return cwd === void 0 ? workspace ?? void 0 : cwd.realPath ?? cwd.resolved;
}

// src/interfaces/cli/pending-call.ts
function parsedArgs(argsRaw) {
  try {
    const value = JSON.parse(argsRaw);
    return typeof value === "object" && value !== null ? value : {};
  } catch {
    return {};
  }
}
function judgementLines(assessment) {
  const why = assessment.verdict === "ASK" ? `a rule asks a person to decide (tier ${assessment.tier}, risk ${assessment.risk})` : `no rule blocks it, but tier ${assessment.tier} calls need a person in this mode (risk ${assessment.risk})`;
  const lines = [`  why       ${why}`];
  if (assessment.findings.length > 0)
    lines.push(
      `  findings  ${assessment.findings.map((finding) => `${finding.ruleId}: ${finding.message}`).join("; ")}`
    );
  return lines;
}
async function describePendingCall(store, sessionId, callId) {
  const details = (await readApprovalDetails(store, sessionId, [callId])).get(callId);
  if (details === void 0 || details.proposal === null) return { lines: [], alwaysAllow: null };
  const { proposal, assessment, request } = details;
  const events = [];
  for await (const event of store.stream(sessionId)) events.push(event);
  const workspace = sessionWorkspace(events);
  const args = parsedArgs(proposal.argsRaw);
  const lines = [];
  const targets = assessment?.targets ?? [];
  if (proposal.tool === "exec") {
    lines.push(
      `  $ ${execCommandLine(proposal.argsRaw) ?? proposal.argsRaw}`,
      `    in ${execFolder(targets, workspace) ?? "(the workspace)"}`
    );
  } else {
    lines.push(
      `  call      ${proposal.tool} ${proposal.argsRaw.length > 300 ? `${proposal.argsRaw.slice(0, 299)}\u2026` : proposal.argsRaw}`
    );
    for (const target of targets) {
      if (target.role === "URL") lines.push(`  host      ${target.resolved}`);
      else
        lines.push(
          `  ${target.write ? "writes" : "reads "}    ${target.realPath ?? target.resolved}`
        );
    }
    lines.push(
      ...changePreview(proposal.tool, proposal.argsRaw, args, targets, events, request?.sequence)
    );
  }
  if (assessment) lines.push(...judgementLines(assessment));
  else if (request) lines.push(`  why       ${request.reason} (tier ${request.tier})`);
  return {
    lines: lines.map(visibleText),
    alwaysAllow: workspace === void 0 ? null : alwaysAllowScope(details, workspace)
  };
}
function sessionWorkspace(events) {
  for (const event of events)
    if (event.payload.type === "session_created") return event.payload.workspace;
  return void 0;
}
function changePreview(tool, argsRaw, args, targets, events, before) {
  if (tool !== "write_file" && tool !== "edit_file") return [];
  const target = targets.find((candidate) => candidate.write);
  const real = target?.realPath ?? target?.resolved;
  const current = real === void 0 ? void 0 : recordedFileContent(events, real, before ?? Infinity);
  const shownPath = typeof args.path === "string" ? args.path : real ?? "?";
  if (current !== void 0) {
    if (tool === "write_file" && typeof args.content === "string")
      return contentDiff(shownPath, current, args.content).map((line) => `  ${line}`);
    if (tool === "edit_file" && typeof args.search === "string" && typeof args.replace === "string" && current.includes(args.search)) {
      const replace = args.replace;
      return contentDiff(
        shownPath,
        current,
        current.replace(args.search, () => replace)
      ).map((line) => `  ${line}`);
    }
  }
  return [
    "  (the log holds no whole copy of this file; the proposed text:)",
    ...fileChangeDiff(tool, argsRaw).map((line) => `  ${line}`)
  ];
}

// src/interfaces/cli/approval-prompt.ts
async function askApproval(ask, say, offer, signal) {
  const choices = offer.always === null ? "[y]es / [n]o" : "[y]es / [n]o / [a]lways allow";
  if (offer.always !== null) say(`  always    would record the grant: ${offer.always}`);
  for (; ; ) {
    const answer = await ask(`approve ${offer.callId}? ${choices}: `, signal);
    const word = answer?.trim().toLowerCase();
    if (word === "y" || word === "yes") return { kind: "approve" };
    if (offer.always !== null && (word === "a" || word === "always")) return { kind: "always" };
    if (answer === null || word === "n" || word === "no") return askReason(ask, say, signal);
    say(
      word === "" ? `  no answer taken: type ${offer.always === null ? "y or n" : "y, n or a"}, then Enter` : `  "${answer.trim()}" is not an answer here: type ${offer.always === null ? "y or n" : "y, n or a"}`
    );
  }
}
async function askReason(ask, say, signal) {
  for (; ; ) {
    const reason = await ask(
      "reason for the denial (the model reads it; Ctrl-D: do not decide here): ",
      signal
    );
    if (reason === null) return { kind: "withdrawn" };
    if (reason.trim() !== "") return { kind: "deny", reason: reason.trim() };
    say("  a denial needs a reason: the model uses it to change course");
  }
}

// src/interfaces/cli/follow-session.ts
var POLL_MS = 250;
async function followSession(context, host, store, first, location, approvalWait = {}) {
  const sessionId = first.sessionId;
  let interrupts = 0;
  let recorded = Promise.resolve();
  let cancelled = false;
  const waiting = new AbortController();
  const stopListening = context.onInterrupt(() => {
    interrupts += 1;
    const type = interrupts === 1 ? "pause" : "cancel";
    context.err(
      interrupts === 1 ? "correx: pausing after the current step (Ctrl-C again cancels the session)" : "correx: cancelling the session"
    );
    recorded = host.command(sessionId, { type, by: context.user, reason: "Ctrl-C at the terminal" }).then(
      (events) => {
        if (events.some((event) => event.payload.type === "workflow_cancelled")) cancelled = true;
      },
      (error) => context.err(`correx: ${error.message}`)
    );
    waiting.abort();
  });
  try {
    let run = first;
    for (; ; ) {
      const outcome = await run.done;
      if (outcome.waiting?.kind !== "approval" || interrupts > 0) {
        for (let pending; pending !== recorded; ) await (pending = recorded);
        const final = cancelled && outcome.status !== "cancelled" ? { ...outcome, status: "cancelled" } : outcome;
        if (final.status === "completed" || final.status === "failed")
          for (const line of checkReportLines(await store.read(sessionId))) context.out(line);
        return await report(context, store, sessionId, final);
      }
      const attending = location === void 0 ? void 0 : await context.attendSession?.(location, sessionId);
      let decided;
      try {
        decided = await awaitDecision(
          context,
          host,
          store,
          sessionId,
          outcome,
          waiting.signal,
          approvalWait
        );
        await recorded;
      } finally {
        await attending?.release();
      }
      if (!decided && interrupts === 0) return EXIT_CODES.waitingForPerson;
      run = await host.resume(sessionId);
    }
  } finally {
    stopListening();
  }
}
async function report(context, store, id, outcome) {
  switch (outcome.status) {
    case "completed":
      context.out(`session ${id} completed`);
      return 0;
    case "paused":
      context.out(`session ${id} paused; continue with: correx resume ${id}`);
      return 0;
    case "running":
      if (outcome.waiting?.kind === "budget") {
        const flag = {
          tokens: "--max-tokens N",
          cost: "--max-cost USD",
          duration: "--max-duration 1h"
        }[outcome.waiting.budget];
        context.out(
          `session ${id} stopped at its ${outcome.waiting.budget} budget (${outcome.waiting.limit}); raise it to go on: correx resume ${id} ${flag}`
        );
        return 0;
      }
      context.out(`session ${id} is ${outcome.status}; continue with: correx resume ${id}`);
      return 0;
    case "failed": {
      const failure = outcome.state.session.failure;
      if (failure?.category === "configuration") {
        context.err(`correx: model configuration: ${await configurationMessage(store, id)}`);
        context.out(`session ${id} failed; see: correx show ${id}`);
        return 2;
      }
      context.out(`session ${id} failed; see: correx show ${id}`);
      return 1;
    }
    case "cancelled":
      context.out(`session ${id} ${outcome.status}; see: correx show ${id}`);
      return 1;
    default:
      context.out(`session ${id} is ${outcome.status}; continue with: correx resume ${id}`);
      return 0;
  }
}
async function configurationMessage(store, id) {
  const events = await store.read(id);
  for (const event of events.reverse()) {
    const payload = event.payload;
    if (payload.type === "inference_failed" && payload.category === "configuration")
      return payload.message;
  }
  return "the model provider cannot serve this session";
}
async function awaitDecision(context, host, store, sessionId, outcome, interrupted, approvalWait) {
  const waitingFor = outcome.waiting?.kind === "approval" ? outcome.waiting : void 0;
  const callId = waitingFor?.callId ?? "";
  const target = waitingFor?.sessionId ?? sessionId;
  const seen = await store.lastSequence(target);
  const done = new AbortController();
  const stop = () => done.abort();
  interrupted.addEventListener("abort", stop, { once: true });
  context.out(
    `approval needed for ${visibleText(callId)}${target === sessionId ? "" : ` in sub-session ${target}`}:`
  );
  const view = await describePendingCall(store, target, callId);
  for (const line of view.lines) context.out(line);
  context.out(
    `  answer here, or elsewhere: correx approve ${target} ${callId}  |  correx deny ${target} ${callId} --reason ...`
  );
  if (approvalWait.unattended === true && context.ask === void 0) {
    await approvalWait.onWaiting?.({ sessionId: target, callId, until: null, unattended: true });
    done.abort();
    interrupted.removeEventListener("abort", stop);
    return false;
  }
  const until = approvalWait.timeoutMs === void 0 ? null : Date.now() + approvalWait.timeoutMs;
  await approvalWait.onWaiting?.({ sessionId: target, callId, until });
  let timer;
  const timedOut = new Promise((settle) => {
    if (until !== null) timer = setTimeout(() => settle(false), until - Date.now());
  });
  const deadline = waitingFor?.deadline === void 0 ? null : Date.parse(waitingFor.deadline);
  const pastDeadline = deadline === null ? new Promise(() => {
  }) : reached(deadline, done.signal);
  try {
    const elsewhere = changed(store, target, seen, done.signal);
    const here = context.ask === void 0 ? new Promise(() => {
    }) : askHere().catch((error) => {
      if (!done.signal.aborted) throw error;
    });
    return await Promise.race([
      elsewhere.then(() => true),
      here.then(() => true),
      pastDeadline.then(() => true),
      timedOut
    ]);
  } finally {
    clearTimeout(timer);
    done.abort();
    interrupted.removeEventListener("abort", stop);
  }
  async function askHere() {
    const always = view.alwaysAllow;
    const answer = await askApproval(
      context.ask,
      context.out,
      {
        callId: visibleText(callId),
        always: always === null ? null : visibleText(describeGrantScope(always))
      },
      done.signal
    );
    switch (answer.kind) {
      case "approve":
        await host.command(target, { type: "approve", callId, by: context.user });
        return;
      case "deny":
        await host.command(target, {
          type: "deny",
          callId,
          by: context.user,
          reason: answer.reason
        });
        return;
      case "always": {
        const grantId = await recordAlwaysAllow(context, store, target, always);
        await host.command(target, {
          type: "approve",
          callId,
          by: context.user,
          reason: `always allowed: ${grantId}`
        });
        context.out(
          `  added ${grantId}: ${visibleText(describeGrantScope(always))} (revoke: correx revoke ${target} ${grantId})`
        );
        return;
      }
      case "withdrawn":
        context.out(
          `  not decided here; the call still waits: correx approve ${target} ${callId}  |  correx deny ${target} ${callId} --reason ...`
        );
        return new Promise(() => {
        });
    }
  }
}
async function recordAlwaysAllow(context, store, sessionId, scope) {
  const { grantId } = await recordGrant(context, store, sessionId, {
    scope,
    stageId: null,
    expiresAt: null,
    by: context.user,
    reason: ALWAYS_ALLOW_REASON
  });
  return grantId;
}
async function changed(store, sessionId, after, signal) {
  while (!signal.aborted) {
    if (await store.lastSequence(sessionId) > after) return;
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
}
async function reached(instant, signal) {
  while (Date.now() < instant) {
    if (signal.aborted) return new Promise(() => {
    });
    await new Promise((done) => {
      const timer = setTimeout(done, Math.min(instant - Date.now() + 1, 6e4));
      signal.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          done();
        },
        { once: true }
      );
    });
  }
}

// src/interfaces/cli/json-event-stream.ts
function createJsonEventStream(store, writeLine) {
  const cursors = /* @__PURE__ */ new Map();
  let chain = Promise.resolve();
  let scheduled = false;
  const readAll = async () => {
    for (const [sessionId, after] of cursors) {
      let cursor = after;
      for (; ; ) {
        const events = await store.read(sessionId, { afterSequence: cursor, limit: 500 });
        for (const event of events) writeLine(formatEventJson(event));
        if (events.length === 0) break;
        cursor = events.at(-1).sequence;
      }
      cursors.set(sessionId, cursor);
    }
  };
  const enqueue = (step) => {
    const next = chain.catch(() => void 0).then(step);
    chain = next;
    return next;
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    void enqueue(async () => {
      scheduled = false;
      await readAll();
    }).catch(() => void 0);
  };
  return {
    follow(sessionId, afterSequence) {
      if (!cursors.has(sessionId)) cursors.set(sessionId, afterSequence);
      schedule();
    },
    onEvent(event) {
      if (!cursors.has(event.sessionId)) cursors.set(event.sessionId, event.sequence - 1);
      schedule();
    },
    write(object) {
      return enqueue(async () => {
        await readAll();
        writeLine(JSON.stringify(object));
      });
    },
    drain: () => enqueue(readAll)
  };
}

// src/interfaces/cli/commands/run-command.ts
async function drive(context, command, headless, begin) {
  const waitMs = waitDuration(headless.waitForApproval);
  await withStore(
    context,
    command,
    async ({ events, location }) => {
      const json = headless.json === true;
      const stream = json ? createJsonEventStream(events, context.out) : void 0;
      const human = json ? { ...context, out: context.err } : context;
      const progress = createSessionProgress(human, context.terminal);
      try {
        const host = await context.createSessionHost({
          store: events,
          location,
          onEvent: (event) => {
            progress.onEvent(event);
            stream?.onEvent(event);
          }
        });
        const run = await begin(host, events, {
          follow: (sessionId, after) => stream?.follow(sessionId, after),
          checkMode: (mode) => refuseUnattendedPrompt(context, mode, headless)
        });
        stream?.follow(run.sessionId, 0);
        human.out(`session ${run.sessionId}`);
        if (run.worktree !== void 0) {
          const { path, branch, base, uncommitted } = run.worktree;
          human.out(`worktree ${path} on branch ${branch} (from ${base})`);
          if (uncommitted.length > 0)
            human.out(
              `note: ${uncommitted.length} uncommitted change(s) in the original tree are not in the worktree and stay where they are`
            );
        }
        await followSession(human, host, events, run, location, {
          ...waitMs === void 0 ? {} : { timeoutMs: waitMs },
          // Any mode may meet a call only a person decides (auto: T3); with nobody to ask and
          // no wait asked for, the run stops there at once, never waiting silently.
          ...context.ask === void 0 && headless.waitForApproval === void 0 ? { unattended: true } : {},
          // A terminal shows the question itself; the stream and a run without one are told here.
          ...context.ask === void 0 || stream !== void 0 ? { onWaiting: (wait) => announceWait(context, events, run.sessionId, wait, stream) } : {}
        });
        const summary = runSummary(
          run.sessionId,
          await readSessionLogs(events, run.sessionId),
          storedText(context.correxHome),
          nodeSha256
        );
        for (const line of runSummaryLines(summary)) human.out(line);
        if (stream !== void 0) await stream.write(summary);
        if (summary.exitCode !== 0) context.fail(summary.exitCode);
      } finally {
        progress.dispose();
      }
    },
    { create: true }
  );
}
function budgetsOf(options) {
  const amount = (flag, text) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0)
      throw new CorrexError(
        "usage",
        `${flag} takes a positive number, got ${JSON.stringify(text)}`
      );
    return value;
  };
  const duration = (text) => {
    const ms = parseDuration(text);
    if (ms === null)
      throw new CorrexError(
        "usage",
        `--max-duration takes a duration such as 90s, 30m or 2h, got ${JSON.stringify(text)}`
      );
    return ms;
  };
  return {
    ...options.maxTokens === void 0 ? {} : { maxTokens: amount("--max-tokens", options.maxTokens) },
    ...options.maxCost === void 0 ? {} : { maxCostUsd: amount("--max-cost", options.maxCost) },
    ...options.maxDuration === void 0 ? {} : { maxDurationMs: duration(options.maxDuration) }
  };
}
function raisedBudgets(budgets) {
  const raised = [];
  if (budgets.maxTokens !== void 0) raised.push(["tokens", budgets.maxTokens]);
  if (budgets.maxCostUsd !== void 0) raised.push(["cost", budgets.maxCostUsd]);
  if (budgets.maxDurationMs !== void 0) raised.push(["duration", budgets.maxDurationMs]);
  return raised;
}
function runCommands(context) {
  const run = new Command("run").description("run a task on a workspace with the configured model (see harness.yaml)").argument("<task>", "what the agent should do").option("--workspace <dir>", "the folder the agent works in (default: the current folder)").option("--workflow <name|file>", "a workflow from harness.yaml or a workflow YAML file").option("--model <profile>", "a model profile from harness.yaml (runs every stage)").addOption(
    new Option("--mode <mode>", "approval mode (default: harness.yaml, else prompt)").choices(
      OperatorModeSchema.options
    )
  ).option("--max-tokens <n>", "stop before a model call once the session used this many tokens").option("--max-cost <usd>", "stop once the session cost this much (by the profiles' prices)").option("--max-duration <time>", "stop once the session ran this long (90s, 30m, 2h)").option("--json", JSON_HELP).option("--wait-for-approval [duration]", WAIT_HELP).option(
    "--worktree",
    "work in a git worktree on branch correx/<session>, a commit per accepted stage (see correx merge)"
  ).addHelpText(
    "after",
    "\nIn prompt mode each gated call is shown with its findings and tier and asked here (or decided\nwith `correx approve`/`deny` from another terminal). Ctrl-C pauses; a second Ctrl-C cancels.\nWithout a terminal, prompt mode needs --wait-for-approval (or another --mode).\nExit codes: 0 completed, 1 failed, 2 usage or configuration, 3 store unavailable,\n4 waiting for a person (approval, pause, budget; resumable), 5 cancelled. See docs/headless.md."
  ).action(
    async (task, options, command) => {
      const budgets = budgetsOf(options);
      if (options.json !== true)
        await askWorkspaceTrust(context, resolve(context.cwd, options.workspace ?? "."));
      await drive(
        context,
        command,
        options,
        (host, _store, headless) => host.start({
          checkMode: headless.checkMode,
          ...Object.keys(budgets).length === 0 ? {} : { budgets },
          task,
          workspace: options.workspace ?? context.cwd,
          ...options.workflow === void 0 ? {} : { workflow: options.workflow },
          ...options.model === void 0 ? {} : { modelProfile: options.model },
          ...options.mode === void 0 ? {} : { mode: OperatorModeSchema.parse(options.mode) },
          ...options.worktree === true ? { worktree: true } : {}
        })
      );
    }
  );
  const resume = new Command("resume").description(
    "continue a paused or interrupted session here (or, with --retry, a failed one), with the configuration it recorded at its start"
  ).argument("[session]", SESSION_ARGUMENT).option("--max-tokens <n>", "raise the token budget of a session that stopped at it").option("--max-cost <usd>", "raise its cost budget").option("--max-duration <time>", "raise its duration budget (90s, 30m, 2h)").option(
    "--retry",
    "run a failed session again from the stage that failed (recorded as session_retried)"
  ).option("--reason <text>", "why it is retried (recorded with --retry)").option("--json", JSON_HELP).option("--wait-for-approval [duration]", WAIT_HELP).action(
    async (typed, options, command) => {
      const budgets = budgetsOf(options);
      await drive(context, command, options, async (host, store, headless) => {
        const sessionId = await resolveSessionRef(store, typed, command);
        for (const event of await store.read(sessionId, { limit: 10 }))
          if (event.payload.type === "session_created") headless.checkMode(event.payload.mode);
        headless.follow(sessionId, await store.lastSequence(sessionId));
        if (options.retry === true) {
          const recorded = await host.command(sessionId, {
            type: "retry",
            by: context.user,
            ...options.reason === void 0 ? {} : { reason: options.reason }
          });
          if (options.json !== true)
            for (const event of recorded) {
              const line = formatEventLine(event);
              if (line !== null) context.out(line);
            }
        }
        for (const [budget, limit] of raisedBudgets(budgets))
          await host.command(sessionId, {
            type: "raise_budget",
            budget,
            limit,
            by: context.user
          });
        if (options.retry !== true)
          await host.command(sessionId, { type: "resume", by: context.user });
        return host.resume(sessionId);
      });
    }
  );
  return [run, resume];
}
export {
  runCommands
};
