import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { startFakeHttpServer, type FakeHttpServer } from '../providers/fake-http-server.js';
import { tempDir } from '../support/temp-dir.js';
import { WRITE_ONCE_WORKFLOW } from '../support/write-once-workflow.js';

/** What a CLI process test of sessions of one workflow works in. */
export type CliWorld = {
  readonly root: string;
  /** The CORREX_HOME of the processes. */
  readonly home: string;
  readonly workflowFile: string;
  /** The loopback OpenAI-compatible server the processes' model is (set before the tests). */
  readonly model: FakeHttpServer;
  /** OPENAI_BASE_URL and CORREX_MODEL pointing at `model`. */
  readonly env: NodeJS.ProcessEnv;
  /** A new empty workspace folder under the root. */
  workspace(name: string): string;
};

/**
 * Sets up, inside a `describe`, a temporary root with a correx home, a workflow file (the
 * write-once workflow unless given) and a loopback model server, closed after the tests.
 */
export function cliWorld(prefix: string, workflow: string = WRITE_ONCE_WORKFLOW): CliWorld {
  const root = realpathSync(tempDir(prefix));
  let model: FakeHttpServer | undefined;
  const world: CliWorld = {
    root,
    home: join(root, 'home'),
    workflowFile: join(root, 'write-once.yaml'),
    get model() {
      if (model === undefined) throw new Error('the model server starts before the tests');
      return model;
    },
    get env() {
      return { OPENAI_BASE_URL: `${world.model.url}/v1`, CORREX_MODEL: 'served-model' };
    },
    workspace(name) {
      const dir = join(root, name);
      mkdirSync(dir, { recursive: true });
      return dir;
    },
  };
  beforeAll(async () => {
    mkdirSync(world.home, { recursive: true });
    writeFileSync(world.workflowFile, workflow);
    model = await startFakeHttpServer();
  });
  afterAll(async () => {
    await model?.close();
  });
  return world;
}
