import { execFile } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { COMPILED_CLI } from '../support/compile-cli.js';
import { tempDir } from '../support/temp-dir.js';
import { cliEnvironment } from './cli-process.js';

const run = promisify(execFile);

/**
 * The modules of correx a real CLI process loads for a command line, recorded by a module hook
 * (Node's `module.register`), relative to the compiled sources: the build compiled module by
 * module, whose modules are the sources' (a bundle's chunks would say nothing of which loaded).
 */
async function loadedModules(
  args: readonly string[],
  { packages = false }: { packages?: boolean } = {},
): Promise<string[]> {
  const dir = tempDir('correx-startup-');
  const log = join(dir, 'loaded.txt');
  const hooks = join(dir, 'hooks.mjs');
  writeFileSync(
    hooks,
    `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  appendFileSync(${JSON.stringify(log)}, url + '\\n');
  return next(url, context);
}
`,
  );
  const register = join(dir, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  writeFileSync(log, '');
  await run(process.execPath, ['--import', pathToFileURL(register).href, COMPILED_CLI, ...args], {
    env: cliEnvironment(dir),
  });
  const root = pathToFileURL(join(COMPILED_CLI, '..', '..')).href;
  const urls = readFileSync(log, 'utf8').split('\n');
  if (packages) return urls.filter((url) => url.includes('/node_modules/'));
  return urls.filter((url) => url.startsWith(root)).map((url) => url.slice(root.length + 1));
}

/** Issue #37: every command, even `--version`, paid about a second of CPU loading everything. */
describe('what a correx process loads before it answers', () => {
  it('`--version` loads no command, no kernel and no event schemas', async () => {
    const loaded = await loadedModules(['--version']);
    expect(loaded).toContain('main/cli.js');
    expect(loaded.filter((path) => path.includes('/commands/'))).toEqual([]);
    expect(loaded.filter((path) => path.startsWith('core/kernel/'))).toEqual([]);
    expect(loaded).not.toContain('core/event-catalog.js');
    // Answered by the entry itself: not even the composition root or the option parser loads.
    expect(loaded).toEqual(['main/cli.js']);
    expect(await loadedModules(['--version'], { packages: true })).toEqual([]);
  });

  it('a command line that names a command loads that command module only', async () => {
    const loaded = await loadedModules(['sessions', '--help']);
    expect(loaded.filter((path) => path.includes('/commands/')).sort()).toEqual([
      // The option parser `sessions` shares with `events`.
      'interfaces/cli/commands/events-command.js',
      'interfaces/cli/commands/sessions-command.js',
    ]);
    expect(loaded.some((path) => path.startsWith('interfaces/server/'))).toBe(false);
  });
});
