import { describe, expect, it } from 'vitest';
import {
  AmbiguousCallError,
  describeCallExplanation,
  explainCall,
  UnknownCallError,
} from '../../src/core/kernel/queries/call-explanation.js';
import { parseWorkspacePolicy } from '../../src/core/policies/workspace-policy.js';
import { readCorpusEvents } from '../golden/sessions/session-corpus.js';

/** Issue #41 "Every decision explains itself": one call's outcome, from the log alone. */
describe('explainCall over recorded sessions of the frozen corpus', () => {
  it('a blocked write: the rule that fired, the mode, the policy denial, and that it did not run', () => {
    const explanation = explainCall(
      readCorpusEvents('blocked-outside-write.ndjson'),
      'implement.1.1.1',
    );
    expect(explanation.assessment).toMatchObject({ verdict: 'BLOCK', tier: 'T3' });
    expect(explanation.assessment!.findings.map((f) => `${f.ruleId}/${f.code}`)).toEqual([
      'path-containment/outside_workspace',
    ]);
    expect(explanation.mode).toBe('yolo');
    expect(explanation.decision).toMatchObject({
      outcome: 'denied',
      by: { kind: 'auto', id: 'policy' },
    });
    expect(explanation.ran).toBeNull();
    const lines = describeCallExplanation(explanation);
    expect(lines.map((line) => /^\d/.exec(line)?.[0]).filter(Boolean)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
      '6',
      '7',
    ]);
    expect(lines).toContain(
      '  path-containment block outside_workspace: path "../escape.txt" resolves to /tmp/correx-kernel-oWwb8W/escape.txt, outside the workspace',
    );
    expect(lines.at(-1)).toBe('7 ran: no');
  });

  it('a person denied an allowed call after being asked: who, why, at which tier', () => {
    const explanation = explainCall(readCorpusEvents('approval-denied.ndjson'), 'implement.1.1.1');
    expect(explanation.assessment).toMatchObject({ verdict: 'ALLOW', tier: 'T1', findings: [] });
    expect(explanation.approvalRequested).toMatchObject({ tier: 'T1' });
    expect(explanation.decision).toEqual({
      outcome: 'denied',
      by: { kind: 'human', id: 'bob' },
      reason: 'not that file',
    });
    expect(describeCallExplanation(explanation)).toContain(
      '6 decision: denied after asking at T1 by human bob: not that file',
    );
  });

  it('a call a standing grant approved names the grant, and the receipt says it ran and under which sandbox', () => {
    const events = readCorpusEvents('scoped-grants.ndjson');
    const explanation = explainCall(events, 'implement.1.2.1');
    expect(explanation.grant).toMatchObject({ grantId: 'g-command', by: 'alice' });
    expect(explanation.decision.by).toEqual({ kind: 'grant', id: 'g-command' });
    expect(explanation.ran).not.toBeNull();
    expect(describeCallExplanation(explanation)).toContain(
      '4 grant: g-command (command ["node","greet.js"]) added by alice: greet is harmless',
    );
    // The first call a person approved: no grant.
    expect(explainCall(events, 'implement.1.1.1').grant).toBeNull();
  });

  it('a policy that is not the default names the fields that differ; hidden characters are escaped', () => {
    const events = readCorpusEvents('approval-denied.ndjson');
    const explanation = explainCall(events, 'implement.1.1.1');
    expect(explanation.policy.source).toBe('operator');
    // The same session recorded under this release's default policy says so.
    const underDefault = events.map((event) =>
      event.payload.type === 'session_configured'
        ? {
            ...event,
            payload: {
              ...event.payload,
              configuration: {
                ...event.payload.configuration,
                policy: JSON.parse(JSON.stringify(parseWorkspacePolicy({}))) as Record<
                  string,
                  never
                >,
              },
            },
          }
        : event,
    );
    expect(explainCall(underDefault, 'implement.1.1.1').policy).toEqual({
      source: 'default',
      differsIn: [],
    });
    const hostile = { ...explanation, callId: 'x\u001b[2Jy' };
    expect(describeCallExplanation(hostile)[0]).not.toContain('\u001b');
  });

  it('a unique end of a call id names the call; an ambiguous one names the candidates', () => {
    const events = readCorpusEvents('cli-demo.ndjson');
    expect(explainCall(events, 'plan.1.1.2').callId).toBe('plan.1.1.2');
    expect(explainCall(events, '1.1.2').callId).toBe('plan.1.1.2');
    expect(() => explainCall(events, '[1.1]')).toThrow(AmbiguousCallError);
    expect(() => explainCall(events, '[1.1]')).toThrow(/plan\.1\.1\.1, implement\.1\.1\.1/);
  });

  it('an unknown call is a named error', () => {
    expect(() => explainCall(readCorpusEvents('approval-denied.ndjson'), 'nope.1')).toThrow(
      UnknownCallError,
    );
  });
});
