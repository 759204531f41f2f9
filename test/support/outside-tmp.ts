import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { afterAll } from 'vitest';
import { SANDBOX_PRIVATE_FOLDERS } from '../../src/core/policies/sandbox-profile.js';

/**
 * A folder for fixtures that must lie outside the sandbox's private folders (/tmp, /var/tmp):
 * inside the sandbox those are private and empty, so a workspace, a canary or a write target
 * under them would test the private folder, not the view. The checkout's ignored
 * `test-artifacts/`, unless the checkout itself lies in one (a clone made under /tmp, as CI may
 * do): then a folder under the user's home. Call it at a test file's top level: it is removed
 * after the file's tests.
 */
export function outsideTmpFolder(): string {
  for (const parent of [resolve('test-artifacts'), join(homedir(), '.cache', 'correx-tests')]) {
    if (underPrivateFolder(parent)) continue;
    mkdirSync(parent, { recursive: true });
    const folder = mkdtempSync(join(parent, 'fixtures-'));
    afterAll(() => rmSync(folder, { recursive: true, force: true }));
    return folder;
  }
  throw new Error('no folder outside /tmp, /var/tmp and the temporary folder to put fixtures in');
}

function underPrivateFolder(path: string): boolean {
  return [...SANDBOX_PRIVATE_FOLDERS, tmpdir()].some((folder) => {
    const rel = relative(folder, path);
    return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'));
  });
}
