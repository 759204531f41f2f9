import { createCountingIdSource } from '../../src/core/base/id-source.js';
import type { CorrexEventStore } from '../../src/core/event-catalog.js';
import { runSession } from '../../src/core/kernel/index.js';
import type { ScriptedTurn } from '../../src/infrastructure/providers/scripted-provider.js';
import { implementOnlyWorkflow, scenarioConfig, scriptedModel } from './scenario-config.js';
import { livePorts } from './kernel-harness.js';

/** Resumes a session that a killed child recorded, with the model's answers it had not recorded. */
export function resumeOnce(
  store: CorrexEventStore,
  sessionId: string,
  answers: readonly ScriptedTurn[],
  ids = 'resume',
  /** How many answers the killed child had already recorded. */
  answered = 1,
) {
  const config = scenarioConfig({ workflow: implementOnlyWorkflow() });
  return {
    config,
    done: runSession({
      store,
      sessionId,
      config,
      ports: livePorts(scriptedModel(answers.slice(answered))),
      clock: { now: () => new Date().toISOString() },
      ids: createCountingIdSource(ids),
    }),
  };
}
