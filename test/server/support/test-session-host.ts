import type { CorrexEvent, CorrexEventStore } from '../../../src/core/event-catalog.js';
import type { InferenceProvider } from '../../../src/core/inference/inference-provider.js';
import type { KernelConfig, KernelCommand } from '../../../src/core/kernel/index.js';
import {
  replaySession,
  startSession,
  type SessionRun,
  recordCommand,
} from '../../../src/core/kernel/index.js';
import { isFinalStatus } from '../../../src/core/sessions/session-status.js';
import type {
  HostedRun,
  SessionHost,
  StartSessionRequest,
} from '../../../src/interfaces/session-host.js';
import {
  implementOnlyWorkflow,
  livePorts,
  newClock,
  newIds,
  scenarioConfig,
} from '../../kernel/kernel-harness.js';

/** The events a command becomes, by command type, when the session is driven here. */
const RESULT_TYPES: Readonly<Record<string, readonly string[]>> = {
  pause: ['orchestration_paused', 'lifecycle_rejected'],
  cancel: ['workflow_cancelled', 'lifecycle_rejected'],
  steer: ['steering_note_added'],
};

export type TestSessionHost = SessionHost & {
  readonly config: KernelConfig;
  /** The model a session was started (or resumed) with. */
  model(sessionId: string): InferenceProvider | undefined;
};

/**
 * A SessionHost for server tests, on core's `startSession` with a model from `modelFor` (a
 * scripted one) and the kernel test configuration. A stand-in for the production host in
 * src/main, with the same contract: commands reach a session driven here at once; one that
 * waits is woken and driven here.
 */
export function createTestSessionHost(options: {
  readonly store: CorrexEventStore;
  readonly modelFor: (request: StartSessionRequest | { resumed: string }) => InferenceProvider;
  readonly config?: KernelConfig;
  readonly idPrefix?: string;
}): TestSessionHost {
  const { store } = options;
  const config = options.config ?? scenarioConfig({ workflow: implementOnlyWorkflow() });
  const clock = newClock();
  const ids = newIds(options.idPrefix ?? 'host');
  const runs = new Map<string, { run: SessionRun; pauseAsked: boolean }>();
  const models = new Map<string, InferenceProvider>();
  const attending = new Set<string>();
  const listeners = new Set<(event: CorrexEvent) => void>();
  let sessions = 0;

  const drive = (sessionId: string, command?: KernelCommand): SessionRun => {
    let model = models.get(sessionId);
    if (model === undefined) {
      model = options.modelFor({ resumed: sessionId });
      models.set(sessionId, model);
    }
    const run = startSession(
      {
        store,
        sessionId,
        config,
        ports: livePorts(model),
        clock,
        ids,
        onEvent: (event) => {
          for (const listener of listeners) listener(event);
        },
      },
      command,
    );
    const entry = { run, pauseAsked: false };
    runs.set(sessionId, entry);
    attending.delete(sessionId);
    void run.done
      .then((outcome) => {
        // As `correx serve` does: a session left waiting for a person is attended here (a
        // decision recorded for it drives it on at once).
        if (outcome.waiting?.kind === 'approval') attending.add(sessionId);
      })
      .finally(() => {
        if (runs.get(sessionId) === entry) runs.delete(sessionId);
      })
      .catch(() => undefined);
    return run;
  };

  /** Resolves at the first event of the session that passes `test`, or when the run ends. */
  const nextEvent = (
    sessionId: string,
    test: (event: CorrexEvent) => boolean,
    done: Promise<unknown>,
  ) =>
    new Promise<void>((resolve) => {
      const listener = (event: CorrexEvent) => {
        if (event.sessionId === sessionId && test(event)) {
          listeners.delete(listener);
          resolve();
        }
      };
      listeners.add(listener);
      void done
        .finally(() => {
          listeners.delete(listener);
          resolve();
        })
        .catch(() => undefined);
    });

  return {
    config,
    model: (sessionId) => models.get(sessionId),
    async start(request: StartSessionRequest): Promise<HostedRun> {
      sessions += 1;
      const sessionId = `session-${options.idPrefix ?? 'host'}-${sessions}`;
      models.set(sessionId, options.modelFor(request));
      const first = new Promise<void>((resolve) => {
        listeners.add(function once(event) {
          if (event.sessionId !== sessionId) return;
          listeners.delete(once);
          resolve();
        });
      });
      const run = drive(sessionId, {
        type: 'start',
        task: request.task,
        workspace: request.workspace,
        workflowId: request.workflow ?? 'implement-only',
        mode: request.mode ?? 'auto',
        ...(request.modelProfile === undefined ? {} : { modelProfile: request.modelProfile }),
      });
      await Promise.race([first, run.done]);
      return { sessionId, done: run.done };
    },
    async command(sessionId, command) {
      const entry = runs.get(sessionId);
      const types = RESULT_TYPES[command.type];
      if (entry !== undefined && types !== undefined) {
        const before = await store.lastSequence(sessionId);
        const recorded = nextEvent(
          sessionId,
          (event) => types.includes(event.payload.type),
          entry.run.done,
        );
        if (command.type === 'steer') void entry.run.steer(command.content, command.stageId);
        else if (command.type === 'pause') {
          entry.pauseAsked = true;
          void entry.run.pause(command.by, command.reason);
        } else if (command.type === 'cancel') void entry.run.cancel(command.by, command.reason);
        await recorded;
        const after = await store.read(sessionId, { afterSequence: before });
        return after.filter((event) => types.includes(event.payload.type));
      }
      if (entry !== undefined) await entry.run.done;
      const events = await recordCommand({ clock, ids }, store, sessionId, command);
      // As `correx serve`: a paused or cancelled session is no longer held for a decision.
      if (command.type === 'pause' || command.type === 'cancel') attending.delete(sessionId);
      const wakes =
        command.type === 'approve' ||
        command.type === 'deny' ||
        command.type === 'resume' ||
        command.type === 'retry';
      if (wakes && !runs.has(sessionId)) {
        const last = (
          await store.read(sessionId, { afterSequence: (await store.lastSequence(sessionId)) - 1 })
        )[0];
        if (
          last === undefined ||
          !['workflow_completed', 'workflow_failed', 'workflow_cancelled'].includes(
            last.payload.type,
          )
        ) {
          drive(sessionId);
        }
      }
      return events;
    },
    async resume(sessionId) {
      const run = drive(sessionId);
      return { sessionId, done: run.done };
    },
    async continue(sessionId, request) {
      const entry = runs.get(sessionId);
      if (entry !== undefined) await entry.run.done;
      await recordCommand({ clock, ids }, store, sessionId, {
        type: 'continue',
        text: request.text,
        by: request.requestedBy,
        ...(request.workflow === undefined ? {} : { workflowId: request.workflow }),
        ...(request.mode === undefined ? {} : { mode: request.mode }),
      });
      const run = drive(sessionId);
      return { sessionId, done: run.done };
    },
    options: async () => ({
      workflows: ['implement-only'],
      defaultWorkflow: 'implement-only',
      modelProfiles: ['scripted'],
      defaultModelProfile: null,
      defaultMode: 'auto',
    }),
    running: () => [...runs.keys()],
    attending: () => [...attending],
    async replayVerify(sessionId) {
      const report = await replaySession(store, sessionId, config);
      if (report.ok) return { ok: true, events: report.events };
      return {
        ok: false,
        events: report.state.session.lastSequence,
        divergence: report.divergence,
      };
    },
    async shutdown() {
      const stopping = [...runs.values()];
      for (const entry of stopping) {
        if (!entry.pauseAsked) void entry.run.pause('test-host', 'shutdown');
      }
      await Promise.allSettled(stopping.map((entry) => entry.run.done));
    },
  };
}

export { isFinalStatus };
