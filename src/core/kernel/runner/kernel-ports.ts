import type { LayeredRecord } from '../../base/layered-record.js';
import type { HookDefinition } from '../../toolintent/hook-definition.js';
import type { PreToolUseHookResult } from '../../toolintent/hook-events.js';
import type { SandboxProfile } from '../../policies/sandbox-profile.js';
import type { PayloadOf } from '../../events/event-definition.js';
import type { InferenceProvider } from '../../inference/inference-provider.js';
import type { WorldObservation } from '../../toolintent/toolintent-events.js';
import type { WorldProbe } from '../../toolintent/world-probe.js';
import type { ToolDefinition } from '../../tools/tool-contract.js';
import type { toolReceipt } from '../../tools/tool-events.js';
import type { ProjectCheck } from '../../validation/project-check.js';
import type { languageDiagnosticsRecorded } from '../../validation/definition-of-done-events.js';

/** One approved call to run: the contract, validated arguments and the recorded targets. */
export type ToolExecutionRequest = {
  readonly callId: string;
  readonly tool: ToolDefinition;
  readonly args: { readonly [key: string]: unknown };
  readonly workspaceRoot: string;
  readonly homeDirectory: string;
  /** Write targets and the hashes recorded at `tool_call_started`, for the TOCTOU re-check. */
  readonly targets: readonly { readonly path: string; readonly sha256: string | null }[];
  /** The recorded observations the call was assessed on; writes re-check against them. */
  readonly observations: LayeredRecord<WorldObservation>;
  readonly egressAllowlist: readonly string[];
  /** The shell an exec command line runs under: `bash` with flag `exec-bash`; absent: `sh`. */
  readonly commandShell?: CommandShell;
  /** With flag `mcp-change-records`: an MCP call that may write lists the files it changed. */
  readonly mcpChangeRecords?: boolean;
};

export type CommandShell = 'bash' | 'sh';

/** What a tool run produced: the receipt's fields the executor knows. */
export type ToolExecution = Omit<
  PayloadOf<typeof toolReceipt>,
  'type' | 'callId' | 'tool' | 'args'
>;

/**
 * Runs approved tool calls (the built-in tools in infrastructure, or a test double). It never
 * decides whether a call may run; that was assessed and approved before. Aborting `signal` stops
 * the call (a running process is killed) and resolves with outcome `aborted`.
 */
export interface ToolRunner {
  run(request: ToolExecutionRequest, signal: AbortSignal): Promise<ToolExecution>;
}

/** One definition-of-done check to run in the workspace. */
export type AnalysisRequest = {
  readonly name: string;
  /** A shell command line from the workflow definition (trusted configuration, not model output). */
  readonly command: string;
  readonly workspaceRoot: string;
};

/** How a check ended: the `dod_check_ran` fields the runner knows. */
export type AnalysisRun = {
  readonly outcome: 'completed' | 'timed_out' | 'aborted' | 'failed_to_start';
  readonly exitCode: number | null;
  readonly output: string;
  readonly outputBytes: number;
  readonly truncated: boolean;
  readonly durationMs: number;
  /** The confinement the check ran under, recorded with its result. */
  readonly sandbox?: SandboxProfile;
};

/**
 * Runs definition-of-done checks (`npm test`, `tsc --noEmit`, a linter) for a stage. A process
 * runner in infrastructure, or a test double. Aborting `signal` kills the check.
 */
export interface StaticAnalysisRunner {
  run(request: AnalysisRequest, signal: AbortSignal): Promise<AnalysisRun>;
}

/** What the workspace's project files say about its checks (`project_checks_detected`'s fields). */
export type DetectedChecks = {
  readonly checks: readonly ProjectCheck[];
  readonly problems: readonly { readonly file: string; readonly message: string }[];
};

/**
 * Finds a project's checks by reading its project files (package.json, pyproject.toml, go.mod,
 * Cargo.toml, Makefile). It only reads; the checks run later through the StaticAnalysisRunner.
 */
export interface ProjectCheckDetector {
  detect(workspaceRoot: string, signal: AbortSignal): Promise<DetectedChecks>;
}

/** The files to ask a language server about (absolute paths inside the workspace). */
export type DiagnosticsRequest = {
  readonly workspaceRoot: string;
  readonly files: readonly string[];
};

/** What a language server said: `language_diagnostics_recorded`'s fields the runner knows. */
export type DiagnosticsRun = Omit<
  PayloadOf<typeof languageDiagnosticsRecorded>,
  'type' | 'stageId' | 'attempt'
>;

/**
 * Asks a real language server (typescript-language-server for TypeScript and JavaScript) for
 * the diagnostics of files; started sandboxed for the request and stopped after it. A server
 * that cannot start is an `unavailable` run with the reason, never a crash.
 */
export interface LanguageDiagnostics {
  diagnose(request: DiagnosticsRequest, signal: AbortSignal): Promise<DiagnosticsRun>;
}

/**
 * Waits. The runner's only timer (core has none): a retry delay a provider asked for is waited
 * out through it. Resolves after `ms`, or early when `signal` aborts (never rejects).
 */
export interface Timer {
  sleep(ms: number, signal: AbortSignal): Promise<void>;
}

/** One call's `pre_tool_use` hooks to run, and what they are told (sent as JSON on stdin). */
export type PreToolUseHookRequest = {
  readonly hooks: readonly HookDefinition[];
  readonly workspaceRoot: string;
  readonly input: { readonly [key: string]: unknown };
};

/**
 * Runs the user's hooks (sandboxed processes in infrastructure, or a test double). A hook that
 * crashes, hangs or answers garbage is a result with that outcome, never a thrown error.
 */
export interface HookRunner {
  runPreToolUse(
    request: PreToolUseHookRequest,
    signal: AbortSignal,
  ): Promise<PreToolUseHookResult[]>;
}

/** The outside world, as the live runner reaches it. Replay takes none of these. */
export type KernelPorts = {
  /** Provider instances by the name model profiles use in `provider`. */
  readonly providers: ReadonlyMap<string, InferenceProvider>;
  readonly tools: ToolRunner;
  readonly probe: WorldProbe;
  /** Needed only by workflows whose stages declare a definition of done. */
  readonly analysis?: StaticAnalysisRunner;
  /** Needed only when a provider asks for a retry delay (`retryAfterMs`). */
  readonly timer?: Timer;
  /** Needed by sessions recorded with `checks-by-default` (every new session). */
  readonly checks?: ProjectCheckDetector;
  /** A language server for the files a session wrote (`lsp-diagnostics`); absent: recorded as unavailable. */
  readonly diagnostics?: LanguageDiagnostics;
  /** Needed only for sessions with hooks; without it a `pre_tool_use` hook fails closed. */
  readonly hooks?: HookRunner;
};
