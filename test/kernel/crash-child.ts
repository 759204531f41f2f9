/**
 * A session runner in its own OS process, for the kill -9 test. Args: <store> <workspace>
 * <session> [command JSON]. Env CRASH_AT_EVENT=n: right after the n-th event this process
 * appends is durable, the process SIGKILLs itself. Env CRASH_AFTER_TOOL=k: the k-th tool call it
 * runs takes effect, then it SIGKILLs itself before the receipt is recorded. Env CRASH_IN_PROBE=k:
 * it SIGKILLs itself as it makes its k-th observation of the workspace; CRASH_AT_PROBE_OF=name as
 * it first observes a path of that base name. CRASH_CLOCK=stepping: its clock advances 1 ms a
 * reading (so how long a busy machine takes never decides what the runner holds back). Without any, it
 * runs until the session finishes or waits and reports the outcome to the parent over IPC.
 * Env CRASH_SCRIPT=effect plays `EFFECT_SCRIPT` instead of `CRASH_SCRIPT`, =pair `PAIR_SCRIPT`,
 * =writes `WRITES_SCRIPT`, =overwrite `OVERWRITE_SCRIPT`, =link `LINK_WRITES_SCRIPT`. The fault points of
 * src/infrastructure/system/fault-point.ts pause it where CORREX_TEST_PAUSE_AT says.
 */
import { basename } from 'node:path';
import { createSteppingClock } from '../../src/core/base/clock.js';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { createDiskProjectCheckDetector } from '../../src/infrastructure/checks/disk-project-check-detector.js';
import { createCountingIdSource } from '../../src/core/base/id-source.js';
import type { KernelCommand, ToolRunner } from '../../src/core/kernel/index.js';
import { runSession } from '../../src/core/kernel/index.js';
import { createBuiltinToolRunner } from '../../src/infrastructure/kernel/builtin-tool-runner.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { createDiskWorldProbe } from '../../src/infrastructure/world-probe/disk-world-probe.js';
import {
  CRASH_SCRIPT,
  EFFECT_SCRIPT,
  LINK_WRITES_SCRIPT,
  OVERWRITE_SCRIPT,
  PAIR_SCRIPT,
  WRITES_SCRIPT,
} from './crash-script.js';
import { implementOnlyWorkflow, scenarioConfig, scriptedModel } from './scenario-config.js';

const [storePath, workspace, sessionId, commandJson] = process.argv.slice(2) as [
  string,
  string,
  string,
  string?,
];
const crashAtEvent = Number(process.env.CRASH_AT_EVENT ?? 0);
const crashAfterTool = Number(process.env.CRASH_AFTER_TOOL ?? 0);
const crashInProbe = Number(process.env.CRASH_IN_PROBE ?? 0);
const crashAtProbeOf = process.env.CRASH_AT_PROBE_OF;

function crash(): never {
  process.kill(process.pid, 'SIGKILL');
  throw new Error('unreachable: SIGKILL did not end the process');
}

const store = openSqliteEventStore(storePath, { catalog: correxEventCatalog });
// The model picks up where the log says it is: recorded answers are not asked again.
const answered = (await store.read(sessionId)).filter(
  (event) => event.payload.type === 'inference_completed',
).length;
// Env CRASH_SCRIPT picks another script (see the header).
const scripts = {
  effect: EFFECT_SCRIPT,
  pair: PAIR_SCRIPT,
  writes: WRITES_SCRIPT,
  overwrite: OVERWRITE_SCRIPT,
  link: LINK_WRITES_SCRIPT,
} as const;
const script = scripts[process.env.CRASH_SCRIPT as keyof typeof scripts] ?? CRASH_SCRIPT;
const model = scriptedModel(script.slice(answered));
const builtin = createBuiltinToolRunner();
let toolRuns = 0;
const tools: ToolRunner = {
  async run(request, signal) {
    const execution = await builtin.run(request, signal);
    toolRuns += 1;
    if (toolRuns === crashAfterTool) crash();
    return execution;
  },
};
const disk = createDiskWorldProbe();
let observed = 0;
const probe = {
  observe(path: string) {
    observed += 1;
    if (observed === crashInProbe || basename(path) === crashAtProbeOf) crash();
    return disk.observe(path);
  },
};
let appended = 0;
const command: KernelCommand | undefined = commandJson
  ? (JSON.parse(commandJson) as KernelCommand)
  : (await store.lastSequence(sessionId)) === 0
    ? {
        type: 'start',
        task: 'write a, log once, write b',
        workspace,
        workflowId: 'implement-only',
        mode: 'auto',
      }
    : undefined;
const outcome = await runSession(
  {
    store,
    sessionId,
    config: scenarioConfig({ workflow: implementOnlyWorkflow() }),
    ports: {
      providers: new Map([[model.name, model]]),
      tools,
      probe,
      checks: createDiskProjectCheckDetector(),
    },
    clock:
      process.env.CRASH_CLOCK === 'stepping'
        ? createSteppingClock(new Date().toISOString(), 1)
        : { now: () => new Date().toISOString() },
    ids: createCountingIdSource(`p${process.pid}`),
    onEvent: () => {
      appended += 1;
      if (appended === crashAtEvent) crash();
    },
  },
  command,
);
process.send?.({ type: 'outcome', status: outcome.status, waiting: outcome.waiting });
await store.close();
process.exit(0);
