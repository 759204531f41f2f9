import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../base/sha256.js';
import { gateSession } from './merge-gate.js';
import { provenanceFacts, type ProvenanceFacts } from './provenance-facts.js';

const base = provenanceFacts([], sha256Hex);
const facts = (overrides: Partial<ProvenanceFacts>): ProvenanceFacts => ({
  ...base,
  session: { ...base.session, status: 'completed' },
  ...overrides,
});
const approval = {
  callId: 'c1',
  tool: 'exec',
  tier: 'T2' as const,
  verdict: 'ASK' as const,
  decision: 'granted' as const,
  how: 'person' as const,
  by: 'alice',
  ran: true,
  sequence: 5,
};

describe('gateSession', () => {
  it('passes a completed session whose calls a person approved', () => {
    const verdict = gateSession({
      facts: facts({ approvals: [approval] }),
      logProblem: null,
      treeDifferences: [],
      options: { requireApproval: 'T2' },
    });
    expect(verdict).toMatchObject({ pass: true, reasons: [] });
  });

  it('fails a policy block that still ran, whatever else is asked', () => {
    const verdict = gateSession({
      facts: facts({
        approvals: [{ ...approval, verdict: 'BLOCK', decision: 'denied', ran: true }],
      }),
      logProblem: null,
      treeDifferences: [],
      options: {},
    });
    expect(verdict.reasons).toEqual(['call c1 (exec) was blocked by policy and still ran']);
  });

  it('fails a grant-less mode approval at the tier, but not below it', () => {
    const byMode = { ...approval, how: 'mode' as const, by: 'auto' };
    expect(
      gateSession({
        facts: facts({ approvals: [byMode] }),
        logProblem: null,
        treeDifferences: [],
        options: { requireApproval: 'T2' },
      }).reasons,
    ).toEqual([
      'call c1 (exec, T2) was approved by operator mode auto, not by a person or a grant',
    ]);
    expect(
      gateSession({
        facts: facts({ approvals: [byMode] }),
        logProblem: null,
        treeDifferences: [],
        options: { requireApproval: 'T3' },
      }).pass,
    ).toBe(true);
  });

  it('requires checks to exist when asked, and an advisory check does not count', () => {
    const advisory = {
      name: 'lint',
      command: 'npm run lint',
      stageId: 's',
      attempt: 1,
      outcome: 'completed',
      exitCode: 1,
      passed: false,
      advisory: true,
      sequence: 3,
      tree: base.changes.sha256,
    };
    const verdict = gateSession({
      facts: facts({ checks: [advisory] }),
      logProblem: null,
      treeDifferences: [],
      options: { requireChecks: true },
    });
    expect(verdict.reasons).toEqual(['no required check ran']);
  });
});
