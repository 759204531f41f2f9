import {
  formatCost,
  formatJson,
  formatTable
} from "./chunk-5MQ6PZFE.js";
import {
  resolveSessionRef
} from "./chunk-A2ILMMH3.js";
import {
  withStore
} from "./chunk-UBE6EJMR.js";
import {
  UnknownSessionError
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

// src/interfaces/cli/commands/eval-command.ts
import { Command as Command2 } from "commander";

// src/interfaces/cli/commands/eval-replay-output.ts
function printReplayGate(report, problems, timing) {
  const lines = [];
  for (const problem of problems)
    lines.push(
      `\u2717 ${problem.file}${problem.sessionId === null ? "" : `  ${problem.sessionId}`}${problem.sequence === null ? "" : ` #${problem.sequence}`}: ${problem.reason}`
    );
  for (const session of report.sessions) {
    const where = session.source === session.sessionId ? "" : `${session.source}  `;
    if (session.ok) {
      lines.push(`\u2713 ${where}${session.sessionId}  ${session.events} events identical`);
      continue;
    }
    if (session.error !== void 0) {
      lines.push(`\u2717 ${where}${session.sessionId}  cannot replay: ${session.error}`);
      continue;
    }
    const divergence = session.divergence;
    const type = divergence.recorded.type ?? divergence.derived.type ?? "event";
    lines.push(
      `\u2717 ${where}${session.sessionId}  DIVERGES at #${divergence.sequence} ${type}: ${divergence.reason}`
    );
    if (divergence.fields.length > 0) lines.push(`    fields    ${divergence.fields.join(", ")}`);
    lines.push(
      `    derived   ${short(divergence.derived.sha256)} ${divergence.derivedText ?? "(nothing)"}`
    );
    lines.push(
      `    recorded  ${short(divergence.recorded.sha256)} ${divergence.recordedText ?? "(nothing)"}`
    );
  }
  const failed = report.sessions.filter((session) => !session.ok).length;
  lines.push(
    `eval replay: ${report.sessions.length} sessions, ${report.events} events, ${report.decided} decisions re-derived in ${(timing.wallMs / 1e3).toFixed(1)} s (${(timing.cpuMs / 1e3).toFixed(1)} s CPU), no model or tool called \u2014 ${failed === 0 && problems.length === 0 ? "all identical" : `${failed} diverged${problems.length === 0 ? "" : `, ${problems.length} corpus problems`}`}`
  );
  return lines;
}
function short(sha256) {
  return sha256 === null ? "-" : `sha256:${sha256.slice(0, 12)}`;
}

// src/interfaces/cli/commands/eval-run-command.ts
import { Command, InvalidArgumentError } from "commander";
function parseRepeat(value) {
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > 100)
    throw new InvalidArgumentError("a whole number from 1 to 100");
  return count;
}
function evalRunCommand(context) {
  return new Command("run").description(
    "run each task of a suite (`builtin`, or a folder with suite.json) for each model in auto mode under the sandbox, score it with the suite checks, and report pass rates"
  ).argument("<suite>", "`builtin` or a suite folder").requiredOption(
    "--model <model>",
    "a model to evaluate, repeatable: a model profile of harness.yaml, or scripted:<name> (plays <suite>/models/<name>/<task>.json)",
    (value, previous = []) => [...previous, value]
  ).option("--repeat <count>", "runs of each task per model", parseRepeat, 1).option("--workdir <dir>", "where the runs\u2019 workspace copies go (default: a temporary folder)").option("--json", "print the report as JSON").action(
    async (suite, options, command) => {
      const { runEval } = await import("./eval-run-GAKS7THU.js");
      await withStore(
        context,
        command,
        async ({ events, location }) => {
          const configured = options.model.filter((model) => !model.startsWith("scripted:"));
          const host = configured.length === 0 ? void 0 : await context.createSessionHost({ store: events, location });
          try {
            if (host !== void 0) {
              const { modelProfiles } = await host.options();
              const unknown = configured.filter((model) => !modelProfiles.includes(model));
              if (unknown.length > 0)
                throw new CorrexError(
                  "usage",
                  `no model profile ${unknown.join(", ")} (configured: ${modelProfiles.join(", ") || "none"}; or scripted:<name>)`
                );
            }
            const report = await runEval({
              suite,
              models: options.model,
              repeat: options.repeat,
              store: events,
              correxHome: context.correxHome,
              clock: context.clock,
              ids: context.ids,
              ...options.workdir === void 0 ? {} : { workdir: options.workdir },
              ...host === void 0 ? {} : {
                startConfigured: async (run) => {
                  const hosted = await host.start({
                    task: run.task,
                    workspace: run.workspace,
                    modelProfile: run.model,
                    mode: "auto"
                  });
                  const outcome = await hosted.done;
                  return { sessionId: hosted.sessionId, status: outcome.status };
                }
              },
              ...options.json === true ? {} : { onRun: (run) => context.out(runLine(run)) }
            });
            if (options.json) context.out(formatJson(report));
            else context.out(`
${reportTable(report)}`);
            if (report.runs.some((run) => !run.replays)) context.fail(1);
          } finally {
            await host?.shutdown();
          }
        },
        { create: true }
      );
    }
  );
}
function runLine(run) {
  return `${run.passed ? "\u2713" : "\u2717"} ${run.model}  ${run.task}#${run.repeat}  ${run.status}  session ${run.sessionId}${run.replays ? "" : "  REPLAY DIVERGES"}${run.failures.length === 0 ? "" : `  (${run.failures.join("; ")})`}`;
}
function reportTable(report) {
  return formatTable(
    ["model", "pass rate", "tokens", "cost", "time", "approvals", "policy blocks"],
    report.models.map((model) => [
      model.model,
      `${model.passed}/${model.runs} (${Math.round(model.passRate * 100)}%)`,
      `${model.tokens.input} in, ${model.tokens.output} out`,
      model.cost === null ? "-" : formatCost(model.cost),
      `${(model.durationMs / 1e3).toFixed(1)} s`,
      String(model.approvalsWouldAsk),
      String(model.policyBlocks)
    ])
  );
}

// src/interfaces/cli/commands/eval-command.ts
function evalCommand(context) {
  const replay = new Command2("replay").description(
    "a regression gate: re-derive recorded sessions byte for byte with no model; exit 1 at any divergence"
  ).argument("[sessions...]", "session ids in the store (or unique starts of them)").option(
    "--corpus <dir>",
    "replay every session of a folder of NDJSON logs (`correx events <id> --json` writes one)"
  ).option("--json", "print the report as JSON").action(
    async (typed, options, command) => {
      const { replayGate, joinReports } = await import("./replay-gate-BJVXTICG.js");
      const { nodeSha256 } = await import("./node-sha256-5SDS7J23.js");
      if (options.corpus === void 0 === (typed.length === 0))
        throw new CorrexError("usage", "give session ids or --corpus <dir>, one of the two");
      const started = Date.now();
      const cpu = process.cpuUsage();
      let report;
      let problems = [];
      if (options.corpus !== void 0) {
        const { readCorpusFolder, loadCorpusFile } = await import("./session-corpus-folder-W2XPBXPF.js");
        const corpus = readCorpusFolder(options.corpus);
        const found = [...corpus.problems];
        const parts = [];
        for (const file of corpus.files) {
          const loaded = await loadCorpusFile(corpus.folder, file);
          found.push(...loaded.problems);
          const broken = new Set(loaded.problems.map((problem) => problem.sessionId));
          parts.push(
            await replayGate(
              loaded.store,
              loaded.sessions.filter((session) => !broken.has(session.sessionId)).map((session) => ({ sessionId: session.sessionId, source: file })),
              nodeSha256
            )
          );
          await loaded.store.close();
        }
        problems = found;
        report = joinReports(parts);
      } else {
        report = await withStore(context, command, async ({ events, location }) => {
          const sessions = [];
          for (const ref of typed) {
            const sessionId = await resolveSessionRef(events, ref, command);
            if (await events.lastSequence(sessionId) === 0)
              throw new UnknownSessionError(sessionId);
            sessions.push({ sessionId, source: location });
          }
          return replayGate(events, sessions, nodeSha256);
        });
      }
      const used = process.cpuUsage(cpu);
      const timing = {
        wallMs: Date.now() - started,
        cpuMs: Math.round((used.user + used.system) / 1e3)
      };
      const ok = report.ok && problems.length === 0;
      if (options.json) context.out(formatJson({ ...report, ok, problems, ...timing }));
      else for (const line of printReplayGate(report, problems, timing)) context.out(line);
      if (!ok) context.fail(1);
    }
  );
  return new Command2("eval").description(
    "regression gates over recorded sessions, and evaluations of models on task suites"
  ).addCommand(replay).addCommand(evalRunCommand(context));
}
export {
  evalCommand
};
