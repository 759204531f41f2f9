import type { Sha256 } from '../../base/sha256.js';
import { canonicalJson } from '../../events/canonical-json.js';
import type { CorrexEvent } from '../../event-catalog.js';
import { tierRank, type ApprovalTier } from '../../approvals/approval-tier.js';
import { isPathInside } from '../../tools/tool-path.js';

/** How an approval above T0 was given: by a person, a person's standing grant, or the operator mode. */
export type ApprovalHow = 'person' | 'grant' | 'mode' | 'policy' | 'timeout' | 'none';

export type ProvenanceApproval = {
  readonly callId: string;
  readonly tool: string;
  readonly tier: ApprovalTier;
  readonly verdict: 'ALLOW' | 'ASK' | 'BLOCK';
  readonly decision: 'granted' | 'denied' | 'undecided';
  readonly how: ApprovalHow;
  /** The person, the mode, or the grant id. */
  readonly by: string | null;
  /** For a grant: the person who added it. */
  readonly grantedBy?: string;
  /** Whether the call then ran (a receipt was recorded). */
  readonly ran: boolean;
  readonly sequence: number;
};

export type ProvenanceCheck = {
  readonly name: string;
  readonly command: string;
  readonly stageId: string;
  readonly attempt: number;
  readonly outcome: string;
  readonly exitCode: number | null;
  readonly passed: boolean;
  readonly advisory: boolean;
  readonly sequence: number;
  /** Digest of the workspace changes as recorded when the check ran (see `changeStateDigest`). */
  readonly tree: string;
};

/** One file the session changed, as its last recorded change left it (null: deleted). */
export type ChangedFile = { readonly path: string; readonly sha256: string | null };

/**
 * Everything a provenance statement says about a session that the log alone decides. Pure: the
 * same events give the same facts, so a verifier recomputes them from the log and compares.
 */
export type ProvenanceFacts = {
  readonly session: {
    readonly id: string;
    readonly task: string;
    readonly workspace: string;
    readonly mode: string;
    readonly status: string;
  };
  readonly kernel: { readonly version: number; readonly flags: readonly string[] };
  readonly configuration: {
    readonly digest: string;
    readonly workflow: { readonly id: string; readonly sha256: string };
    readonly policy: { readonly sha256: string };
    readonly files: readonly { readonly path: string; readonly sha256: string }[];
    readonly sandbox: string;
    readonly egressAllowlist: readonly string[];
  };
  readonly instructions: readonly {
    readonly scope: string;
    readonly path: string;
    readonly sha256: string;
  }[];
  readonly models: readonly {
    readonly id: string;
    readonly provider: string;
    readonly model: string;
    readonly parameters: Readonly<Record<string, unknown>>;
  }[];
  /** The profiles that answered calls, in first-use order. */
  readonly modelsUsed: readonly string[];
  readonly approvals: readonly ProvenanceApproval[];
  readonly checks: readonly ProvenanceCheck[];
  readonly changes: {
    readonly files: readonly ChangedFile[];
    readonly sha256: string;
    /** The sequence of the last recorded change (0: none). */
    readonly lastSequence: number;
  };
};

type Json = Record<string, unknown>;

const asRecord = (value: unknown): Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Json) : {};
const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
const asString = (value: unknown, fallback = ''): string =>
  typeof value === 'string' ? value : fallback;

/** A path as the statement names it: relative to the workspace when inside it. */
export function workspaceRelative(path: string, workspace: string): string {
  if (workspace !== '' && isPathInside(path, workspace) && path !== workspace)
    return path.slice(workspace.length + (workspace.endsWith('/') ? 0 : 1));
  return path;
}

/** The SHA-256 of a sorted change list: what "the tree" of a session's changes is, by content. */
export function changeStateDigest(files: readonly ChangedFile[], sha256: Sha256): string {
  return sha256(canonicalJson([...files].sort((a, b) => (a.path < b.path ? -1 : 1))));
}

/** Reads the provenance facts of a session from its events. */
export function provenanceFacts(events: readonly CorrexEvent[], sha256: Sha256): ProvenanceFacts {
  let session = { id: '', task: '', workspace: '', mode: '', status: 'running' };
  let kernel = { version: 1, flags: [] as string[] };
  let configuration: ProvenanceFacts['configuration'] = {
    digest: '',
    workflow: { id: '', sha256: '' },
    policy: { sha256: '' },
    files: [],
    sandbox: 'unstated',
    egressAllowlist: [],
  };
  let instructions: ProvenanceFacts['instructions'] = [];
  let models: ProvenanceFacts['models'] = [];
  let advisoryNames = new Set<string>();
  const egress = new Set<string>();
  const modelsUsed: string[] = [];
  const assessed = new Map<
    string,
    { tool: string; tier: ApprovalTier; verdict: 'ALLOW' | 'ASK' | 'BLOCK'; sequence: number }
  >();
  const decisions = new Map<
    string,
    { decision: 'granted' | 'denied'; kind: string; id: string; bypassed?: boolean }
  >();
  const grants = new Map<string, string>();
  const ran = new Set<string>();
  const state = new Map<string, string | null>();
  let lastChange = 0;
  const checks: ProvenanceCheck[] = [];

  for (const event of events) {
    const payload = event.payload;
    switch (payload.type) {
      case 'session_created':
        session = {
          ...session,
          id: event.sessionId,
          task: payload.task,
          workspace: payload.workspace,
          mode: payload.mode,
        };
        break;
      case 'session_configured': {
        const recorded = payload.configuration;
        const workflow = asRecord(recorded.workflow);
        const policy = asRecord(recorded.policy);
        kernel = {
          version: typeof recorded.kernelVersion === 'number' ? recorded.kernelVersion : 1,
          flags: asArray(recorded.flags).map((flag) => asString(flag)),
        };
        for (const host of asArray(policy.egressAllowlist)) egress.add(asString(host));
        configuration = {
          digest: payload.digest,
          workflow: { id: asString(workflow.id), sha256: sha256(canonicalJson(workflow)) },
          policy: { sha256: sha256(canonicalJson(policy)) },
          files: (payload.files ?? []).map((file) => ({ path: file.path, sha256: file.sha256 })),
          sandbox: asString(recorded.sandbox, 'unstated'),
          egressAllowlist: [],
        };
        instructions = asArray(recorded.instructions).map((entry) => {
          const instruction = asRecord(entry);
          return {
            scope: asString(instruction.scope),
            path: asString(instruction.path),
            sha256: asString(instruction.sha256),
          };
        });
        models = asArray(recorded.models).map((entry) => {
          const { id, provider, model, ...parameters } = asRecord(entry);
          return {
            id: asString(id),
            provider: asString(provider),
            model: asString(model),
            parameters,
          };
        });
        const checksConfig = asRecord(recorded.checks);
        advisoryNames = new Set([
          ...asArray(checksConfig.advisory).map((name) => asString(name)),
          ...asArray(checksConfig.add)
            .map(asRecord)
            .filter((added) => added.advisory === true)
            .map((added) => asString(added.name)),
        ]);
        break;
      }
      case 'egress_allowlist_changed':
        for (const host of payload.added) egress.add(host);
        for (const host of payload.removed) egress.delete(host);
        break;
      case 'inference_requested':
        if (!modelsUsed.includes(payload.profileId)) modelsUsed.push(payload.profileId);
        break;
      case 'tool_call_assessed':
        assessed.set(payload.callId, {
          tool: payload.tool,
          tier: payload.tier,
          verdict: payload.verdict,
          sequence: event.sequence,
        });
        break;
      case 'approval_granted':
        decisions.set(payload.callId, {
          decision: 'granted',
          kind: payload.by.kind,
          id: payload.by.id,
          ...(decisions.get(payload.callId)?.bypassed ? { bypassed: true } : {}),
        });
        break;
      case 'approval_denied':
        decisions.set(payload.callId, {
          decision: 'denied',
          kind: payload.by.kind,
          id: payload.by.id,
        });
        break;
      case 'approval_bypassed':
        decisions.set(payload.callId, {
          decision: 'granted',
          kind: 'auto',
          id: payload.mode,
          bypassed: true,
        });
        break;
      case 'approval_grant_added':
        grants.set(payload.grantId, payload.by);
        break;
      case 'tool_receipt':
        ran.add(payload.callId);
        for (const file of payload.files) {
          if (file.access === 'read') continue;
          state.set(workspaceRelative(file.path, session.workspace), file.after);
          lastChange = event.sequence;
        }
        break;
      case 'workspace_restored':
        for (const file of payload.files) {
          state.set(workspaceRelative(file.path, session.workspace), file.after);
          lastChange = event.sequence;
        }
        break;
      case 'dod_check_ran':
        checks.push({
          name: payload.name,
          command: payload.command,
          stageId: payload.stageId,
          attempt: payload.attempt,
          outcome: payload.outcome,
          exitCode: payload.exitCode,
          passed: payload.outcome === 'completed' && payload.exitCode === 0,
          advisory: advisoryNames.has(payload.name),
          sequence: event.sequence,
          tree: changeStateDigest(changedFiles(state), sha256),
        });
        break;
      case 'workflow_completed':
        session = { ...session, status: 'completed' };
        break;
      case 'workflow_failed':
        session = { ...session, status: 'failed' };
        break;
      case 'workflow_cancelled':
        session = { ...session, status: 'cancelled' };
        break;
      default:
        break;
    }
  }

  const approvals: ProvenanceApproval[] = [];
  for (const [callId, assessment] of assessed) {
    if (tierRank(assessment.tier) <= tierRank('T0') && assessment.verdict === 'ALLOW') continue;
    const decision = decisions.get(callId);
    const how: ApprovalHow =
      decision === undefined
        ? 'none'
        : decision.kind === 'human'
          ? 'person'
          : decision.kind === 'grant'
            ? 'grant'
            : decision.kind === 'timeout'
              ? 'timeout'
              : decision.id === 'policy'
                ? 'policy'
                : 'mode';
    const grantedBy = decision?.kind === 'grant' ? grants.get(decision.id) : undefined;
    approvals.push({
      callId,
      tool: assessment.tool,
      tier: assessment.tier,
      verdict: assessment.verdict,
      decision: decision?.decision ?? 'undecided',
      how,
      by: decision?.id ?? null,
      ...(grantedBy === undefined ? {} : { grantedBy }),
      ran: ran.has(callId),
      sequence: assessment.sequence,
    });
  }
  const files = changedFiles(state);
  return {
    session,
    kernel,
    configuration: { ...configuration, egressAllowlist: [...egress].sort() },
    instructions,
    models,
    modelsUsed,
    approvals,
    checks,
    changes: { files, sha256: changeStateDigest(files, sha256), lastSequence: lastChange },
  };
}

function changedFiles(state: ReadonlyMap<string, string | null>): ChangedFile[] {
  return [...state.entries()]
    .map(([path, sha256]) => ({ path, sha256 }))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}
