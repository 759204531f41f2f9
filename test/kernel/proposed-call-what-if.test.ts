import { describe, expect, it } from 'vitest';
import {
  proposedCallPaths,
  whatIfProposedCall,
} from '../../src/core/kernel/queries/proposed-call-what-if.js';
import { parseWorkspacePolicy } from '../../src/core/policies/workspace-policy.js';
import { readCorpusEvents } from '../golden/sessions/session-corpus.js';

/**
 * Policy what-if for a call never made, on a real recorded session (the frozen demo session,
 * mode auto, in /tmp/keep/correx-demo-test-KSwUIa/workspace): judged from the log and the
 * observations the caller made of the paths the call names. What the MCP server's
 * `policy_what_if` answers.
 */
const events = readCorpusEvents('cli-demo.ndjson');
const workspace = '/tmp/keep/correx-demo-test-KSwUIa/workspace';
const recordedPolicy = (
  events.find((event) => event.payload.type === 'session_configured')!.payload as unknown as {
    configuration: { policy: Record<string, unknown> };
  }
).configuration.policy;
const nodeTest = { tool: 'exec', args: { argv: ['node', '--test', 'test/median.test.js'] } };

describe('whatIfProposedCall', () => {
  it("judges a call as the session's policy, mode and grants would, and under a candidate policy", () => {
    const noNode = parseWorkspacePolicy({
      ...recordedPolicy,
      allowedExecutables: (recordedPolicy.allowedExecutables as string[]).filter(
        (name) => name !== 'node',
      ),
    });
    const result = whatIfProposedCall(events, nodeTest, noNode);
    expect(result).toMatchObject({
      ok: true,
      mode: 'auto',
      recorded: { verdict: 'ALLOW', tier: 'T2', approval: 'approved' },
      candidate: { verdict: 'BLOCK', approval: 'denied' },
    });
    if (!result.ok) return;
    expect(result.candidate!.findings.map((finding) => finding.code)).toContain(
      'exec-interpreter/program_not_allowed',
    );
    // A stricter tier is a call auto mode leaves to a person.
    const t3 = parseWorkspacePolicy({ ...recordedPolicy, tierOverrides: { exec: 'T3' } });
    expect(whatIfProposedCall(events, nodeTest, t3)).toMatchObject({
      candidate: { tier: 'T3', approval: 'needs_person' },
    });
  });

  it('asks the caller to observe the paths a call names, and judges a path it did not observe as unseen', () => {
    const write = { tool: 'write_file', args: { path: 'notes/new.md', content: 'x' } };
    expect(proposedCallPaths(events, write)).toEqual([`${workspace}/notes/new.md`]);
    expect(whatIfProposedCall(events, write)).toMatchObject({
      recorded: {
        verdict: 'BLOCK',
        findings: [{ code: 'path-containment/observation_missing' }],
      },
    });
  });

  it('names what it cannot judge instead of guessing', () => {
    expect(whatIfProposedCall(events, { tool: 'rm_rf', args: {} })).toMatchObject({
      ok: false,
      reason: expect.stringContaining('the session offers no tool rm_rf') as string,
    });
    expect(whatIfProposedCall(events.slice(2), nodeTest).ok).toBe(false);
  });
});
