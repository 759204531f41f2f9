import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createProcessStaticAnalysisRunner } from '../../src/infrastructure/kernel/process-static-analysis-runner.js';
import { UNCONFINED_CHECKS_REFUSED, unconfinedChecksRule } from '../../src/main/live-ports.js';
import { tempDir } from '../support/temp-dir.js';

/**
 * A definition-of-done check runs the workspace's own scripts (package.json, a Makefile), which
 * the model can write. Without a sandbox it would run the model's code on the host, unapproved.
 */
describe('checks without a sandbox', () => {
  const root = tempDir('correx-unconfined-checks-');
  const workspace = join(root, 'workspace');
  mkdirSync(workspace, { recursive: true });
  const marker = join(root, 'ran-on-host');
  const none = { availability: { kind: 'none' as const, reason: 'bwrap is not installed' } };
  const request = { command: `touch ${marker}`, workspaceRoot: workspace } as Parameters<
    ReturnType<typeof createProcessStaticAnalysisRunner>['run']
  >[0];

  it('are not run under the default policy (every unconfined command asks a person), and say why', async () => {
    const runner = createProcessStaticAnalysisRunner({
      homeDirectory: root,
      sandbox: none,
      ...unconfinedChecksRule(undefined),
    });
    const run = await runner.run(request, new AbortController().signal);
    expect(run.outcome).toBe('failed_to_start');
    expect(run.output).toBe(UNCONFINED_CHECKS_REFUSED);
    expect(existsSync(marker)).toBe(false);
  });

  it("run where the operator's policy lets unconfined commands run (unsandboxedExecTier T2)", async () => {
    const runner = createProcessStaticAnalysisRunner({
      homeDirectory: root,
      sandbox: none,
      ...unconfinedChecksRule('T2'),
    });
    const run = await runner.run(request, new AbortController().signal);
    expect(run.outcome).toBe('completed');
    expect(existsSync(marker)).toBe(true);
  });
});
