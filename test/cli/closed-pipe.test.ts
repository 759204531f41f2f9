import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { correxEventCatalog } from '../../src/core/event-catalog.js';
import { openSqliteEventStore } from '../../src/infrastructure/sqlite/sqlite-event-store.js';
import { noteBatch } from '../support/sample-events.js';
import { tempDir } from '../support/temp-dir.js';
import { CORREX_CLI, cliEnvironment } from './cli-process.js';

/** Runs the CLI, reads its first line, then closes the pipe as `| head -1` does. */
function readFirstLineAndClose(home: string, args: readonly string[]) {
  return new Promise<{ first: string; code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [...CORREX_CLI, ...args], {
      env: cliEnvironment(home),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let first = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.stdout.on('data', (chunk: Buffer) => {
      if (first !== '') return;
      first = chunk.toString().split('\n')[0]!;
      child.stdout.destroy();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ first, code, stderr }));
  });
}

describe('a reader that closes the pipe early (correx ... | head -1)', () => {
  const home = tempDir('correx-pipe-');
  it.each([
    ['events --json', ['events', 'long', '--json']],
    ['events', ['events', 'long']],
  ])(
    '%s ends quietly: exit 0, no EPIPE stack trace',
    async (_name, args) => {
      const store = openSqliteEventStore(join(home, 'correx.db'), { catalog: correxEventCatalog });
      if ((await store.lastSequence('long')) === 0) {
        // Far more than a pipe buffer holds, so correx is still writing when the pipe closes.
        for (let from = 1; from <= 6000; from += 500)
          await store.appendAll(noteBatch('long', from, 500), { expectedSequence: from - 1 });
      }
      await store.close();
      const result = await readFirstLineAndClose(home, args);
      expect(result.first).toMatch(/\S/);
      expect(result.stderr).toBe('');
      expect(result.code).toBe(0);
    },
    60_000,
  );
});
