import { activeGrants, approvalGrantsProjection } from '../../core/approvals/approval-grants.js';
import type { CorrexEventStore } from '../../core/event-catalog.js';
import { replay } from '../../core/events/replay.js';
import { appendToSession, type RecordingContext } from '../../core/kernel/index.js';
import type { KernelCommand } from '../../core/kernel/index.js';
import type { SessionState } from '../../core/sessions/session-projection.js';
import { alwaysAllowScope, describeGrantScope } from '../always-allow-scope.js';
import { readApprovalDetails } from '../pending-approval-details.js';
import {
  AddGrantRequestSchema,
  AlwaysAllowRequestSchema,
  RevokeGrantRequestSchema,
  type AddGrantResponse,
  type AlwaysAllowResponse,
  type ListGrantsResponse,
} from '../protocol/grants-dto.js';
import type { CommandResponse } from '../protocol/rest-dto.js';
import { toEventDto } from '../protocol/to-event-dto.js';
import { IdentifierSchema } from '../protocol/wire-values.js';
import { ALWAYS_ALLOW_REASON, recordGrant } from '../record-grant.js';
import type { Handler, Request } from './rest-handler.js';
import { parseRequestPart as parse } from './parse-request-part.js';
import { ApiError } from './server-errors.js';

/** What the grant routes need of the REST context. */
export type GrantRouteDeps = {
  readonly store: CorrexEventStore;
  readonly recording: RecordingContext;
  sessionOf(request: Request): Promise<{ sessionId: string; session: { state: SessionState } }>;
  decider(named: string | undefined): string;
  record(request: Request, command: KernelCommand): Promise<{ body: CommandResponse }>;
};

/**
 * Standing approvals over REST: list, add and revoke grants as `correx grants`, `grant` and
 * `revoke` do, and the inbox's "always allow": the CLI prompt's exact grant, then the approval.
 */
export function grantHandlers(
  deps: GrantRouteDeps,
): Record<'alwaysAllow' | 'listGrants' | 'addGrant' | 'revokeGrant', Handler> {
  const { store, sessionOf, decider, record } = deps;
  const context = { recording: deps.recording };
  return {
    async alwaysAllow(request) {
      const { sessionId, session } = await sessionOf(request);
      const callId = parse(IdentifierSchema, request.params.callId, 'call id');
      const body = parse(AlwaysAllowRequestSchema, request.body ?? {}, 'body');
      const by = decider(body.by);
      if (!session.state.pendingApprovals.some((approval) => approval.callId === callId))
        throw new ApiError(409, 'conflict', `call ${callId} is not waiting for approval`);
      const details = (
        await readApprovalDetails(store, sessionId, [callId], {
          upToSequence: session.state.lastSequence,
        })
      ).get(callId);
      const scope =
        details === undefined || session.state.workspace === null
          ? null
          : alwaysAllowScope(details, session.state.workspace);
      if (scope === null)
        throw new ApiError(
          409,
          'conflict',
          `no single exact grant covers just call ${callId}; approve it once instead`,
        );
      const granted = await recordGrant(context.recording, store, sessionId, {
        scope,
        stageId: null,
        expiresAt: null,
        by,
        reason: ALWAYS_ALLOW_REASON,
      });
      const { body: approved } = await record(request, {
        type: 'approve',
        callId,
        by,
        reason: `always allowed: ${granted.grantId}`,
      });
      const response: AlwaysAllowResponse = {
        grantId: granted.grantId,
        scope,
        events: [toEventDto(granted.event), ...approved.events],
        refused: approved.refused,
      };
      return { body: response };
    },
    async listGrants(request) {
      const { sessionId } = await sessionOf(request);
      const { state } = await replay(store, approvalGrantsProjection, sessionId);
      const response: ListGrantsResponse = {
        grants: activeGrants(state, context.recording.clock.now()).map((grant) => ({
          grantId: grant.grantId,
          scope: grant.scope,
          description: describeGrantScope(grant.scope),
          stageId: grant.stageId,
          expiresAt: grant.expiresAt,
          by: grant.by,
          reason: grant.reason,
        })),
      };
      return { body: response };
    },
    async addGrant(request) {
      const { sessionId } = await sessionOf(request);
      const body = parse(AddGrantRequestSchema, request.body, 'body');
      const granted = await recordGrant(context.recording, store, sessionId, {
        scope: body.scope,
        stageId: body.stage ?? null,
        expiresAt: body.until === undefined ? null : new Date(body.until).toISOString(),
        by: decider(body.by),
        reason: body.reason,
      });
      const response: AddGrantResponse = {
        grantId: granted.grantId,
        event: toEventDto(granted.event),
      };
      return { body: response };
    },
    async revokeGrant(request) {
      const { sessionId } = await sessionOf(request);
      const grantId = parse(IdentifierSchema, request.params.grantId, 'grant id');
      const body = parse(RevokeGrantRequestSchema, request.body ?? {}, 'body');
      const by = decider(body.by);
      const { state } = await replay(store, approvalGrantsProjection, sessionId);
      const grant = state.grants[grantId];
      if (grant === undefined)
        throw new ApiError(404, 'not_found', `session ${sessionId} has no grant ${grantId}`);
      if (grant.revoked) throw new ApiError(409, 'conflict', `${grantId} was already revoked`);
      const event = await appendToSession(context.recording, store, sessionId, {
        type: 'approval_grant_revoked',
        grantId,
        by,
        reason: body.reason ?? 'revoked from the web page',
      });
      const response: AddGrantResponse = { grantId, event: toEventDto(event) };
      return { body: response };
    },
  };
}
