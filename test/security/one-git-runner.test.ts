import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { expect, it } from 'vitest';

const SRC = join(import.meta.dirname, '..', '..', 'src');
const RUNNER = 'infrastructure/workspace/hardened-git.ts';

/** A process started with `git` as its program, in any of node's ways of starting one. */
const STARTS_GIT =
  /\b(?:execFile|execFileSync|spawn|spawnSync|execSync|exec|fork)\s*\(\s*['"`](?:[^'"`]*\/)?git['"`]/;

/**
 * ARCHITECTURE.md §8, no host tool on model-writable state: every git command correx runs
 * itself goes through the one hardened runner (recorded locations, no discovered repository,
 * no system or global configuration, program-running settings off). A new call site that
 * starts git on its own fails here.
 */
it('starts git in one place only: the hardened runner', () => {
  const offenders: string[] = [];
  for (const file of readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts') || file === RUNNER) continue;
    const text = readFileSync(join(SRC, file), 'utf8');
    if (STARTS_GIT.test(text)) offenders.push(relative(SRC, join(SRC, file)));
  }
  expect(offenders).toEqual([]);
  expect(readFileSync(join(SRC, RUNNER), 'utf8')).toMatch(STARTS_GIT);
});
