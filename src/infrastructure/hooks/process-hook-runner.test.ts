import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HookDefinitionSchema } from '../../core/toolintent/hook-definition.js';
import { detectSandbox } from '../sandbox/sandbox-availability.js';
import { createProcessHookRunner } from './process-hook-runner.js';

const fixtures = fileURLToPath(new URL('../../../test/fixtures/hooks/', import.meta.url));
const hook = (name: string, command: string[], timeoutMs = 5000) =>
  HookDefinitionSchema.parse({ name, command, timeoutMs });
const input = (tool: string, args: Record<string, unknown>) => ({
  event: 'pre_tool_use',
  tool,
  args,
  findings: [],
  targets: [
    {
      role: 'PATH',
      param: 'path',
      raw: 'a.txt',
      resolved: '/w/a.txt',
      realPath: null,
      write: false,
    },
  ],
});

let workspace: string;
beforeEach(() => {
  workspace = realpathSync(mkdtempSync(join(tmpdir(), 'correx-hooks-')));
});
afterEach(() => rmSync(workspace, { recursive: true, force: true }));

describe.each([
  ['unconfined', undefined],
  ['under bubblewrap', 'bubblewrap'],
] as const)('pre_tool_use hooks as real processes, %s', async (_label, wanted) => {
  const availability = await detectSandbox();
  const skip = wanted === 'bubblewrap' && availability.kind !== 'bubblewrap';
  // Made when the suite is defined, before any beforeEach: the runner is created here too.
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'correx-hooks-home-')));
  afterAll(() => rmSync(home, { recursive: true, force: true }));
  const runner = createProcessHookRunner({
    homeDirectory: home,
    searchPath: '/usr/local/bin:/usr/bin:/bin',
    ...(wanted === undefined ? {} : { sandbox: { availability } }),
  });
  const run = (hooks: ReturnType<typeof hook>[], tool = 'read_file', args = { path: 'a.txt' }) =>
    runner.runPreToolUse(
      { hooks, workspaceRoot: workspace, input: input(tool, args) },
      new AbortController().signal,
    );

  it.skipIf(skip)(
    'takes allow, block and raise answers from node and shell scripts',
    async () => {
      const guard = hook('guard', [process.execPath, join(fixtures, 'guard.mjs')]);
      expect(await run([guard, hook('shell', [join(fixtures, 'allow.sh')])])).toMatchObject([
        { hook: 'guard', outcome: 'answered', decision: 'allow', reason: 'seen 1 target(s)' },
        { hook: 'shell', outcome: 'answered', decision: 'allow', reason: 'shell says yes' },
      ]);
      expect(await run([guard], 'read_file', { path: '.env' })).toMatchObject([
        {
          outcome: 'answered',
          decision: 'block',
          reason: 'no secrets (read_file named a .env file)',
        },
      ]);
      expect(await run([guard], 'write_file', { path: 'b.txt' })).toMatchObject([
        { outcome: 'answered', decision: 'raise', tier: 'T3' },
      ]);
    },
    30_000,
  );

  it.skipIf(skip)(
    'names a crash, a hang, garbage and a program that does not exist',
    async () => {
      const results = await run([
        hook('crash', [join(fixtures, 'crash.sh')]),
        hook('hang', [join(fixtures, 'hang.sh')], 500),
        hook('garbage', [join(fixtures, 'garbage.sh')]),
        hook('missing', ['/nonexistent/hook']),
      ]);
      expect(results.map((result) => [result.hook, result.outcome, result.decision])).toEqual([
        ['crash', 'crashed', 'block'],
        ['hang', 'timed_out', 'block'],
        ['garbage', 'garbage', 'block'],
        ['missing', wanted === 'bubblewrap' ? 'crashed' : 'failed_to_start', 'block'],
      ]);
      expect(results[0]?.reason).toMatch(/exited with code 7 \(stderr: guard exploded\)/);
      expect(results[2]?.reason).toMatch(/not JSON/);
    },
    30_000,
  );
});
