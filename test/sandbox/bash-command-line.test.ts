import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_NEVER_WRITABLE } from '../../src/core/policies/workspace-policy.js';
import type { SandboxSettings } from '../../src/infrastructure/sandbox/confined-process.js';
import { createExecExecutor } from '../../src/infrastructure/tools/exec-tool.js';
import { createDiskWorldProbe } from '../../src/infrastructure/world-probe/disk-world-probe.js';
import { tempDir } from '../support/temp-dir.js';
import { availability } from './sandbox-support.js';
import { layeredRecord } from '../../src/core/base/layered-record.js';

/**
 * Flag `exec-bash` on real processes: a command line runs as `bash -c` (inside bubblewrap
 * where this machine has it), so bash-only syntax works; `sh` stays what it was; and a
 * missing bash is a clear refusal, never a silent `sh`.
 */
const sandbox: SandboxSettings | undefined =
  availability.kind === 'bubblewrap'
    ? { availability, neverWritable: [...DEFAULT_NEVER_WRITABLE] }
    : undefined;
let fixture: { workspace: string; home: string };
beforeEach(() => {
  const base = realpathSync(tempDir('correx-bash-'));
  fixture = { workspace: join(base, 'ws'), home: join(base, 'home') };
  mkdirSync(fixture.workspace);
  mkdirSync(fixture.home);
  writeFileSync(join(fixture.workspace, 'a.txt'), 'a\n');
});
const run = (command: string, shell: 'bash' | 'sh', bashPaths?: readonly string[]) =>
  createExecExecutor({
    probe: createDiskWorldProbe(),
    changes: false,
    ...(sandbox === undefined ? {} : { sandbox }),
    ...(bashPaths === undefined ? {} : { bashPaths }),
  }).execute(
    { command },
    {
      callId: 'c1',
      roots: { workspaceRoot: fixture.workspace, homeDirectory: fixture.home },
      observations: layeredRecord(),
      egressAllowlist: [],
      commandShell: shell,
    },
  );
const BASH_ONLY = `[[ -f a.txt && a.txt == *.txt ]] && names=(one "two words" three) && printf '%s|' "\${#names[@]}" "\${names[1]}" $'tab\\there' "$((6 * 7))"`;

describe(`a command line under exec-bash (${availability.kind})`, () => {
  it("runs bash-only syntax: [[ ]], arrays, $'...', arithmetic", async () => {
    const receipt = await run(BASH_ONLY, 'bash');
    expect(receipt.error).toBeNull();
    expect(receipt.outcome).toBe('succeeded');
    expect(receipt.output).toBe('3|two words|tab\there|42|');
    expect(receipt.executable).toMatch(/bash$/);
  });

  it('runs the same line as /bin/sh without the flag, where it is not bash', async () => {
    const receipt = await run(BASH_ONLY, 'sh');
    expect(receipt.outcome).toBe('failed');
    expect(receipt.output).not.toContain('two words');
  });

  it('refuses clearly when bash is missing, instead of running the line under sh', async () => {
    const receipt = await run('echo hi', 'bash', [join(fixture.workspace, 'no-bash')]);
    expect(receipt.outcome).toBe('failed');
    expect(receipt.error).toContain('bash is not installed');
    expect(receipt.output).toBe('');
  });
});
