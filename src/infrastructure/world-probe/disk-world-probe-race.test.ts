import { spawn } from 'node:child_process';
import { existsSync, lstatSync, mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WorldObservationSchema } from '../../core/toolintent/toolintent-events.js';
import { tempDir } from '../../../test/support/temp-dir.js';
import { createDiskWorldProbe } from './disk-world-probe.js';

const base = realpathSync(tempDir('correx-probe-race-'));
mkdirSync(join(base, 'real'));
writeFileSync(join(base, 'real/f.ts'), 'x');
mkdirSync(join(base, 'elsewhere'));

const isSymlink = (path: string) => {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
};

describe('the disk probe under a racing swap', () => {
  it('never throws: every probe of a path being swapped is an observation', async () => {
    // Another process keeps swapping `d` between a folder, a symlink and nothing.
    const script = `
      const fs = require('node:fs');
      const [d, elsewhere] = process.argv.slice(1);
      for (;;) {
        try { fs.symlinkSync(elsewhere, d); } catch {}
        try { fs.unlinkSync(d); } catch {}
        try { fs.mkdirSync(d); fs.writeFileSync(d + '/f.ts', 'y'); } catch {}
        try { fs.rmSync(d, { recursive: true, force: true }); } catch {}
      }`;
    const flipper = spawn(
      process.execPath,
      ['-e', script, join(base, 'd'), join(base, 'elsewhere')],
      {
        stdio: 'ignore',
      },
    );
    const probe = createDiskWorldProbe();
    const kinds = new Set<string>();
    try {
      // A loaded machine can take seconds to start the swapper: probe once it has begun.
      while (!existsSync(join(base, 'd')) && !isSymlink(join(base, 'd')))
        await new Promise((resolve) => setTimeout(resolve, 10));
      for (let attempt = 0; attempt < 400; attempt += 1) {
        for (const path of [join(base, 'd'), join(base, 'd/f.ts')]) {
          const observation = await probe.observe(path);
          expect(() => WorldObservationSchema.parse(observation)).not.toThrow();
          kinds.add(observation.changedDuringObservation === true ? 'changing' : observation.kind);
        }
      }
    } finally {
      flipper.kill('SIGKILL');
    }
    expect(kinds.size).toBeGreaterThan(1);
  }, 60_000);

  it('a path that stays stable is observed as before, without the changing mark', async () => {
    const observation = await createDiskWorldProbe().observe(join(base, 'real/f.ts'));
    expect(observation).toMatchObject({ kind: 'file', realPath: join(base, 'real/f.ts') });
    expect('changedDuringObservation' in observation).toBe(false);
  });
});
