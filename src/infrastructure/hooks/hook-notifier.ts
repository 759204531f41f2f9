import type { CorrexEvent } from '../../core/event-catalog.js';
import {
  hookAppliesTo,
  type HookDefinition,
  type HookSet,
} from '../../core/toolintent/hook-definition.js';
import {
  runHookProcess,
  type HookProcessOptions,
  type HookProcessRun,
} from './run-hook-process.js';

export type HookNotification = {
  readonly hook: string;
  readonly event: 'post_tool_use' | 'stage_end' | 'session_end';
  readonly run: HookProcessRun;
};

/** Runs the notification hooks; `settled` resolves when every hook started so far has ended. */
export type HookNotifier = {
  observe(event: CorrexEvent): void;
  settled(): Promise<HookNotification[]>;
};

const SESSION_ENDINGS = new Set(['workflow_completed', 'workflow_failed', 'workflow_cancelled']);

/**
 * The `post_tool_use`, `stage_end` and `session_end` hooks: told (JSON on stdin) about a
 * receipt, a stage's end or the session's end as it is recorded. They run sandboxed with their
 * timeout, one after another in event order, after the fact, so their answers cannot change
 * the session; how each ended is kept for whoever drives the session.
 */
export function createHookNotifier(hooks: HookSet, options: HookProcessOptions): HookNotifier {
  const running: Promise<HookNotification>[] = [];
  // One at a time, in the order the events were recorded: a log a hook keeps stays in order.
  let previous: Promise<unknown> = Promise.resolve();
  const start = (
    event: HookNotification['event'],
    list: readonly HookDefinition[],
    input: Record<string, unknown>,
  ) => {
    for (const hook of list) {
      const next = previous.then(() =>
        runHookProcess(hook, { event, ...input }, options).then((run) => ({
          hook: hook.name,
          event,
          run,
        })),
      );
      previous = next;
      running.push(next);
    }
  };
  return {
    observe(event) {
      const payload = event.payload;
      const base = { sessionId: event.sessionId, sequence: event.sequence };
      if (payload.type === 'tool_receipt') {
        const list = hooks.post_tool_use.filter((hook) => hookAppliesTo(hook, payload.tool));
        start('post_tool_use', list, { ...base, receipt: payload });
      } else if (payload.type === 'stage_completed' || payload.type === 'stage_failed') {
        start('stage_end', hooks.stage_end, { ...base, stage: payload });
      } else if (SESSION_ENDINGS.has(payload.type)) {
        start('session_end', hooks.session_end, { ...base, ending: payload });
      }
    },
    settled: () => Promise.all(running),
  };
}
