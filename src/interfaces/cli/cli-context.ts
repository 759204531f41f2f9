import type { SessionLeaseView } from '../session-lease.js';
import type { Clock } from '../../core/base/clock.js';
import type { IdSource } from '../../core/base/id-source.js';
import type { CorrexEvent, CorrexEventStore } from '../../core/event-catalog.js';
import type { RouterFacade } from '../../core/router/router-facade.js';
import type { SnapshotStore } from '../../core/events/snapshot-store.js';
import type { SessionHost } from '../session-host.js';
import type { StoreMigrationReport } from '../../infrastructure/migrate-store.js';
import type { McpServerListing } from '../../infrastructure/mcp/list-mcp-tools.js';
import type { DoctorCheck } from '../../infrastructure/doctor/doctor-check.js';

/** An opened store as the CLI sees it. */
export type CliStores = {
  readonly kind: string;
  /** Where it is, safe to print (no password). */
  readonly location: string;
  readonly events: CorrexEventStore;
  /** Where projections' snapshots are kept (the store's own tables), when it keeps them. */
  readonly snapshots?: SnapshotStore;
  close(): Promise<void>;
};

export type WorkerOptions = {
  readonly location: string;
  readonly concurrency: number;
  readonly sweepMs: number;
  /** How long a driver lease holds without a renewal (default 30 s). */
  readonly leaseMs?: number;
  readonly onTaken?: (sessionId: string) => void;
  readonly onStopped?: (sessionId: string, status: string) => void;
  readonly onError?: (sessionId: string | null, error: unknown) => void;
  /** The store answers again after an outage `onError` reported. */
  readonly onReconnected?: () => void;
};

/** A running worker, as the CLI sees it. */
export type WorkerHandle = {
  /** How its driver records and events name it. */
  readonly name: string;
  driving(): readonly string[];
  /** Stops taking sessions and hands those it drives back (paused, then resumed in the log). */
  stop(): Promise<{ readonly handedBack: readonly string[] }>;
  close(): Promise<void>;
};

/** What the composition root hands the CLI; commands reach the outside world only through this. */
export type CliContext = {
  readonly version: string;
  /** $CORREX_HOME (default ~/.correx): the user's configuration and default store live here. */
  readonly correxHome: string;
  /** The store used when `--store` is not given ($CORREX_STORE, else $CORREX_HOME/correx.db). */
  readonly defaultStore: string;
  /**
   * Opens a store. Only with `create` is a SQLite file (and its folder) that does not exist yet
   * made; otherwise a missing one is a `store_not_found` error, so a mistyped `--store` on a
   * command that only reads leaves nothing behind.
   */
  openStores(location: string, options?: { readonly create?: boolean }): Promise<CliStores>;
  /** Brings a store's schema up to date. */
  migrateStore(location: string, options: { schema?: string }): Promise<StoreMigrationReport>;
  /** Stamps the events a person's command records (a grant, a revocation). */
  readonly clock: Clock;
  readonly ids: IdSource;
  /** Who is at the keyboard, recorded as the decider ($USER unless --by is given). */
  readonly user: string;
  /** Runs sessions in this process on `store`, with the configured models, tools and policy. */
  createSessionHost(options: {
    readonly store: CorrexEventStore;
    /** Where the store is (`--store`): a SQLite file's folder is kept from the agent too. */
    readonly location: string;
    readonly onEvent?: (event: CorrexEvent) => void;
    /** false: record new sessions and commands, drive nothing (workers drive them). */
    readonly drive?: boolean;
    /**
     * A long-lived host (`correx serve`): it keeps a session that waits for a person as its own
     * (driver lock held) and drives it again when an answer is recorded, from any process.
     */
    readonly attend?: boolean;
  }): Promise<SessionHost>;
  /** Who drives each session of a shared store now (null: the store keeps no driver records). */
  sessionDrivers?(location: string): Promise<ReadonlyMap<string, SessionLeaseView> | null>;
  /** Starts a worker driving the runnable sessions of a shared store (`correx worker`). */
  startWorker?(options: WorkerOptions): Promise<WorkerHandle>;
  /** The conversational router over the sessions in `store`, with the configured models. */
  createRouter(store: CorrexEventStore): Promise<{
    readonly facade: RouterFacade;
    dispose(): Promise<void>;
  }>;
  /**
   * Sends a recorded session's trace (its events and its sub-sessions', by session id) over
   * OTLP/HTTP: to `endpoint` when given, else where the OTEL_EXPORTER_OTLP_* variables say.
   */
  exportTrace(
    rootSessionId: string,
    eventsBySession: ReadonlyMap<string, readonly CorrexEvent[]>,
    options: { readonly endpoint?: string },
  ): Promise<{ readonly spans: number }>;
  /**
   * What the standard OpenTelemetry variables turn on for sessions this process runs outside a
   * session host (the demo): undefined when none is. `settled` waits for their traces' delivery.
   */
  readonly telemetry?: () => Promise<
    { readonly onEvent: (event: CorrexEvent) => void; settled(): Promise<void> } | undefined
  >;
  /**
   * The live process that drives a session of the store at `location` now (holds its driver
   * lock), null when none does, undefined when this kind of store cannot tell.
   */
  readonly sessionDriver?: (
    location: string,
    sessionId: string,
  ) => Promise<{ readonly pid: number; readonly host: string } | null | undefined>;
  /**
   * Holds a session's driver lock while this process attends it without running it (asking for
   * an approval): others see it driven, not interrupted. Released before the session is resumed.
   */
  readonly attendSession?: (
    location: string,
    sessionId: string,
  ) => Promise<{ release(): Promise<void> }>;
  /** Lines typed (or piped) on stdin, until it ends or `signal` aborts (Ctrl-C at a prompt). */
  readonly lines: (signal?: AbortSignal) => AsyncIterable<string>;
  /** $CORREX_SERVER_TOKEN, when set (`correx serve --token` wins over it). */
  readonly serverToken?: string | undefined;
  /** The folder correx was started in: the default workspace and allowed root. */
  readonly cwd: string;
  /** The built web page `correx serve` serves at `/`, when this install has one. */
  readonly webRoot?: string | undefined;
  /** Calls `handler` on each Ctrl-C until the returned function is called. */
  onInterrupt(handler: () => void): () => void;
  /**
   * Asks a question on the terminal and reads one line typed after it appeared (keys typed
   * before are discarded); null on Ctrl-D. Absent when stdin is not a terminal.
   */
  readonly ask?: (question: string, signal: AbortSignal) => Promise<string | null>;
  /** Whether output goes to a terminal: live status lines and colour only then. */
  readonly terminal: boolean;
  /** Rewrites the live status line of a terminal (empty text clears it). */
  status(text: string): void;
  out(text: string): void;
  err(text: string): void;
  /** The checks of `correx doctor`, with this process's environment (keys, OPENAI_BASE_URL). */
  readonly runDoctor?: (options: {
    readonly store: string;
    readonly workspace: string;
    /** The bound of each model probe (`--probe-timeout`); absent: the default. */
    readonly probeTimeoutMs?: number;
  }) => Promise<DoctorCheck[]>;
  /**
   * What `correx init` must say about the environment: set when OPENAI_BASE_URL configures a
   * model, which a harness.yaml with `models:` replaces.
   */
  readonly environmentModel?: {
    readonly baseUrl: string;
    readonly model: string | undefined;
    /** `OPENAI_API_KEY` when that variable is set. */
    readonly apiKeyEnv: string | undefined;
  };
  /**
   * The process's standard input and output as raw streams, for a protocol spoken over them
   * (`correx mcp`): while one is, nothing else may write to `output`.
   */
  readonly protocolStreams?: {
    readonly input: NodeJS.ReadableStream;
    readonly output: NodeJS.WritableStream;
  };
  /** Starts each MCP server configured for `workspace` (sandboxed), lists its tools, stops it. */
  readonly listMcpServers?: (workspace: string) => Promise<McpServerListing[]>;
};

/** What each command receives: the context plus a way to set the exit code without touching the process. */
export type CommandContext = CliContext & {
  fail(exitCode?: number): void;
};
