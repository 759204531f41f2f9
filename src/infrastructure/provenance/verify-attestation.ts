import type { KeyObject } from 'node:crypto';
import type { ChainVerification } from '../../core/events/hash-chain.js';
import type { CorrexEvent } from '../../core/event-catalog.js';
import { provenanceFacts } from '../../core/kernel/index.js';
import { nodeSha256 } from '../system/node-sha256.js';
import {
  IN_TOTO_PAYLOAD_TYPE,
  keyIdOf,
  verifyEnvelope,
  type DsseEnvelope,
} from './dsse-envelope.js';
import {
  CORREX_PREDICATE_TYPE,
  expectedFromLog,
  jsonDifferences,
  STATEMENT_TYPE,
  statedLogFacts,
} from './session-statement.js';
import { contentDigests, gitChangedPaths, type TreeUnderReview } from './tree-under-review.js';

/** One thing a verification looked at: held, did not hold (with what differs), or could not be checked. */
export type VerificationItem = {
  readonly what: 'statement' | 'signature' | 'log' | 'predicate' | 'tree';
  readonly status: 'ok' | 'failed' | 'unchecked';
  readonly detail: string;
};

export type AttestationVerification = {
  /** No item failed (unchecked ones are reported, not failures). */
  readonly ok: boolean;
  readonly sessionId: string | null;
  readonly items: readonly VerificationItem[];
};

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The statement an envelope carries, or why it is not a correx session statement. */
export function decodeStatement(envelope: DsseEnvelope): { statement: Json } | { problem: string } {
  if (envelope.payloadType !== IN_TOTO_PAYLOAD_TYPE)
    return { problem: `payloadType is ${envelope.payloadType}, not ${IN_TOTO_PAYLOAD_TYPE}` };
  let statement: unknown;
  try {
    statement = JSON.parse(Buffer.from(envelope.payload, 'base64').toString('utf8'));
  } catch {
    return { problem: 'the payload is not JSON' };
  }
  if (!isObject(statement)) return { problem: 'the payload is not a JSON object' };
  if (statement._type !== STATEMENT_TYPE)
    return { problem: `_type is ${String(statement._type)}, not ${STATEMENT_TYPE}` };
  if (statement.predicateType !== CORREX_PREDICATE_TYPE)
    return {
      problem: `predicateType is ${String(statement.predicateType)}, not ${CORREX_PREDICATE_TYPE}`,
    };
  if (!isObject(statement.predicate) || !Array.isArray(statement.subject))
    return { problem: 'the statement has no predicate object or no subject list' };
  return { statement };
}

/** The session a statement is about, as it says. */
export function statedSessionId(statement: Json): string | null {
  const predicate = statement.predicate as Json;
  const session = predicate.session;
  return isObject(session) && typeof session.id === 'string' ? session.id : null;
}

/**
 * Checks a signed statement: the signature (with a public key), then, with the session's log,
 * that the log's chain holds and every fact of the predicate is what the log says, then, with
 * the tree at hand, that the subject is the tree as it stands. What cannot be checked is said.
 */
export function verifyAttestation(input: {
  readonly envelope: DsseEnvelope;
  readonly publicKey: KeyObject | null;
  readonly log:
    | { readonly events: readonly CorrexEvent[]; readonly chain: ChainVerification }
    | { readonly missing: string };
  readonly tree: TreeUnderReview | null;
}): AttestationVerification {
  const items: VerificationItem[] = [];
  const decoded = decodeStatement(input.envelope);
  if ('problem' in decoded) {
    items.push({ what: 'statement', status: 'failed', detail: decoded.problem });
    return { ok: false, sessionId: null, items };
  }
  const statement = decoded.statement;
  const predicate = statement.predicate as Json;
  const sessionId = statedSessionId(statement);
  items.push({
    what: 'statement',
    status: 'ok',
    detail: `in-toto Statement v1 about session ${sessionId ?? '?'}`,
  });

  if (input.publicKey === null)
    items.push({
      what: 'signature',
      status: 'unchecked',
      detail: 'no public key given (--public-key)',
    });
  else if (verifyEnvelope(input.envelope, input.publicKey))
    items.push({
      what: 'signature',
      status: 'ok',
      detail: `signed by key ${keyIdOf(input.publicKey).slice(0, 16)}`,
    });
  else
    items.push({
      what: 'signature',
      status: 'failed',
      detail: `no signature over this payload verifies with key ${keyIdOf(input.publicKey).slice(0, 16)} (the statement or its signature was changed, or another key signed it)`,
    });

  items.push(...checkLog(input.log, statement, predicate));
  items.push(...checkTree(input.tree, statement, predicate));
  return { ok: items.every((item) => item.status !== 'failed'), sessionId, items };
}

function checkLog(
  log:
    | { readonly events: readonly CorrexEvent[]; readonly chain: ChainVerification }
    | { readonly missing: string },
  statement: Json,
  predicate: Json,
): VerificationItem[] {
  if ('missing' in log)
    return [
      { what: 'log', status: 'unchecked', detail: `the log's head: ${log.missing}` },
      {
        what: 'predicate',
        status: 'unchecked',
        detail: `the predicate's facts (approvals, checks, configuration, changes): ${log.missing}`,
      },
    ];
  const { chain } = log;
  if (!chain.ok)
    return [
      {
        what: 'log',
        status: 'failed',
        detail: `the log's hash chain breaks at sequence ${chain.sequence}: ${chain.detail}`,
      },
      {
        what: 'predicate',
        status: 'unchecked',
        detail: 'the predicate cannot be compared with a broken log',
      },
    ];
  const items: VerificationItem[] = [];
  const stated = isObject(predicate.log) ? predicate.log : {};
  if (stated.headHash !== chain.headHash || stated.events !== chain.lastSequence)
    items.push({
      what: 'log',
      status: 'failed',
      detail: `the log's head differs: the statement says ${String(stated.headHash).slice(0, 16)} after ${String(stated.events)} events, the log has ${chain.headHash.slice(0, 16)} after ${chain.lastSequence}`,
    });
  else
    items.push({
      what: 'log',
      status: 'ok',
      detail: `head ${chain.headHash.slice(0, 16)} after ${chain.lastSequence} events`,
    });

  const facts = provenanceFacts(log.events, nodeSha256);
  const differences = jsonDifferences(
    statedLogFacts(predicate),
    expectedFromLog(facts, { headHash: chain.headHash, events: chain.lastSequence }),
  );
  const changes = (statement.subject as unknown[]).find(
    (entry) =>
      isObject(entry) && typeof entry.name === 'string' && entry.name.startsWith('correx-changes:'),
  ) as Json | undefined;
  const statedChanges = isObject(changes?.digest) ? changes.digest.sha256 : undefined;
  if (statedChanges !== facts.changes.sha256)
    differences.push(
      `subject correx-changes: the statement says ${String(statedChanges).slice(0, 16)}, the log's changes digest to ${facts.changes.sha256.slice(0, 16)}`,
    );
  items.push(
    differences.length === 0
      ? { what: 'predicate', status: 'ok', detail: 'every fact matches the log' }
      : { what: 'predicate', status: 'failed', detail: differences.join('; ') },
  );
  return items;
}

function checkTree(
  tree: TreeUnderReview | null,
  statement: Json,
  predicate: Json,
): VerificationItem[] {
  if (tree === null || tree.kind === 'absent')
    return [
      {
        what: 'tree',
        status: 'unchecked',
        detail: `the tree: the workspace ${tree?.path ?? '(unknown)'} is not at hand`,
      },
    ];
  const subject = (statement.subject as unknown[]).filter(isObject);
  const git = isObject(predicate.git) ? predicate.git : null;
  if (tree.kind === 'git') {
    if (git === null)
      return [
        {
          what: 'tree',
          status: 'failed',
          detail: 'the statement names no git commit, but the session has a worktree',
        },
      ];
    const differences: string[] = [];
    if (git.commit !== tree.commit || git.tree !== tree.tree) {
      const files = (() => {
        try {
          return gitChangedPaths(tree.location, String(git.commit), tree.commit);
        } catch {
          // The stated commit is not in this repository: nothing to name file by file.
          return [];
        }
      })();
      differences.push(
        `${tree.branch} is at ${tree.commit.slice(0, 12)} (tree ${tree.tree.slice(0, 12)}), the statement names ${String(git.commit).slice(0, 12)} (tree ${String(git.tree).slice(0, 12)})${files.length > 0 ? `; files that differ: ${files.join(', ')}` : ''}`,
      );
    }
    for (const path of tree.uncommitted)
      differences.push(`${path} changed in the worktree and not committed`);
    return [
      differences.length === 0
        ? {
            what: 'tree',
            status: 'ok',
            detail: `${tree.branch} is at ${tree.commit.slice(0, 12)}, as stated`,
          }
        : { what: 'tree', status: 'failed', detail: differences.join('; ') },
    ];
  }
  const files = subject.filter(
    (entry) => typeof entry.name === 'string' && !entry.name.startsWith('correx-changes:'),
  );
  const now = contentDigests(
    tree,
    files.map((entry) => String(entry.name)),
  );
  const differences = files
    .filter(
      (entry) =>
        (isObject(entry.digest) ? entry.digest.sha256 : undefined) !== now.get(String(entry.name)),
    )
    .map((entry) => `${String(entry.name)} differs from the statement's digest`);
  return [
    differences.length === 0
      ? { what: 'tree', status: 'ok', detail: `${files.length} file(s) in ${tree.path} as stated` }
      : { what: 'tree', status: 'failed', detail: differences.join('; ') },
  ];
}
