import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { createDiskProjectCheckDetector } from '../../src/infrastructure/checks/disk-project-check-detector.js';
import { join } from 'node:path';
import { afterEach, expect } from 'vitest';
import { createSteppingClock } from '../../src/core/base/clock.js';
import { createCountingIdSource, type IdSource } from '../../src/core/base/id-source.js';
import {
  correxEventCatalog,
  type CorrexEvent,
  type CorrexEventStore,
} from '../../src/core/event-catalog.js';
import type { InferenceProvider } from '../../src/core/inference/inference-provider.js';
import type { KernelConfig, KernelPorts, ToolRunner } from '../../src/core/kernel/index.js';
import { replaySession } from '../../src/core/kernel/index.js';
import type { WorldProbe } from '../../src/core/toolintent/world-probe.js';
import { createBuiltinToolRunner } from '../../src/infrastructure/kernel/builtin-tool-runner.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { createDiskWorldProbe } from '../../src/infrastructure/world-probe/disk-world-probe.js';
import { tempDir } from '../support/temp-dir.js';
import { recordSessionsForCorpus } from '../golden/sessions/corpus-recorder.js';

/** A real temporary workspace with the given files, and a SQLite store beside it. */
export function scenarioWorkspace(files: Record<string, string>): {
  workspace: string;
  storePath: string;
} {
  const root = realpathSync(tempDir('correx-kernel-'));
  const workspace = join(root, 'workspace');
  mkdirSync(workspace);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(workspace, path, '..'), { recursive: true });
    writeFileSync(join(workspace, path), content);
  }
  return { workspace, storePath: join(root, 'events.sqlite') };
}

/** Stores pushed here are closed after each test of the file that calls this. */
export function closeStoresAfterEach(): { push(store: CorrexEventStore): void } {
  const stores: CorrexEventStore[] = [];
  afterEach(async () => {
    for (const store of stores.splice(0)) await store.close();
  });
  return { push: (store) => void stores.push(store) };
}

export function openStore(path: string): CorrexEventStore {
  const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
  const close = store.close.bind(store);
  // With CORREX_GOLDEN_RECORD set, what the scenario recorded is kept for the session corpus.
  store.close = async () => {
    await recordSessionsForCorpus(store, expect.getState().currentTestName ?? 'scenario');
    await close();
  };
  return store;
}

export {
  PROFILE,
  implementOnlyWorkflow,
  scenarioConfig,
  scriptedModel,
} from './scenario-config.js';

export type Scenario = {
  readonly config: KernelConfig;
  readonly ports: KernelPorts;
  readonly clock: ReturnType<typeof createSteppingClock>;
  readonly ids: IdSource;
};

export function livePorts(
  provider: InferenceProvider,
  tools?: ToolRunner,
  probe?: WorldProbe,
): KernelPorts {
  return {
    providers: new Map([[provider.name, provider]]),
    tools: tools ?? createBuiltinToolRunner(),
    probe: probe ?? createDiskWorldProbe(),
    checks: createDiskProjectCheckDetector(),
  };
}

/** Replays a recorded session with no ports and expects byte-identical decisions. */
export async function expectReplayIdentical(
  store: CorrexEventStore,
  sessionId: string,
  config: KernelConfig,
) {
  const report = await replaySession(store, sessionId, config);
  if (!report.ok) expect.fail(`replay diverged: ${JSON.stringify(report.divergence, null, 2)}`);
  expect(report.decided).toBeGreaterThan(0);
  expect(report.undecidedInput).toBe(false);
  return report;
}

export async function eventsOf(store: CorrexEventStore, sessionId: string): Promise<CorrexEvent[]> {
  return store.read(sessionId);
}

export function typesOf(events: readonly CorrexEvent[]): string[] {
  return events.map((event) => event.payload.type);
}

export function newIds(prefix = 'in'): IdSource {
  return createCountingIdSource(prefix);
}

export function newClock() {
  return createSteppingClock('2026-11-30T12:00:00.000Z', 7);
}
