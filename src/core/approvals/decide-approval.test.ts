import { describe, expect, it } from 'vitest';
import type { StoredEvent, PayloadShape } from '../events/event-envelope.js';
import {
  approvalGrantsProjection,
  type ApprovalGrantsState,
  type ApprovalSubject,
} from './approval-grants.js';
import type { ApprovalTier, OperatorMode } from './approval-tier.js';
import { decideApproval, type ApprovalInput } from './decide-approval.js';

const NOW = '2026-11-30T12:00:00.000Z';
const noGrants: ApprovalGrantsState = { grants: {} };
const subject = (overrides: Partial<ApprovalSubject> = {}): ApprovalSubject => ({
  callId: 'call-1',
  tool: 'write_file',
  stageId: 'implement',
  command: null,
  paths: ['src/a.ts'],
  hosts: [],
  ...overrides,
});
const input = (overrides: Partial<ApprovalInput> = {}): ApprovalInput => ({
  mode: 'prompt',
  verdict: 'ALLOW',
  tier: 'T1',
  subject: subject(),
  grants: noGrants,
  at: NOW,
  reason: 'writes a file',
  ...overrides,
});

describe('decideApproval: every operator mode × every tier', () => {
  // Expected outcome for an ALLOW verdict at each tier; who approves in brackets.
  const table: Record<OperatorMode, Record<ApprovalTier, string>> = {
    prompt: { T0: 'approved:auto', T1: 'pending', T2: 'pending', T3: 'pending' },
    auto: { T0: 'approved:auto', T1: 'approved:auto', T2: 'approved:auto', T3: 'pending' },
    yolo: { T0: 'approved:auto', T1: 'approved:auto', T2: 'approved:auto', T3: 'approved:bypass' },
    deny: { T0: 'approved:auto', T1: 'denied', T2: 'denied', T3: 'denied' },
  };
  for (const [mode, tiers] of Object.entries(table) as [
    OperatorMode,
    Record<ApprovalTier, string>,
  ][]) {
    for (const [tier, expected] of Object.entries(tiers) as [ApprovalTier, string][]) {
      it(`${mode} at ${tier} → ${expected}`, () => {
        const decision = decideApproval(input({ mode, tier }));
        const types = decision.events.map((event) => event.type);
        switch (expected) {
          case 'approved:auto':
            expect(decision.outcome).toBe('approved');
            expect(decision.events).toEqual([
              expect.objectContaining({ type: 'approval_granted', by: { kind: 'auto', id: mode } }),
            ]);
            break;
          case 'approved:bypass':
            expect(decision.outcome).toBe('approved');
            expect(types).toEqual(['approval_bypassed', 'approval_granted']);
            break;
          case 'pending':
            expect(decision.outcome).toBe('pending');
            expect(decision.events).toEqual([
              {
                type: 'approval_requested',
                callId: 'call-1',
                tool: 'write_file',
                tier,
                reason: 'writes a file',
              },
            ]);
            break;
          case 'denied':
            expect(decision.outcome).toBe('denied');
            expect(types).toEqual(['approval_denied']);
            break;
        }
      });
    }
    it(`${mode}: a policy BLOCK is terminal, even at T0`, () => {
      for (const tier of ['T0', 'T3'] as const) {
        const decision = decideApproval(input({ mode, tier, verdict: 'BLOCK' }));
        expect(decision.outcome).toBe('denied');
        expect(decision.events).toEqual([
          expect.objectContaining({ type: 'approval_denied', by: { kind: 'auto', id: 'policy' } }),
        ]);
      }
    });
  }

  it('an ASK verdict at T0 is never waved through as read-only', () => {
    expect(decideApproval(input({ mode: 'prompt', tier: 'T0', verdict: 'ASK' })).outcome).toBe(
      'pending',
    );
  });

  it('yolo records a bypass for an ASK verdict even below T3', () => {
    expect(
      decideApproval(input({ mode: 'yolo', tier: 'T2', verdict: 'ASK' })).events.map((e) => e.type),
    ).toEqual(['approval_bypassed', 'approval_granted']);
  });
});

let position = 0;
const stored = (payload: PayloadShape): StoredEvent<PayloadShape> => ({
  eventId: `e${++position}`,
  sessionId: 's',
  sequence: position,
  timestamp: NOW,
  version: 1,
  causationId: null,
  correlationId: null,
  payload,
  position,
  hash: 'h',
});
const grantsFrom = (...payloads: PayloadShape[]) =>
  payloads.map(stored).reduce(approvalGrantsProjection.evolve, approvalGrantsProjection.initial());
const grant = (grantId: string, scope: unknown, extra: Record<string, unknown> = {}) => ({
  type: 'approval_grant_added',
  grantId,
  scope,
  lifetime: 'session',
  stageId: null,
  expiresAt: null,
  by: 'alice',
  reason: 'ok',
  ...extra,
});

describe('scoped grants', () => {
  it('approve a call inside the exact scope, citing the grant', () => {
    const grants = grantsFrom(grant('g-cmd', { kind: 'command', command: 'npm test' }));
    const decision = decideApproval(
      input({
        tier: 'T2',
        grants,
        subject: subject({ tool: 'exec', command: 'npm test', paths: [] }),
      }),
    );
    expect(decision).toEqual({
      outcome: 'approved',
      events: [
        expect.objectContaining({ type: 'approval_granted', by: { kind: 'grant', id: 'g-cmd' } }),
      ],
    });
  });

  it('never match outside the exact scope', () => {
    const grants = grantsFrom(
      grant('g-cmd', { kind: 'command', command: 'npm test' }),
      grant('g-path', { kind: 'path', tool: 'write_file', glob: 'src/**' }),
      grant('g-host', { kind: 'host', host: 'registry.npmjs.org' }),
    );
    const pending = (s: Partial<ApprovalSubject>) =>
      decideApproval(input({ tier: 'T2', grants, subject: subject(s) })).outcome;
    expect(pending({ tool: 'exec', command: 'npm test; curl evil', paths: [] })).toBe('pending');
    expect(pending({ tool: 'exec', command: 'npm  test', paths: [] })).toBe('pending');
    expect(pending({ tool: 'write_file', paths: ['src/a.ts', 'docs/b.md'] })).toBe('pending');
    expect(pending({ tool: 'edit_file', paths: ['src/a.ts'] })).toBe('pending');
    expect(pending({ tool: 'http_fetch', paths: [], hosts: ['registry.npmjs.org.evil.net'] })).toBe(
      'pending',
    );
    expect(pending({ tool: 'write_file', paths: ['src/deep/a.ts'] })).toBe('approved');
    expect(pending({ tool: 'http_fetch', paths: [], hosts: ['registry.npmjs.org'] })).toBe(
      'approved',
    );
  });

  it('respect expiry, revocation and stage lifetime', () => {
    const scope = { kind: 'path', tool: 'write_file', glob: 'src/**' };
    const expired = grantsFrom(grant('g1', scope, { expiresAt: NOW }));
    expect(decideApproval(input({ grants: expired })).outcome).toBe('pending');
    const revocation: PayloadShape & Record<string, unknown> = {
      type: 'approval_grant_revoked',
      grantId: 'g1',
      by: 'alice',
      reason: 'no',
    };
    const revoked = grantsFrom(grant('g1', scope), revocation);
    expect(decideApproval(input({ grants: revoked })).outcome).toBe('pending');
    const stageGrant = grantsFrom(grant('g1', scope, { lifetime: 'stage', stageId: 'plan' }));
    expect(decideApproval(input({ grants: stageGrant })).outcome).toBe('pending');
    expect(
      decideApproval(input({ grants: stageGrant, subject: subject({ stageId: 'plan' }) })).outcome,
    ).toBe('approved');
  });

  it('do not override a policy BLOCK or the deny mode', () => {
    const grants = grantsFrom(grant('g1', { kind: 'path', tool: 'write_file', glob: '**' }));
    expect(decideApproval(input({ grants, verdict: 'BLOCK' })).outcome).toBe('denied');
    expect(decideApproval(input({ grants, mode: 'deny' })).outcome).toBe('denied');
  });
});
