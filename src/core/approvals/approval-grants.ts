import type { PayloadShape, StoredEvent } from '../events/event-envelope.js';
import type { PayloadOf } from '../events/event-definition.js';
import type { Projection } from '../events/projection.js';
import { matchGlob } from '../policies/path-glob.js';
import type { approvalGrantAdded, approvalGrantRevoked, GrantScope } from './approval-events.js';

/** A grant as the projection holds it. */
export type ApprovalGrant = Omit<PayloadOf<typeof approvalGrantAdded>, 'type'> & {
  readonly revoked: boolean;
};

export type ApprovalGrantsState = { readonly grants: Readonly<Record<string, ApprovalGrant>> };

/** Grants rebuilt from `approval_grant_added` / `approval_grant_revoked` events. */
export const approvalGrantsProjection: Projection<ApprovalGrantsState, PayloadShape> = {
  name: 'approval-grants',
  version: 1,
  initial: () => ({ grants: {} }),
  evolve(state, event: StoredEvent<PayloadShape>) {
    const payload = event.payload;
    if (payload.type === 'approval_grant_added') {
      const { type: _type, ...grant } = payload as PayloadOf<typeof approvalGrantAdded>;
      return { grants: { ...state.grants, [grant.grantId]: { ...grant, revoked: false } } };
    }
    if (payload.type === 'approval_grant_revoked') {
      const { grantId } = payload as PayloadOf<typeof approvalGrantRevoked>;
      const existing = state.grants[grantId];
      if (existing === undefined) return state;
      return { grants: { ...state.grants, [grantId]: { ...existing, revoked: true } } };
    }
    return state;
  },
};

/**
 * The facts about a call that grants are matched against, built from its assessment.
 * `paths` are real paths (workspace-relative when inside the workspace, else absolute).
 */
export type ApprovalSubject = {
  readonly callId: string;
  readonly tool: string;
  readonly stageId: string;
  /** The exact shell line, or the argv joined as JSON, for `exec`; null otherwise. */
  readonly command: string | null;
  readonly paths: readonly string[];
  readonly hosts: readonly string[];
};

/** Grants in force at `at` (a recorded timestamp): not revoked, not expired. */
export function activeGrants(state: ApprovalGrantsState, at: string): ApprovalGrant[] {
  return Object.values(state.grants)
    .filter((grant) => !grant.revoked && (grant.expiresAt === null || at < grant.expiresAt))
    .sort((a, b) => (a.grantId < b.grantId ? -1 : a.grantId > b.grantId ? 1 : 0));
}

/**
 * The first active grant whose scope covers the whole call, or undefined. Nothing outside the
 * exact scope matches: a command grant needs the identical line, a path grant needs every path
 * of the call under its glob for the same tool and no command, a host grant needs every host
 * equal and no paths or command.
 */
export function findCoveringGrant(
  state: ApprovalGrantsState,
  subject: ApprovalSubject,
  at: string,
): ApprovalGrant | undefined {
  return activeGrants(state, at).find(
    (grant) =>
      (grant.lifetime === 'session' || grant.stageId === subject.stageId) &&
      scopeCovers(grant.scope, subject),
  );
}

function scopeCovers(scope: GrantScope, subject: ApprovalSubject): boolean {
  switch (scope.kind) {
    case 'command':
      return subject.tool === 'exec' && subject.command === scope.command;
    case 'path':
      return (
        subject.tool === scope.tool &&
        subject.command === null &&
        subject.hosts.length === 0 &&
        subject.paths.length > 0 &&
        subject.paths.every((path) => matchGlob(scope.glob, path))
      );
    case 'host':
      return (
        subject.command === null &&
        subject.paths.length === 0 &&
        subject.hosts.length > 0 &&
        subject.hosts.every((host) => host === scope.host)
      );
  }
}
