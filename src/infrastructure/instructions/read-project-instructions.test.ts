import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readProjectInstructions } from './read-project-instructions.js';

let root: string;
let workspace: string;
let home: string;
beforeEach(() => {
  root = realpathSync(mkdtempSync(join(tmpdir(), 'correx-agents-')));
  workspace = join(root, 'workspace');
  home = join(root, 'home');
  mkdirSync(join(workspace, 'packages/api'), { recursive: true });
  mkdirSync(join(workspace, 'node_modules/dep'), { recursive: true });
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('readProjectInstructions', () => {
  it('reads the user file, the root file and nested ones, skipping dependencies and symbolic links', () => {
    writeFileSync(join(home, 'AGENTS.md'), 'mine\n');
    writeFileSync(join(workspace, 'AGENTS.md'), 'root\n');
    writeFileSync(join(workspace, 'CLAUDE.md'), 'ignored: AGENTS.md wins\n');
    writeFileSync(join(workspace, 'packages/api/AGENTS.md'), 'api\n');
    writeFileSync(join(workspace, 'node_modules/dep/AGENTS.md'), 'not ours\n');
    writeFileSync(join(root, 'secret.txt'), 'outside\n');
    mkdirSync(join(workspace, 'linked'));
    symlinkSync(join(root, 'secret.txt'), join(workspace, 'linked/AGENTS.md'));
    const found = readProjectInstructions({ workspace, correxHome: home });
    expect(found.map((entry) => [entry.scope, entry.path, entry.directory, entry.content])).toEqual(
      [
        ['user', '$CORREX_HOME/AGENTS.md', '', 'mine\n'],
        ['workspace', 'AGENTS.md', '', 'root\n'],
        ['directory', 'packages/api/AGENTS.md', 'packages/api', 'api\n'],
      ],
    );
  });

  it('keeps the head of a long file, says so, and hashes all of it', () => {
    writeFileSync(join(workspace, 'CLAUDE.md'), 'x'.repeat(5000));
    const [entry] = readProjectInstructions({ workspace, correxHome: home, maxBytes: 1000 });
    expect(entry).toMatchObject({ scope: 'workspace', path: 'CLAUDE.md', truncated: true });
    expect(entry?.content).toHaveLength(1000);
    expect(entry?.sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
