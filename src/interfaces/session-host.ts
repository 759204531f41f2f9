import type { SessionLeaseView } from './session-lease.js';
import type { DriverTake } from './interrupted-call-driver.js';
import type {
  SessionBudgets,
  KernelCommand,
  ReplayDivergence,
  RunOutcome,
} from '../core/kernel/index.js';
import type { OperatorMode } from '../core/approvals/approval-tier.js';
import type { LiveOutputObserver } from '../core/base/live-output.js';
import type { CorrexEvent } from '../core/event-catalog.js';
import type { McpServersConfig } from '../infrastructure/mcp/mcp-server-config.js';
import type { ForkChanges, ForkRequest } from './session-fork.js';

/** What a person asks for when starting a session (CLI flags, a REST body). */
export type StartSessionRequest = {
  readonly task: string;
  /** An absolute path; the host refuses one outside its allowed roots. */
  readonly workspace: string;
  /** A workflow name from the configuration, or a workflow YAML file; default `default-coding`. */
  readonly workflow?: string;
  /** A model profile id from the configuration; default: the configured default profile. */
  readonly modelProfile?: string;
  /** Default: the configured approval mode. */
  readonly mode?: OperatorMode;
  /** Each given bound overrides the configured one. */
  readonly budgets?: SessionBudgets;
  /**
   * Run in a git worktree of the workspace's repository on a branch `correx/<session>`, with a
   * commit per accepted stage; the original working tree is left as it is.
   */
  readonly worktree?: boolean;
  /**
   * Called with the session's approval mode once its configuration is resolved, before anything
   * is recorded; throwing refuses the start (`correx run` without a terminal in prompt mode).
   */
  readonly checkMode?: (mode: OperatorMode) => void;
  /**
   * The id the new session gets, chosen by the caller from the same id source (`correx acp`
   * names a session before its first prompt); refused when that session already has events.
   * Absent: a fresh id.
   */
  readonly sessionId?: string;
  /**
   * MCP servers a client brought (an editor's, over ACP), merged into the configured ones under
   * the same policy, sandbox and approval rules; a name the configuration uses already is
   * refused. The host remembers them for the session's later drives in this process.
   */
  readonly mcpServers?: McpServersConfig;
};

/** Where an isolated session works, and what of the original tree it does not see. */
export type SessionWorktreeInfo = {
  readonly path: string;
  readonly branch: string;
  /** The branch (or commit) it started from, which `correx merge` merges into. */
  readonly base: string;
  /** Uncommitted changes of the original tree at the start (`git status --porcelain`): not in the worktree, left where they are. */
  readonly uncommitted: readonly string[];
};

/** A follow-up request to a session whose workflow ended (`correx continue`, flag `follow-up-turns`). */
export type ContinueSessionRequest = {
  /** What the person asks next. */
  readonly text: string;
  /** Who asks (recorded as `turn_requested.requestedBy`). */
  readonly requestedBy: string;
  /** A workflow name from the configuration (`chat`, `default-coding`, …) or a workflow YAML file; default: the workflow of the session's last turn. */
  readonly workflow?: string;
  /** The approval mode from this turn on; default: the session's. */
  readonly mode?: OperatorMode;
};

/** What a fork changes of its parent's configuration (`correx fork`, the REST fork). */
export type ForkConfigurationChange = {
  /** One model profile runs every stage. */
  readonly model?: string;
  /** The router holds these profiles and routes each stage among them. */
  readonly profiles?: readonly string[];
  /** A `harness.yaml` or policy document the fork runs under. */
  readonly policyFile?: string;
  /** A configured workflow's name or a workflow YAML file. */
  readonly workflow?: string;
};

/** The fork's configuration, checked: what `forkSession` builds it with and records. */
export type ForkConfiguration = {
  readonly configure: NonNullable<ForkRequest['configure']>;
  readonly modelProfile?: string;
  readonly changed: ForkChanges;
};

/** A session started or woken in this process. */
export type HostedRun = {
  readonly sessionId: string;
  /** Settles when this process stops driving it: finished, paused, or waiting for a person. */
  readonly done: Promise<RunOutcome>;
  /** Set when the session was started in a worktree of its own. */
  readonly worktree?: SessionWorktreeInfo;
};

/** What a new session may be started with here, for forms and `--help`-like listings. */
export type SessionOptions = {
  readonly workflows: readonly string[];
  readonly defaultWorkflow: string;
  readonly modelProfiles: readonly string[];
  readonly defaultModelProfile: string | null;
  readonly defaultMode: OperatorMode;
};

export type ReplayVerification =
  | { readonly ok: true; readonly events: number }
  | { readonly ok: false; readonly events: number; readonly divergence: ReplayDivergence };

/**
 * Runs sessions in this process on the configured store, with the configured models, tools and
 * policy: the one service behind `correx run`, `correx resume` and `correx serve`. Implemented in
 * `src/main`; interfaces only see this shape.
 */
export interface SessionHost {
  /** Records the session's effective configuration and its start, then drives it. */
  start(request: StartSessionRequest): Promise<HostedRun>;
  /**
   * Records a person's command (approve, deny, steer, pause, resume, cancel). A session driven
   * here receives it at once; a session that waits for it (an approval, a resume) is woken and
   * driven here. Returns the events the command became.
   */
  command(sessionId: string, command: KernelCommand): Promise<readonly CorrexEvent[]>;
  /**
   * Records a follow-up turn (`turn_requested`) in a session whose workflow ended (completed,
   * failed or cancelled) and drives it: the workspace is compared with what the log left
   * (`turn_workspace_checked`), then the workflow starts again. Refused with
   * `session_not_finished` while it runs, `turns_not_recorded` for a session recorded without
   * follow-up turns, `session_busy` when another process drives it.
   */
  continue(
    sessionId: string,
    request: {
      text: string;
      requestedBy: string;
      workflow?: string;
      mode?: OperatorMode;
    },
  ): Promise<HostedRun>;
  /** Drives a session that no process drives (after a crash or a restart). */
  resume(sessionId: string): Promise<HostedRun>;
  /** The workflows, model profiles and mode the configuration offers new sessions. */
  options(): Promise<SessionOptions>;
  /**
   * Resolves what a fork changes (model profiles, policy file, workflow) against this host's
   * configuration; an unknown name is refused here. Absent: forks keep the parent's configuration.
   */
  forkConfiguration?(change: ForkConfigurationChange): Promise<ForkConfiguration>;
  /** The sessions this process drives now. */
  running(): readonly string[];
  /**
   * The sessions this process holds while they wait for a person: a decision recorded for one
   * drives it on here at once (`correx serve` attends the sessions it started). Absent: none.
   */
  attending?(): readonly string[];
  /**
   * The process holding a session's driver lock, in words (`pid 4242 on box`), for stores whose
   * locks a listing can read (SQLite's lock files); null: no live process holds it. Absent: the
   * store cannot tell (a shared store names drivers through `drivers`).
   */
  lockHolder?(sessionId: string): string | null;
  /** Who drives each session now, any process (a shared store's driver records); absent: unknown. */
  drivers?(): Promise<ReadonlyMap<string, SessionLeaseView>>;
  /**
   * Every take of a session's driver lock, oldest first, with what each driver said when it
   * ended (a shared store's driver records); absent: the store keeps none.
   */
  driverTakes?(sessionId: string): Promise<readonly DriverTake[]>;
  /**
   * Watches the live output of every session driven here (a model's text, a command's output,
   * as they are produced): never recorded, so whoever is not watching misses it and reads the
   * recorded result instead. Returns the function that stops watching. Absent: none is offered.
   */
  watchLive?(observer: LiveOutputObserver): () => void;
  /** Re-decides a session from its log without model or tools and compares bytes. */
  replayVerify(sessionId: string): Promise<ReplayVerification>;
  /** Pauses every session driven here and waits until each has stopped. */
  shutdown(): Promise<void>;
}
