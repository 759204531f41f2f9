import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { decideApproval } from '../../src/core/approvals/decide-approval.js';
import { flagSet } from '../../src/core/base/behaviour-flag.js';
import {
  DEFAULT_NEVER_READABLE,
  DEFAULT_NEVER_WRITABLE,
} from '../../src/core/policies/workspace-policy.js';
import { toolIntentFlags } from '../../src/core/toolintent/toolintent-flags.js';
import type { ToolCallAssessment } from '../../src/core/toolintent/assess-tool-call.js';
import { createPlaneTwoHarness } from '../security/plane-two-harness.js';
import { BENIGN_CALLS } from '../security/benign-calls.js';
import { availability, describeSandboxed, execIn } from './sandbox-support.js';

/**
 * Issue #17 end to end on the real parts: each benign agent call is assessed on a real workspace
 * (real probe, recorded observations, flag sandbox-containment), approved by the approval engine
 * in auto mode without a human, and then really run under bubblewrap, where it does its work.
 */
const h = createPlaneTwoHarness({}, { flags: flagSet(toolIntentFlags), sandbox: 'bubblewrap' });
const installed = (program: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${program}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

const approvalInAutoMode = (assessment: ToolCallAssessment, command: string) =>
  decideApproval({
    mode: 'auto',
    verdict: assessment.verdict,
    tier: assessment.tier,
    subject: {
      callId: assessment.callId,
      tool: 'exec',
      stageId: 'implement',
      command,
      paths: [],
      hosts: [],
    },
    grants: { grants: {} },
    at: '2026-12-01T12:00:00.000Z',
    reason: assessment.findings.map((f) => f.message).join('; '),
  });

describeSandboxed('benign agent calls run in auto mode under bubblewrap', () => {
  beforeAll(() => {
    mkdirSync(join(h.workspace, 'src'));
    writeFileSync(join(h.workspace, 'src/a.py'), 'print("from a.py")\n');
    writeFileSync(
      join(h.workspace, 'src/ok.test.mjs'),
      "import test from 'node:test';\ntest('ok', () => {});\n",
    );
  });

  const expected: Record<string, (output: string) => void> = {
    'a heredoc into python3': (output) => expect(output).toContain('45'),
    'cat heredoc into a new file': () =>
      expect(readFileSync(join(h.workspace, 'src/x.py'), 'utf8')).toBe(
        'print("$HOME stays literal")\n',
      ),
    'cd into the workspace and run the tests': (output) => expect(output).toMatch(/pass 1/),
    'python3 -c': (output) => expect(output).toContain('42'),
    'stderr into the pipe': (output) => expect(output).toContain('from a.py'),
    'node -e': (output) => expect(output).toContain('2'),
  };

  for (const call of BENIGN_CALLS) {
    it(`assesses, auto-approves and runs: ${call.name}`, async () => {
      const session = await h.newSession();
      const assessment = await h.assess(session, 'exec', { command: call.command });
      expect(assessment.verdict).toBe('ALLOW');
      expect(approvalInAutoMode(assessment, call.command).outcome).toBe('approved');
      const program = call.command.split(/\s/)[0]!;
      if (!installed(program === 'for' || program === 'if' || program === 'cd' ? 'sh' : program)) {
        console.warn(`${program} is not installed here; assessed and approved, not run`);
        return;
      }
      const receipt = await execIn(
        { workspace: h.workspace, home: h.home },
        { command: call.command },
        { sandbox: { availability, neverWritable: [...DEFAULT_NEVER_WRITABLE] } },
      );
      expect(receipt.sandbox).toMatchObject({ kind: 'bubblewrap', network: 'none' });
      expect(receipt.outcome, receipt.output).toBe('succeeded');
      expected[call.name]?.(receipt.output);
    });
  }

  it('the same calls without a sandbox wait for a human in auto mode', async () => {
    const unsandboxed = createPlaneTwoHarness(
      {},
      { flags: flagSet(toolIntentFlags), sandbox: 'none' },
    );
    mkdirSync(join(unsandboxed.workspace, 'src'));
    writeFileSync(join(unsandboxed.workspace, 'src/a.py'), 'print(1)\n');
    for (const call of BENIGN_CALLS) {
      const session = await unsandboxed.newSession();
      const assessment = await unsandboxed.assess(session, 'exec', { command: call.command });
      expect(approvalInAutoMode(assessment, call.command).outcome, call.name).toBe('pending');
    }
  });
});

describeSandboxed('never-readable workspace files inside the sandbox', () => {
  it('are bound empty, recorded as hidden, and left intact on the host', async () => {
    const fixture = createPlaneTwoHarness();
    writeFileSync(join(fixture.workspace, '.env'), 'TOKEN=CANARY-sandbox-env\n');
    mkdirSync(join(fixture.workspace, 'deploy'));
    writeFileSync(join(fixture.workspace, 'deploy/server.pem'), 'CANARY-sandbox-pem\n');
    const receipt = await execIn(
      { workspace: fixture.workspace, home: fixture.home },
      { command: 'cat .env deploy/server.pem; echo done; echo x > .env' },
      {
        sandbox: {
          availability,
          neverWritable: [...DEFAULT_NEVER_WRITABLE],
          neverReadable: [...DEFAULT_NEVER_READABLE],
        },
      },
    );
    expect(receipt.output).not.toContain('CANARY');
    expect(receipt.output).toContain('done');
    expect(receipt.sandbox?.hidden).toEqual(
      expect.arrayContaining([
        join(fixture.workspace, '.env'),
        join(fixture.workspace, 'deploy/server.pem'),
      ]),
    );
    expect(readFileSync(join(fixture.workspace, '.env'), 'utf8')).toBe(
      'TOKEN=CANARY-sandbox-env\n',
    );
  });
});
