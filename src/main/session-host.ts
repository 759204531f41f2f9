import type { SessionLeaseView } from '../interfaces/session-lease.js';
import type { DriverTake } from '../interfaces/interrupted-call-driver.js';
import type { ArtifactStore } from '../core/artifacts/artifact-store.js';
import type { Clock } from '../core/base/clock.js';
import type { IdSource } from '../core/base/id-source.js';
import type { CorrexEvent, CorrexEventStore } from '../core/event-catalog.js';
import { replay } from '../core/events/replay.js';
import type { KernelConfig, KernelCommand, KernelPorts } from '../core/kernel/index.js';
import {
  kernelProjection,
  recordCommand,
  recordStart,
  recordedKernelConfig,
  startSession,
  type RunOutcome,
  type SessionRun,
} from '../core/kernel/index.js';
import { replayAnySession } from '../interfaces/fork-replay.js';
import { isFinalStatus } from '../core/sessions/session-status.js';
import { sessionProjection } from '../core/sessions/session-projection.js';
import { environmentModel } from '../infrastructure/config/environment-model.js';
import { loadHarnessConfig } from '../infrastructure/config/load-harness-config.js';
import { describeLoss, driverStore } from '../infrastructure/locks/driver-store.js';
import {
  DriverLeaseLostError,
  type SessionLock,
  type SessionLocker,
} from '../infrastructure/locks/session-locker.js';
import { CorrexError } from '../core/base/correx-error.js';
import type { StaleDriverError } from '../core/events/stale-driver-error.js';
import type { McpServersConfig } from '../infrastructure/mcp/mcp-server-config.js';
import { createProviders, type ProviderSet } from '../infrastructure/providers/provider-factory.js';
import { nodeSha256 } from '../infrastructure/system/node-sha256.js';
import type {
  HostedRun,
  ReplayVerification,
  SessionHost,
  StartSessionRequest,
} from '../interfaces/session-host.js';
import {
  prepareSession,
  resolveWorkflow,
  SessionSetupError,
  type SessionSetupOptions,
} from './session-setup.js';
import { forkConfiguration } from './fork-configuration.js';
import { describeWorktree, isolate, recordWorktree, withStageCommits } from './session-worktree.js';
import {
  derivedSessionWorktree,
  removeSessionWorktree,
} from '../infrastructure/workspace/git-worktree.js';
import { readRecordedWorktree, type RecordedWorktree } from '../core/sessions/recorded-worktree.js';
import { createAttendedSessions } from './attended-sessions.js';
import type { LiveOutputObserver } from '../core/base/live-output.js';
import type { CallOutputObserver } from '../infrastructure/tools/live-output-tap.js';
import { createLiveOutputRouting } from './live-output-routing.js';

/** Who records the pause of a session this process stops driving at shutdown. */
export const SHUTDOWN_ACTOR = 'correx-shutdown';

export type LivePortsFactory = (options: {
  readonly workspace: string;
  readonly providers: ProviderSet['providers'];
  readonly config: KernelConfig;
  /** The user's configured MCP servers, for calls of the MCP tools the session recorded. */
  readonly mcpServers?: McpServersConfig;
  /** Told what a command prints while it runs (live output; the receipt is the record). */
  readonly onCommandOutput?: CallOutputObserver;
}) => KernelPorts & {
  /** Told every event the session's runs append (notification hooks). */
  observe?(event: CorrexEvent): void;
  close?(): Promise<void>;
};

export type SessionHostOptions = SessionSetupOptions & {
  readonly store: CorrexEventStore;
  readonly artifacts?: ArtifactStore;
  readonly clock: Clock;
  readonly ids: IdSource;
  /** Builds the tool runner, probe and analysis runner of a session. */
  readonly ports: LivePortsFactory;
  /** Called with every event this host's runs append (progress lines, the server's fan-out). */
  readonly onEvent?: (event: CorrexEvent) => void;
  /** Reports a background run that failed (a woken session whose provider is down...). */
  readonly onError?: (sessionId: string, error: unknown) => void;
  /** Lets one process at a time drive a session; absent: no cross-process lock. */
  readonly locker?: SessionLocker;
  /** Told what a person should know about a session being set up (an MCP server that failed). */
  readonly notice?: (line: string) => void;
  /** How long shutdown lets running effects finish before aborting them. Default 10 s. */
  readonly shutdownGraceMs?: number;
  /**
   * Record new sessions and commands only, and drive nothing here (`correx serve --no-drive`):
   * workers on the same store take the sessions up.
   */
  readonly recordOnly?: boolean;
  /**
   * Keep the driver lock of a session started or resumed here while it waits for a person, and
   * drive it again when anything is recorded for it (`correx serve`; see attended-sessions.ts).
   */
  readonly attendWaiting?: boolean;
  /** The process holding a session's driver lock, for listings (SQLite's lock files). */
  readonly lockHolder?: (sessionId: string) => string | null;
  /** Who drives each session now, for listings (a shared store's driver records). */
  readonly drivers?: () => Promise<ReadonlyMap<string, SessionLeaseView>>;
  /** Every take of a session's driver lock (a shared store's driver records). */
  readonly driverTakes?: (sessionId: string) => Promise<readonly DriverTake[]>;
};

type Drive = {
  /** The run of the current leg (a woken session is driven again in a new run). */
  readonly current: { run?: SessionRun };
  readonly config: KernelConfig;
  readonly done: Promise<RunOutcome>;
};

/**
 * The production SessionHost: builds each session's kernel config from harness.yaml (and records
 * it), its providers from configuration, and drives it here. A session woken after a restart or
 * crash is driven with the configuration it recorded, never a newer one.
 */
export function createSessionHost(options: SessionHostOptions): SessionHost {
  const { store, clock, ids } = options;
  const active = new Map<string, Drive>();
  const resuming = new Map<string, Promise<HostedRun>>();
  /** Sessions this process started or resumed: the ones a recorded answer wakes here. */
  const owned = new Set<string>();
  /** MCP servers a client brought to a session started here (ACP), for its later drives. */
  const clientServers = new Map<string, McpServersConfig>();
  const stop = new AbortController();
  let stopping = false;
  const attended = createAttendedSessions(store);
  /** Who watches the live output of the sessions driven here (the server's sockets). */
  const liveWatchers = new Set<LiveOutputObserver>();
  const liveSink = {
    emit: (output: Parameters<LiveOutputObserver>[0]) => {
      for (const watcher of liveWatchers) watcher(output);
    },
    watched: () => liveWatchers.size > 0,
  };

  const drive = async (
    sessionId: string,
    config: KernelConfig,
    workspace: string,
    providers: ProviderSet,
    mcpServers: McpServersConfig,
    command?: KernelCommand,
    /** The driver lock, when the caller took it already. */
    held?: SessionLock,
  ): Promise<HostedRun> => {
    // The worktree recorded at the start, never one found through the workspace's `.git`.
    let worktree: RecordedWorktree | null;
    try {
      worktree =
        command?.type === 'start'
          ? (command.worktree ?? null)
          : ((await readRecordedWorktree(store, sessionId)) ??
            derivedSessionWorktree(workspace, sessionId));
    } catch (error) {
      await providers.dispose();
      throw error;
    }
    const onEvent = withStageCommits(sessionId, worktree, options);
    // Another process driving the session would run its effects a second time.
    let lock = held;
    try {
      lock ??= await options.locker?.acquire(sessionId);
    } catch (error) {
      await providers.dispose();
      throw error;
    }
    owned.add(sessionId);
    // Appends as this session's driver go through the lease: each carries its epoch, and none
    // goes out once the lease is lost. Losing it stops the run as a shutdown would (the model
    // call in flight is cancelled, no next tool starts).
    const driving = driverStore(store, sessionId, lock);
    const signal =
      lock?.lost === undefined ? stop.signal : AbortSignal.any([stop.signal, lock.lost]);
    const current: Drive['current'] = {};
    /**
     * The error a drive ends with when the session was lost (fenced by another driver, or the
     * lease ended): said once, as a line a person can read in the worker's log.
     */
    const lostSession = (id: string, error: unknown, held: SessionLock | undefined): unknown => {
      const fenced = CorrexError.isInstance(error) && error.code === 'driver_fenced';
      const lost = held?.lost?.aborted === true;
      if (!fenced && !lost) return error;
      const reason = fenced
        ? `another process took it (driver epoch ${(error as StaleDriverError).epoch} fenced by ${(error as StaleDriverError).currentEpoch})`
        : describeLoss(held!.lost!.reason);
      options.notice?.(`lost the session ${id}: ${reason}; stopped driving it`);
      return lost && !fenced && !CorrexError.isInstance(error)
        ? new DriverLeaseLostError(id, reason)
        : error;
    };
    const entry: Drive = {
      current,
      config,
      done: (async () => {
        let pending = command;
        // Live output is named from the events the run appends (see createLiveOutputRouting).
        const live = createLiveOutputRouting(sessionId, liveSink);
        // One set of ports per drive: MCP servers it starts stay up across its legs.
        const ports = options.ports({
          workspace,
          providers: live.providers(providers.providers),
          config,
          mcpServers,
          onCommandOutput: live.commandOutput,
        });
        let outcome: RunOutcome | undefined;
        try {
          for (;;) {
            const run = startSession(
              {
                store: driving,
                commandStore: store,
                sessionId,
                config,
                ports,
                clock,
                ids,
                signal,
                ...(options.artifacts === undefined ? {} : { artifacts: options.artifacts }),
                onEvent: (event: CorrexEvent) => {
                  live.observe(event);
                  onEvent?.(event);
                  ports.observe?.(event);
                },
              },
              pending,
            );
            pending = undefined;
            current.run = run;
            outcome = await run.done.catch((error: unknown) => {
              throw lostSession(sessionId, error, lock);
            });
            if (lock?.lost?.aborted === true && !isFinalStatus(outcome.status))
              throw lostSession(sessionId, lock.lost.reason, lock);
            if (isFinalStatus(outcome.status) || stopping || outcome.waiting?.kind === 'stopped')
              return outcome;
            // Someone answered while the run was stopping (an approval, a resume): go on.
            if ((await store.lastSequence(sessionId)) > outcome.state.session.lastSequence)
              continue;
            if (outcome.waiting?.kind === 'approval' && outcome.waiting.deadline !== undefined)
              wakeAt(sessionId, outcome.waiting.deadline);
            return outcome;
          }
        } finally {
          active.delete(sessionId);
          await ports.close?.();
          // Waiting for a person: the session stays this host's, lock held, until recorded to.
          const waitsForPerson =
            outcome?.waiting?.kind === 'approval' || outcome?.waiting?.kind === 'budget';
          if (
            options.attendWaiting === true &&
            lock !== undefined &&
            lock.lost?.aborted !== true &&
            outcome !== undefined &&
            waitsForPerson &&
            !stopping
          )
            await attended.hold(sessionId, outcome.state.session.lastSequence, lock, () => {
              if (!stopping && !active.has(sessionId)) wake(sessionId);
            });
          else await lock?.release();
          await providers.dispose();
        }
      })(),
    };
    active.set(sessionId, entry);
    return { sessionId, done: entry.done };
  };

  /**
   * Whether a recorded command leaves the session for this host to drive. An answer to a
   * session started here goes on here. A resumed session had no driver (a paused run ends), so
   * any host may take it; an answer to someone else's session is left to its `correx run`.
   */
  const wakes = (
    sessionId: string,
    command: KernelCommand,
    events: readonly CorrexEvent[],
  ): boolean => {
    if (options.recordOnly === true) return false;
    if (command.type === 'resume')
      return events.some((event) => event.payload.type === 'orchestration_resumed');
    // A retried session had no driver either (it had failed): any host may take it.
    if (command.type === 'retry')
      return events.some((event) => event.payload.type === 'session_retried');
    // So had a session asked for a follow-up turn (its workflow had ended).
    if (command.type === 'continue')
      return events.some((event) => event.payload.type === 'turn_requested');
    return (
      owned.has(sessionId) &&
      (command.type === 'approve' ||
        command.type === 'deny' ||
        command.type === 'redirect' ||
        command.type === 'raise_budget')
    );
  };

  const wake = (sessionId: string) => {
    host.resume(sessionId).then(
      (run) => run.done.catch((error: unknown) => options.onError?.(sessionId, error)),
      (error: unknown) => options.onError?.(sessionId, error),
    );
  };

  /**
   * A session waiting for a person until the policy's approval timeout is driven again at its
   * deadline, while this process lives (the run then records the timeout and denies the call);
   * otherwise whoever drives it next does. The timer keeps no process alive by itself.
   */
  const wakeAt = (sessionId: string, deadline: string) => {
    const left = Math.max(0, Date.parse(deadline) - Date.parse(clock.now()));
    setTimeout(() => {
      if (!stopping && !active.has(sessionId)) wake(sessionId);
    }, left).unref();
  };

  /** Builds a recorded session's kernel config and providers again, then drives it. */
  const attach = async (sessionId: string): Promise<HostedRun> => {
    if (stopping) throw new SessionSetupError('this host is shutting down');
    // The lock first: a process that loses the race for the session does no more work for it.
    // A session this host attends hands its lock on, unless its lease was lost meanwhile.
    const kept = attended.take(sessionId);
    if (kept?.lost?.aborted === true) await kept.release();
    const lock =
      kept !== undefined && kept.lost?.aborted !== true
        ? kept
        : await options.locker?.acquire(sessionId);
    try {
      const config = await recordedKernelConfig(store, sessionId, nodeSha256);
      const { state } = await replay(store, sessionProjection, sessionId);
      if (state.workspace === null)
        throw new SessionSetupError(`session ${sessionId} has no workspace recorded`);
      const harness = await loadHarnessConfig({
        correxHome: options.correxHome,
        workspace: state.workspace,
      });
      const fromEnvironment =
        harness.models.length === 0 ? environmentModel(options.env) : undefined;
      const providers = await createProviders({
        configs:
          fromEnvironment === undefined
            ? harness.providers
            : { ...harness.providers, [fromEnvironment.providerName]: fromEnvironment.provider },
        names: providerNames(config),
        env: options.env,
      });
      return await drive(
        sessionId,
        config,
        state.workspace,
        providers,
        { ...harness.mcpServers, ...clientServers.get(sessionId) },
        undefined,
        lock,
      );
    } catch (error) {
      await lock?.release();
      throw error;
    }
  };

  /** Prepares and starts a new session (in its worktree, when it has one). */
  const begin = async (
    request: StartSessionRequest,
    sessionId: string,
    isolated: ReturnType<typeof isolate> | null,
  ): Promise<HostedRun> => {
    const setup = await prepareSession(isolated?.request ?? request, isolated?.options ?? options);
    request.checkMode?.(setup.mode);
    for (const listing of setup.mcpServers)
      if (!listing.ok)
        options.notice?.(
          `MCP server ${listing.server} offers no tools to this session: ${listing.error}`,
        );
    const worktree = isolated === null ? {} : { worktree: describeWorktree(isolated.worktree) };
    const startCommand = {
      type: 'start',
      task: request.task,
      workspace: setup.workspace,
      workflowId: setup.config.workflow.id,
      mode: setup.mode,
      ...(setup.modelProfile === undefined ? {} : { modelProfile: setup.modelProfile }),
      ...(isolated === null ? {} : { worktree: recordWorktree(isolated.worktree) }),
    } as const;
    if (options.recordOnly === true) {
      const outcome = await recordStart(
        { clock, ids },
        store,
        sessionId,
        setup.config,
        startCommand,
      );
      return { sessionId, done: Promise.resolve(outcome), ...worktree };
    }
    const providers = await createProviders({
      configs: setup.providers,
      names: providerNames(setup.config),
      env: options.env,
    });
    if (request.mcpServers !== undefined && Object.keys(request.mcpServers).length > 0)
      clientServers.set(sessionId, request.mcpServers);
    const run = await drive(
      sessionId,
      setup.config,
      setup.workspace,
      providers,
      setup.harness.mcpServers,
      startCommand,
    );
    // Callers subscribe as soon as this returns: the session must exist in the log by then.
    let ended = false;
    void run.done.finally(() => (ended = true)).catch(() => undefined);
    await firstEvent(store, sessionId, () => ended);
    return { ...run, ...worktree };
  };

  const host: SessionHost = {
    async start(request: StartSessionRequest) {
      if (stopping) throw new SessionSetupError('this host is shutting down');
      const sessionId = request.sessionId ?? ids.next();
      if (request.sessionId !== undefined && (await store.lastSequence(sessionId)) > 0)
        throw new SessionSetupError(`session ${sessionId} exists already`);
      const isolated = request.worktree === true ? isolate(request, sessionId, options) : null;
      try {
        return await begin(request, sessionId, isolated);
      } catch (error) {
        // A session that never got into the log leaves no worktree or branch behind.
        if (isolated !== null && (await store.lastSequence(sessionId)) === 0)
          try {
            removeSessionWorktree(isolated.worktree);
          } catch (cleanup) {
            options.notice?.(
              `the worktree ${isolated.worktree.path} of a session that failed to start could not be removed: ${(cleanup as Error).message}`,
            );
          }
        throw error;
      }
    },

    async command(sessionId, command) {
      // A session driven here records through its run, which also interrupts what it runs now.
      const run = active.get(sessionId)?.current.run;
      if (run !== undefined) return run.command(command);
      const events = await recordCommand({ clock, ids }, store, sessionId, command);
      if (!stopping && events.length > 0 && wakes(sessionId, command, events)) wake(sessionId);
      return events;
    },

    async continue(sessionId, request) {
      if (stopping) throw new SessionSetupError('this host is shutting down');
      let workflow: { workflowId: string; workflow?: { [key: string]: unknown } } | undefined;
      if (request.workflow !== undefined) {
        const { state } = await replay(store, sessionProjection, sessionId);
        if (state.workspace === null)
          throw new SessionSetupError(`session ${sessionId} has no workspace recorded`);
        const harness = await loadHarnessConfig({
          correxHome: options.correxHome,
          workspace: state.workspace,
        });
        const resolved = (await resolveWorkflow(request.workflow, harness)).workflow;
        // The configured workflow runs from the recorded configuration; another one is recorded
        // whole in the request, so replay never reads today's configuration.
        const configured = (await recordedKernelConfig(store, sessionId, nodeSha256)).workflow;
        workflow =
          resolved.id === configured.id
            ? { workflowId: resolved.id }
            : {
                workflowId: resolved.id,
                workflow: resolved.definition as unknown as { [key: string]: unknown },
              };
      }
      await host.command(sessionId, {
        type: 'continue',
        text: request.text,
        by: request.requestedBy,
        ...workflow,
        ...(request.mode === undefined ? {} : { mode: request.mode }),
      });
      if (options.recordOnly === true) {
        // A worker drives it: this host only recorded the request.
        const { state } = await replay(store, kernelProjection, sessionId);
        return {
          sessionId,
          done: Promise.resolve({
            status: state.session.status,
            waiting: { kind: 'stopped' },
            state,
          }),
        };
      }
      return host.resume(sessionId);
    },

    resume(sessionId) {
      if (options.recordOnly === true)
        return Promise.reject(
          new SessionSetupError('this host drives no sessions (--no-drive): a worker resumes them'),
        );
      const entry = active.get(sessionId);
      if (entry !== undefined) return Promise.resolve({ sessionId, done: entry.done });
      // Two callers may wake a session at once (an answer recorded here, and the terminal that
      // asked for it): both must get the one drive, or every effect would run twice.
      let waking = resuming.get(sessionId);
      if (waking === undefined) {
        waking = attach(sessionId).finally(() => resuming.delete(sessionId));
        resuming.set(sessionId, waking);
      }
      return waking;
    },

    async options() {
      const harness = await loadHarnessConfig({ correxHome: options.correxHome });
      const models =
        harness.models.length > 0
          ? harness.models.map((profile) => profile.id)
          : [environmentModel(options.env)?.profile.id].filter((id) => id !== undefined);
      return {
        workflows: [...harness.workflows.keys()],
        defaultWorkflow: harness.defaults.workflow,
        modelProfiles: models,
        defaultModelProfile: harness.defaults.model ?? null,
        defaultMode: harness.mode,
      };
    },

    forkConfiguration: (change) => forkConfiguration(options, change),

    running: () => [...active.keys()],

    watchLive(observer) {
      liveWatchers.add(observer);
      return () => liveWatchers.delete(observer);
    },

    attending: () => attended.held(),

    ...(options.drivers === undefined ? {} : { drivers: options.drivers }),
    ...(options.driverTakes === undefined ? {} : { driverTakes: options.driverTakes }),
    ...(options.lockHolder === undefined ? {} : { lockHolder: options.lockHolder }),

    async replayVerify(sessionId): Promise<ReplayVerification> {
      const report = await replayAnySession(store, sessionId, { sha256: nodeSha256 });
      const events = await store.lastSequence(sessionId);
      return report.ok
        ? { ok: true, events }
        : { ok: false, events, divergence: report.divergence };
    },

    async shutdown() {
      stopping = true;
      await attended.releaseAll();
      const drives = [...active.entries()];
      for (const [sessionId] of drives) {
        // A caller (the server) may have recorded its own pause already: one is enough.
        const { state } = await replay(store, sessionProjection, sessionId);
        if (state.status !== 'running') continue;
        // Only while it still runs: a session that ends meanwhile gets no pause (a rejected
        // pause after its last event would leave the log ending past its completion).
        await recordCommand(
          { clock, ids },
          store,
          sessionId,
          {
            type: 'pause',
            by: SHUTDOWN_ACTOR,
            reason: 'the correx process is shutting down; it resumes the session on its next start',
          },
          (current) => current.session.status === 'running',
        ).catch((error: unknown) => options.onError?.(sessionId, error));
      }
      const settled = Promise.allSettled(drives.map(([, entry]) => entry.done));
      const grace = new Promise((done) =>
        setTimeout(done, options.shutdownGraceMs ?? 10_000).unref(),
      );
      await Promise.race([settled, grace]);
      stop.abort(new Error('correx is shutting down'));
      await settled;
    },
  };
  return host;
}

/** Resolves once the session has its first event in the log, or its run has ended. */
async function firstEvent(
  store: CorrexEventStore,
  sessionId: string,
  ended: () => boolean,
): Promise<void> {
  while (!ended() && (await store.lastSequence(sessionId)) === 0)
    await new Promise((done) => setTimeout(done, 10));
}

/** The provider names the kernel config's model profiles route to. */
function providerNames(config: KernelConfig): string[] {
  return [...new Set(config.router.profiles.map((profile) => profile.provider))];
}
