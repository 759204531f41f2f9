import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { matchGlob } from '../../src/core/policies/path-glob.js';
import { DEFAULT_NEVER_READABLE } from '../../src/core/policies/workspace-policy.js';
import {
  findNeverReadableFiles,
  findNeverReadableFilesUnder,
  workspaceFoldersRead,
} from '../../src/infrastructure/sandbox/never-readable-files.js';
import { outsideTmpFolder } from '../support/outside-tmp.js';

/**
 * The workspace walk that finds never-readable files (bound empty in the sandbox) reads again
 * only the folders that changed since the last call. Each test waits until a walk was served
 * without reading a folder, changes the workspace, and compares the next walk with a plain
 * recursive reading of the tree.
 */
const base = realpathSync(mkdtempSync(join(outsideTmpFolder(), 'walk-')));
const globs = [...DEFAULT_NEVER_READABLE];

/** The never-readable files of a tree, found the slow, obvious way. */
function reference(root: string): string[] {
  const found: string[] = [];
  const visit = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== '.git') visit(path);
      else if (
        entry.isFile() &&
        globs
          .filter((glob) => !glob.startsWith('~') && !glob.startsWith('/'))
          .some((glob) => matchGlob(glob, relative(root, path), { foldCase: true }))
      )
        found.push(path);
    }
  };
  visit(root);
  return found.sort();
}

async function untilReused(workspace: string): Promise<void> {
  await expect
    .poll(
      () => {
        const before = workspaceFoldersRead();
        findNeverReadableFiles(workspace, globs);
        return workspaceFoldersRead() === before;
      },
      { timeout: 60_000, interval: 250 },
    )
    .toBe(true);
}

function workspace(name: string): string {
  const root = join(base, name);
  for (const dir of ['src/deep/er', 'config', 'docs', '.git/objects', 'node_modules/pkg'])
    mkdirSync(join(root, dir), { recursive: true });
  writeFileSync(join(root, 'src/deep/er/a.ts'), '');
  writeFileSync(join(root, 'config/server.pem'), 'secret');
  writeFileSync(join(root, '.git/objects/x.pem'), 'skipped: inside .git');
  writeFileSync(join(root, 'node_modules/pkg/.npmrc'), 'secret');
  return root;
}

describe('the reused workspace walk', () => {
  it('finds a secret created, renamed into place or moved in with its folder, and drops a removed one', async () => {
    const root = workspace('changes');
    expect(findNeverReadableFiles(root, globs)).toEqual(reference(root));
    await untilReused(root);

    writeFileSync(join(root, 'src/deep/er/.env'), 'KEY=1');
    expect(findNeverReadableFiles(root, globs)).toContain(join(root, 'src/deep/er/.env'));
    expect(findNeverReadableFiles(root, globs)).toEqual(reference(root));

    await untilReused(root);
    writeFileSync(join(root, 'docs/notes.txt'), 'key');
    renameSync(join(root, 'docs/notes.txt'), join(root, 'docs/id_rsa'));
    expect(findNeverReadableFiles(root, globs)).toContain(join(root, 'docs/id_rsa'));

    await untilReused(root);
    const elsewhere = join(base, 'elsewhere-changes');
    mkdirSync(join(elsewhere, 'keys'), { recursive: true });
    writeFileSync(join(elsewhere, 'keys/client.p12'), 'secret');
    renameSync(join(elsewhere, 'keys'), join(root, 'src/deep/keys'));
    rmSync(join(root, 'config/server.pem'));
    const found = findNeverReadableFiles(root, globs);
    expect(found).toContain(join(root, 'src/deep/keys/client.p12'));
    expect(found).not.toContain(join(root, 'config/server.pem'));
    expect(found).toEqual(reference(root));
  });

  it('walks a folder swapped for a link no more, and a link swapped for a folder again', async () => {
    const root = workspace('links');
    const target = join(base, 'link-target');
    mkdirSync(target, { recursive: true });
    writeFileSync(join(target, 'outside.pem'), 'not in the workspace');
    await untilReused(root);
    rmSync(join(root, 'config'), { recursive: true });
    symlinkSync(target, join(root, 'config'));
    expect(findNeverReadableFiles(root, globs)).toEqual(reference(root));
    expect(findNeverReadableFiles(root, globs)).not.toContain(join(root, 'config/outside.pem'));

    await untilReused(root);
    rmSync(join(root, 'config'));
    mkdirSync(join(root, 'config'));
    writeFileSync(join(root, 'config/.env.local'), 'x');
    expect(findNeverReadableFiles(root, globs)).toContain(join(root, 'config/.env.local'));
  });

  it('cuts at the same place as a fresh walk when the tree is larger than the limit', () => {
    const root = workspace('limit');
    for (let i = 0; i < 30; i++) writeFileSync(join(root, `src/f${i}.key`), '');
    const fresh = (limit: number) =>
      findNeverReadableFilesUnder(
        root,
        globs.filter((glob) => !glob.startsWith('~')),
        '',
        limit,
      );
    for (const limit of [1, 5, 12, 40]) {
      expect(findNeverReadableFiles(root, globs, limit), `limit ${limit}`).toEqual(fresh(limit));
      expect(findNeverReadableFiles(root, globs, limit), `limit ${limit}, reused`).toEqual(
        fresh(limit),
      );
    }
  });

  it('matches a name written in decomposed form (NFD) as matchGlob does', () => {
    const root = workspace('unicode');
    const decomposed = join(root, 'docs', 'cle\u0301.pem'.normalize('NFD'));
    writeFileSync(decomposed, 'secret');
    expect(findNeverReadableFiles(root, ['**/clé.pem'])).toEqual([decomposed]);
    expect(findNeverReadableFilesUnder(root, ['**/CLÉ.PEM'], '')).toEqual([decomposed]);
  });
});
