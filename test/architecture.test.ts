import { execFileSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  symlinkSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { afterAll, describe, expect, it } from 'vitest';
import { coreDeterminismRules } from '../eslint.config.js';

/**
 * Checks the checkers: the dependency rules and the determinism lint rules must not only pass
 * on src, they must still fire on deliberate violations. A rule that silently stopped matching
 * would otherwise look exactly like a clean codebase.
 */
const root = join(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
const config = require('../.dependency-cruiser.cjs') as { forbidden: { name: string }[] };
const depcruise = join(root, 'node_modules', '.bin', 'depcruise');

type Violation = { rule: { name: string }; from: string; to: string };

function cruise(cwd: string, targets: string[]): Violation[] {
  let output: string;
  try {
    output = execFileSync(
      depcruise,
      [...targets, '--config', join(root, '.dependency-cruiser.cjs'), '--output-type', 'json'],
      {
        cwd,
        encoding: 'utf8',
        maxBuffer: 64 * 1024 * 1024,
      },
    );
  } catch (error) {
    // depcruise exits non-zero when it finds violations; the JSON report is still on stdout.
    output = (error as { stdout: string }).stdout;
  }
  return (JSON.parse(output) as { summary: { violations: Violation[] } }).summary.violations;
}

/** A tree of deliberate violations, one or more per rule, written to a temporary directory. */
function writeViolationFixtures(): string {
  const dir = mkdtempSync(join(tmpdir(), 'correx-arch-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const files: Record<string, string> = {
    'tsconfig.json': readFileSync(join(root, 'tsconfig.json'), 'utf8'),
    'src/infrastructure/adapter.ts': 'export const adapter = 1;\n',
    'src/interfaces/screen.ts': 'export const screen = 1;\n',
    'src/main/compose.ts': 'export const compose = 1;\n',
    'src/core/base/reaches-out.ts':
      "import { adapter } from '../../infrastructure/adapter.js';\nexport const x = adapter;\n",
    'src/core/base/does-io.ts':
      "import { readFileSync } from 'node:fs';\nexport const y = readFileSync;\n",
    'src/core/base/uses-npm.ts': "import { parse } from 'yaml';\nexport const z = parse;\n",
    'src/core/router/reaches-kernel.ts':
      "import { k } from '../kernel/k.js';\nexport const r = k;\n",
    'src/core/kernel/k.ts': 'export const k = 1;\n',
    'src/core/toolintent/shell-analysis/inner.ts': 'export const inner = 1;\n',
    'src/core/toolintent/reaches-inside-shell-analysis.ts':
      "import { inner } from './shell-analysis/inner.js';\nexport const w = inner;\n",
    'src/interfaces/reaches-inside-kernel.ts':
      "import { k } from '../core/kernel/k.js';\nexport const i = k;\n",
    'src/infrastructure/reaches-interfaces.ts':
      "import { screen } from '../interfaces/screen.js';\nexport const s = screen;\n",
    'src/interfaces/reaches-main.ts':
      "import { compose } from '../main/compose.js';\nexport const c = compose;\n",
    'src/core/events/cycle-a.ts':
      "import { b } from './cycle-b.js';\nexport const a = (): number => b();\n",
    'src/core/events/cycle-b.ts':
      "import { a } from './cycle-a.js';\nexport const b = (): number => a();\n",
    'src/core/events/reaches-test.ts':
      "import { t } from '../../../test/helper.js';\nexport const u = t;\n",
    'test/helper.ts': 'export const t = 1;\n',
  };
  // One import of the next layer up, per core layer, generated from the rules so a new layer is covered too.
  const layers = config.forbidden
    .filter((rule) => rule.name.startsWith('core-layer-'))
    .map((rule) => rule.name.slice('core-layer-'.length));
  const fileOf = (layer: string) =>
    layer === 'event-catalog' ? 'src/core/event-catalog.ts' : `src/core/${layer}/layer-file.ts`;
  const allLayers = [...layers, 'router'];
  for (const [index, layer] of layers.entries()) {
    const next = allLayers[index + 1]!;
    const relative =
      layer === 'event-catalog'
        ? `./${next}/layer-file.js`
        : next === 'event-catalog'
          ? '../event-catalog.js'
          : `../${next}/layer-file.js`;
    files[fileOf(layer)] = `import * as up from '${relative}';\nexport const v = up;\n`;
  }
  files[fileOf('router')] = 'export const top = 1;\n';
  // Resolve npm imports the way the real tree does.
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'), 'dir');
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

describe('architecture rules', () => {
  // dependency-cruiser walks all of src (seconds on a quiet machine, over a minute with both
  // cores busy): a last-resort bound, since nothing here waits for time.
  it('src has no dependency violations', () => {
    expect(cruise(root, ['src'])).toEqual([]);
  }, 300_000);

  it('every dependency rule still fires on a deliberate violation', () => {
    const dir = writeViolationFixtures();
    const fired = new Set(cruise(dir, ['src']).map((violation) => violation.rule.name));
    const silent = config.forbidden
      .map((rule) => rule.name)
      .filter((name) => name !== 'src-not-to-test' && !fired.has(name));
    expect(silent).toEqual([]);
    // src-not-to-test needs the test folder in the cruise to resolve the import.
    expect(cruise(dir, ['src', 'test']).map((violation) => violation.rule.name)).toContain(
      'src-not-to-test',
    );
  }, 300_000);

  it('every determinism lint rule still fires in src/core', async () => {
    const eslint = new ESLint({
      cwd: root,
      overrideConfigFile: true,
      overrideConfig: [
        {
          files: ['**/*.ts'],
          languageOptions: { parser: tseslint.parser },
          plugins: { '@typescript-eslint': tseslint.plugin },
          rules: coreDeterminismRules,
        },
      ],
    });
    const violations: Record<string, string> = {
      'Date.now': 'export const a = Date.now();',
      'new Date()': 'export const b = new Date();',
      'Math.random': 'export const c = Math.random();',
      'crypto.randomUUID': 'export const d = crypto.randomUUID();',
      'process.env': 'export const e = process.env.HOME;',
      setTimeout: 'setTimeout(() => 1, 1);',
      fetch: "export const f = fetch('http://x');",
      'node:fs': "import { readFileSync } from 'node:fs';\nexport const g = readFileSync;",
      child_process: "import { spawn } from 'child_process';\nexport const h = spawn;",
    };
    for (const [what, code] of Object.entries(violations)) {
      const [result] = await eslint.lintText(code, {
        filePath: join(root, 'src/core/base/fixture.ts'),
      });
      expect(
        result!.messages.filter((message) => message.severity === 2),
        `${what} must be reported`,
      ).not.toEqual([]);
    }
    const [clean] = await eslint.lintText('export const ok = new Date(0).toISOString();', {
      filePath: join(root, 'src/core/base/fixture.ts'),
    });
    expect(clean!.messages).toEqual([]);
  });

  it('no eslint-disable comment hides a rule anywhere in src/core', () => {
    const offenders: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.ts$/.test(name) && /eslint-disable/.test(readFileSync(path, 'utf8')))
          offenders.push(path);
      }
    };
    walk(join(root, 'src/core'));
    expect(offenders).toEqual([]);
  });
});
