import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createDiskProjectCheckDetector } from './disk-project-check-detector.js';

const made: string[] = [];
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A sample repository with these files. */
function repo(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'correx-checks-'));
  made.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

const detect = (dir: string) =>
  createDiskProjectCheckDetector().detect(dir, new AbortController().signal);

describe('project check detection', () => {
  it('finds package.json test, lint and typecheck scripts, skipping npm init’s placeholder', async () => {
    const node = repo({
      'package.json': JSON.stringify({
        scripts: { test: 'node --test', lint: 'eslint .', typecheck: 'tsc --noEmit', build: 'tsc' },
      }),
    });
    expect((await detect(node)).checks).toEqual([
      { name: 'test', command: 'npm test', source: 'package.json' },
      { name: 'lint', command: 'npm run lint', source: 'package.json' },
      { name: 'typecheck', command: 'npm run typecheck', source: 'package.json' },
    ]);
    const placeholder = repo({
      'package.json': JSON.stringify({
        scripts: { test: 'echo "Error: no test specified" && exit 1' },
      }),
    });
    expect((await detect(placeholder)).checks).toEqual([]);
  });

  it('runs scripts with the package manager the lock file names', async () => {
    const pnpm = repo({
      'package.json': JSON.stringify({ scripts: { test: 'vitest run' } }),
      'pnpm-lock.yaml': 'lockfileVersion: 9\n',
    });
    expect((await detect(pnpm)).checks).toEqual([
      { name: 'test', command: 'pnpm run test', source: 'package.json' },
    ]);
  });

  it('reports a package.json that is not JSON as a problem, not a crash', async () => {
    const broken = repo({ 'package.json': '{ "scripts": ' });
    const detected = await detect(broken);
    expect(detected.checks).toEqual([]);
    expect(detected.problems).toEqual([
      { file: 'package.json', message: expect.stringContaining('is not valid JSON') as string },
    ]);
  });

  it('finds pytest from pyproject.toml or pytest.ini', async () => {
    const section = repo({
      'pyproject.toml': '[project]\nname = "x"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n',
    });
    expect((await detect(section)).checks).toEqual([
      { name: 'pytest', command: 'python -m pytest', source: 'pyproject.toml' },
    ]);
    const dependency = repo({
      'pyproject.toml': '[project.optional-dependencies]\ntest = ["pytest>=8"]\n',
    });
    expect((await detect(dependency)).checks.map((c) => c.name)).toEqual(['pytest']);
    const ini = repo({ 'pytest.ini': '[pytest]\n' });
    expect((await detect(ini)).checks).toEqual([
      { name: 'pytest', command: 'python -m pytest', source: 'pytest.ini' },
    ]);
    const noTests = repo({ 'pyproject.toml': '[project]\nname = "x"\n' });
    expect((await detect(noTests)).checks).toEqual([]);
  });

  it('finds go test, cargo test and a Makefile test target', async () => {
    expect((await detect(repo({ 'go.mod': 'module example.com/x\n\ngo 1.22\n' }))).checks).toEqual([
      { name: 'go-test', command: 'go test ./...', source: 'go.mod' },
    ]);
    expect((await detect(repo({ 'Cargo.toml': '[package]\nname = "x"\n' }))).checks).toEqual([
      { name: 'cargo-test', command: 'cargo test', source: 'Cargo.toml' },
    ]);
    expect(
      (await detect(repo({ Makefile: 'build:\n\tcc x.c\n\ntest: build\n\t./x --self-test\n' })))
        .checks,
    ).toEqual([{ name: 'make-test', command: 'make test', source: 'Makefile' }]);
    // A variable named test is no target.
    expect((await detect(repo({ Makefile: 'test := yes\nall:\n\ttrue\n' }))).checks).toEqual([]);
  });

  it('finds nothing in a folder without project files, and several ecosystems side by side', async () => {
    expect(await detect(repo({ 'README.md': '# x\n' }))).toEqual({ checks: [], problems: [] });
    const mixed = repo({
      'package.json': JSON.stringify({ scripts: { lint: 'eslint .' } }),
      'go.mod': 'module x\n',
      Makefile: 'test:\n\tgo test ./...\n',
    });
    expect((await detect(mixed)).checks.map((c) => c.name)).toEqual([
      'lint',
      'go-test',
      'make-test',
    ]);
  });
});
