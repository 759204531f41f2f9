import { execFile } from 'node:child_process';
import { readFileSync, realpathSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support/temp-dir.js';
import { cliEnvironment } from './cli-process.js';

const run = promisify(execFile);
const repo = realpathSync(fileURLToPath(new URL('../../', import.meta.url)));
// Two levels below the package root, as dist/cli lies, so package.json, assets/ and the web
// page are found as the installed bundle finds them.
const bundleRoot = join(repo, `.test-cli-bundle-${process.pid}`);
const bundledCli = join(bundleRoot, 'cli', 'cli.js');

async function bundled(home: string, args: readonly string[]) {
  try {
    const { stdout, stderr } = await run(process.execPath, [bundledCli, ...args], {
      env: cliEnvironment(home),
      timeout: 120_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/**
 * The CLI as `bin/correx` runs it after `npm install`: bundled by scripts/bundle-cli.mjs (the
 * other CLI tests run the sources compiled module by module). What a bundle can break is what
 * a module finds relative to itself: the package's version, its assets, lazily loaded commands.
 */
describe('the bundled CLI', () => {
  beforeAll(async () => {
    await run(process.execPath, [join(repo, 'scripts', 'bundle-cli.mjs'), join(bundleRoot, 'cli')]);
  }, 120_000);
  afterAll(() => rmSync(bundleRoot, { recursive: true, force: true }));

  it('answers --version from package.json', async () => {
    const home = tempDir('correx-bundle-');
    const version = (
      JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as { version: string }
    ).version;
    expect((await bundled(home, ['--version'])).stdout.trim()).toBe(version);
  });

  it('runs the demo from its assets and shows the session it recorded', async () => {
    const root = realpathSync(tempDir('correx-bundle-demo-'));
    const home = join(root, 'home');
    const demo = await bundled(home, ['demo', '--workspace', join(root, 'workspace')]);
    expect(demo.code).toBe(0);
    expect(demo.stdout).toContain('✓ workflow completed');
    const summary = await bundled(home, ['show', '--summary', '--last']);
    expect(summary.code).toBe(0);
    expect(summary.stdout).toMatch(/completed/);
  }, 180_000);

  it('finds the built-in eval suite among its assets', async () => {
    const home = tempDir('correx-bundle-eval-');
    const result = await bundled(home, ['eval', 'run', 'builtin', '--model', 'scripted:nosuch']);
    expect(result.stderr).toContain(join(repo, 'assets', 'eval', 'builtin', 'models', 'nosuch'));
  }, 120_000);
});
