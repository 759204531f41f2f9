import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FAULT_POINTS } from '../../src/infrastructure/system/fault-point.js';
import { OVERWRITE_SCRIPT, OVERWRITTEN } from './crash-script.js';
import { killWhenPaused } from './crash-process.js';
import { eventsOf, expectReplayIdentical, openStore, scenarioWorkspace } from './kernel-harness.js';
import { resumeOnce } from './resume-once.js';

/** A last-resort bound for a test of real processes on a busy machine: they wait for states, never for time. */
const OUTER_BOUND_MS = 300_000;

/**
 * Reads `file` in a loop in its own process until `<file>.stop` exists, then writes what it saw
 * (each distinct content, and how often) to `<file>.seen`: a reader of the workspace that a
 * write must never show a torn or vanished file.
 */
function startReader(file: string) {
  const source = `
    const fs = require('node:fs');
    const [file] = process.argv.slice(1);
    const seen = {};
    for (;;) {
      const stop = fs.existsSync(file + '.stop');
      let text;
      try { text = fs.readFileSync(file, 'utf8'); } catch (error) { text = '<' + error.code + '>'; }
      seen[text] = (seen[text] ?? 0) + 1;
      if (stop) break;
    }
    fs.writeFileSync(file + '.seen', JSON.stringify(seen));
  `;
  const reader = spawn(process.execPath, ['-e', source, file], { stdio: 'inherit' });
  const done = new Promise<Record<string, number>>((resolve, reject) => {
    reader.on('error', reject);
    reader.on('exit', () => resolve(JSON.parse(readFileSync(`${file}.seen`, 'utf8'))));
  });
  return {
    async stop() {
      writeFileSync(`${file}.stop`, '');
      return done;
    },
  };
}

describe('a file write killed -9 midway (issue #33.3)', () => {
  it(
    'never leaves the target empty or torn for any reader, and resume completes the write',
    async () => {
      const { workspace, storePath } = scenarioWorkspace({ 'notes.txt': OVERWRITTEN });
      const target = join(workspace, 'notes.txt');
      const reader = startReader(target);
      try {
        let whilePaused = '';
        const first = await killWhenPaused(
          [storePath, workspace, 's-torn'],
          { CRASH_SCRIPT: 'overwrite' },
          FAULT_POINTS.writeContentPending,
          dirname(storePath),
          () => {
            whilePaused = readFileSync(target, 'utf8');
          },
        );
        expect(first.signal).toBe('SIGKILL');
        // Paused with the new bytes written and not yet in place, then killed there.
        expect(whilePaused).toBe(OVERWRITTEN);
        expect(readFileSync(target, 'utf8')).toBe(OVERWRITTEN);
        const store = openStore(storePath);
        try {
          const { config, done } = resumeOnce(store, 's-torn', OVERWRITE_SCRIPT, 'resume', 2);
          expect((await done).status).toBe('completed');
          const seen = await reader.stop();
          expect(readFileSync(target, 'utf8')).toBe('the new notes\n');
          // Every read saw the old notes or the new ones: never an empty, partial or missing file.
          expect(
            Object.keys(seen).filter((text) => text !== OVERWRITTEN && text !== 'the new notes\n'),
          ).toEqual([]);
          expect(seen[OVERWRITTEN]).toBeGreaterThan(0);
          // The killed write's temporary file went with the write that completed it.
          expect(readdirSync(workspace).filter((name) => name.includes('correx-write'))).toEqual(
            [],
          );
          const events = await eventsOf(store, 's-torn');
          // The intent was recorded and the target still held its old bytes: run again, not asked.
          expect(
            events.find((event) => event.payload.type === 'tool_call_classified')?.payload,
          ).toMatchObject({ classification: 'not_applied', action: 'execute' });
          await expectReplayIdentical(store, 's-torn', config);
        } finally {
          await store.close();
        }
      } finally {
        if (!existsSync(`${target}.seen`)) await reader.stop();
      }
    },
    OUTER_BOUND_MS,
  );
});
