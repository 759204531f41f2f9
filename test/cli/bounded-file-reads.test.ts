import { execFileSync } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { MAX_CONFIG_FILE_BYTES } from '../../src/infrastructure/system/bounded-file-read.js';
import { tempDir } from '../support/temp-dir.js';
import { correx } from './cli-process.js';

/**
 * Every file a person or a repository names to the CLI (a candidate policy, a workflow,
 * harness.yaml) is read by one bounded reader: a FIFO is refused instead of blocking forever,
 * a file past the bound is refused by its size instead of being read for half a minute.
 */
describe('files named to the CLI', () => {
  const root = realpathSync(tempDir('correx-bounded-read-'));
  const home = join(root, 'home');
  const fifo = join(root, 'policy.fifo');
  const huge = join(root, 'huge.yaml');

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    await openSqliteEventStore(join(home, 'correx.db'), { catalog: correxEventCatalog }).close();
    execFileSync('mkfifo', [fifo]);
    // A valid YAML comment line repeated past the bound.
    writeFileSync(huge, `# ${'x'.repeat(98)}\n`.repeat(Math.ceil(MAX_CONFIG_FILE_BYTES / 100) + 1));
  });

  it('policy what-if refuses a FIFO and an oversized policy file at once, with exit 2 and the reason', async () => {
    const fromFifo = await correx(home, ['policy', 'what-if', '--policy', fifo, '--all']);
    expect(fromFifo.code, fromFifo.stderr).toBe(2);
    expect(fromFifo.stderr).toContain(
      `the policy file ${fifo} is a FIFO (named pipe), not a regular file; correx refuses it`,
    );
    const fromHuge = await correx(home, ['policy', 'what-if', '--policy', huge, '--all']);
    expect(fromHuge.code, fromHuge.stderr).toBe(2);
    expect(fromHuge.stderr).toMatch(
      new RegExp(
        `the policy file ${huge} is \\d+ bytes; correx reads at most ${MAX_CONFIG_FILE_BYTES} bytes of it`,
      ),
    );
  });

  it('run refuses a FIFO as --workflow and as the repository harness.yaml, before anything is recorded', async () => {
    const workspace = join(root, 'ws');
    mkdirSync(workspace, { recursive: true });
    const asWorkflow = await correx(home, [
      'run',
      'task',
      '--workspace',
      workspace,
      '--workflow',
      fifo,
      '--mode',
      'auto',
    ]);
    expect(asWorkflow.code, asWorkflow.stderr).toBe(2);
    expect(asWorkflow.stderr).toContain('is a FIFO (named pipe), not a regular file');
    execFileSync('mkfifo', [join(workspace, 'harness.yaml')]);
    const asHarness = await correx(home, [
      'run',
      'task',
      '--workspace',
      workspace,
      '--mode',
      'auto',
    ]);
    expect(asHarness.code, asHarness.stderr).toBe(2);
    expect(asHarness.stderr).toContain(
      `harness.yaml ${join(workspace, 'harness.yaml')} is a FIFO (named pipe), not a regular file`,
    );
    const sessions = await correx(home, ['sessions', '--json']);
    expect(JSON.parse(sessions.stdout)).toEqual([]);
  });
});
