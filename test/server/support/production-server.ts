import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pino } from 'pino';
import { createSteppingClock } from '../../../src/core/base/clock.js';
import { createCountingIdSource } from '../../../src/core/base/id-source.js';
import { correxEventCatalog, type CorrexEventStore } from '../../../src/core/event-catalog.js';
import { detectSandbox } from '../../../src/infrastructure/sandbox/sandbox-availability.js';
import { openSqliteEventStore } from '../../../src/infrastructure/sqlite/sqlite-event-store.js';
import {
  createCorrexServer,
  type ServerAddress,
} from '../../../src/interfaces/server/correx-server.js';
import { createLivePorts } from '../../../src/main/live-ports.js';
import { createSessionHost } from '../../../src/main/session-host.js';
import { TOKEN } from './server-fixture.js';

/** One implement stage that may run commands; success completes, failure fails. */
const RUN_ONCE_WORKFLOW = [
  'id: run-once',
  'initialStage: implement',
  'stages:',
  '  - id: implement',
  '    role: implementer',
  '    instructions: Run the command the task names.',
  '    allowedTools: [exec]',
  '    capabilities: [tool_calling]',
  '    artifact: { kind: change, schema: { type: object } }',
  '    transitions:',
  '      - { when: { on: success }, end: completed }',
  '      - { when: { on: failure }, end: failed }',
  '',
].join('\n');

export type ProductionServer = {
  readonly address: ServerAddress;
  readonly store: CorrexEventStore;
  readonly workspace: string;
  /** The server's correx home (`<root>/home`); its store is `<home>/<name>.db`. */
  readonly home: string;
  /** The `run-once` workflow's file (one stage with `exec`). */
  readonly workflow: string;
  close(): Promise<void>;
};

/**
 * A real server over the production session host: the model from `OPENAI_BASE_URL` (a fake
 * OpenAI-compatible server), the built-in tools with exec under this machine's sandbox, a SQLite
 * store `<name>.db`. Deterministic clock and ids, so two runs of one script record the same log.
 * `root` must lie outside /tmp (the sandbox's private folders).
 */
export async function startProductionServer(options: {
  readonly root: string;
  readonly modelUrl: string;
  readonly name: string;
  readonly webRoot?: string;
  /** Keep exec pre-images under `<home>/preimages` (forks and undo need them). */
  readonly keepPreimages?: boolean;
  /** Serve the eval reports saved under `<home>/evals` (as `correx serve` does). */
  readonly evalReports?: boolean;
}): Promise<ProductionServer> {
  const root = realpathSync(options.root);
  const workspace = join(root, 'workspace');
  const correxHome = join(root, 'home');
  mkdirSync(workspace, { recursive: true });
  mkdirSync(correxHome, { recursive: true });
  const workflow = join(root, 'run-once.yaml');
  writeFileSync(workflow, RUN_ONCE_WORKFLOW);
  const store = openSqliteEventStore(join(correxHome, `${options.name}.db`), {
    catalog: correxEventCatalog,
  });
  const availability = await detectSandbox();
  const preimageDirectory =
    options.keepPreimages === true ? { preimageDirectory: join(correxHome, 'preimages') } : {};
  const host = createSessionHost({
    store,
    correxHome,
    homeDirectory: root,
    env: { OPENAI_BASE_URL: `${options.modelUrl}/v1`, CORREX_MODEL: 'served-model' },
    sandbox: availability.kind,
    clock: createSteppingClock('2026-12-03T12:00:00.000Z', 1),
    ids: createCountingIdSource('live'),
    // These tests end with a model answer still streaming (a stalled reply): nothing here tests
    // the grace a shutdown gives a running call, so it is short instead of the default 10 s.
    shutdownGraceMs: 500,
    ports: createLivePorts({
      homeDirectory: root,
      hiddenPaths: [correxHome],
      availability,
      searchPath: '/usr/local/bin:/usr/bin:/bin',
      ...preimageDirectory,
    }),
  });
  const server = createCorrexServer({
    store,
    host,
    token: TOKEN,
    allowedRoots: [root],
    logger: pino({ level: 'silent' }),
    ...preimageDirectory,
    ...(options.evalReports === true ? { evalReportDirectory: join(correxHome, 'evals') } : {}),
    ...(options.webRoot === undefined ? {} : { webRoot: options.webRoot }),
  });
  const address = await server.listen();
  return {
    address,
    store,
    workspace,
    home: correxHome,
    workflow,
    async close() {
      await server.close();
      await host.shutdown();
      await store.close();
    },
  };
}

/** Reads the store until the session has an event of `type`; returns its events then. */
export async function waitForEvent(store: CorrexEventStore, sessionId: string, type: string) {
  for (;;) {
    const events = await store.read(sessionId);
    if (events.some((event) => event.payload.type === type)) return events;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
