import type { ProvenanceFacts } from '../../core/kernel/index.js';
import type { TreeUnderReview } from './tree-under-review.js';

export const STATEMENT_TYPE = 'https://in-toto.io/Statement/v1';
/** correx's predicate: what a session did, as its log says (docs/provenance.md). */
export const CORREX_PREDICATE_TYPE = 'https://correx.dev/provenance/session/v1';

export type ResourceDescriptor = {
  readonly name: string;
  readonly digest: Readonly<Record<string, string>>;
};

export type SessionStatement = {
  readonly _type: typeof STATEMENT_TYPE;
  readonly subject: readonly ResourceDescriptor[];
  readonly predicateType: typeof CORREX_PREDICATE_TYPE;
  readonly predicate: SessionPredicate;
};

/** The git side of a worktree session's change, as it stood when attested. */
export type GitFacts = {
  readonly branch: string;
  readonly baseRef: string;
  readonly baseCommit: string | null;
  readonly commit: string;
  readonly tree: string;
};

/** The log-derived facts, plus what only the attesting correx and git know. */
export type SessionPredicate = Omit<ProvenanceFacts, 'kernel'> & {
  readonly correx: {
    readonly version: string;
    readonly kernelVersion: number;
    readonly flags: readonly string[];
  };
  readonly git: GitFacts | null;
  readonly log: { readonly headHash: string; readonly events: number };
};

/**
 * An in-toto Statement v1 about a session's change. The subject is the change's final state: the
 * branch head's commit and tree in worktree mode, else each changed file that exists by SHA-256;
 * always also the digest of the log's record of the change (path → content, see
 * `changeStateDigest`), which ties the subject to the log.
 */
export function buildSessionStatement(options: {
  readonly facts: ProvenanceFacts;
  readonly head: { readonly headHash: string; readonly events: number };
  readonly tree: TreeUnderReview;
  readonly correxVersion: string;
}): SessionStatement {
  const { facts, tree } = options;
  const git: GitFacts | null =
    tree.kind === 'git'
      ? {
          branch: tree.branch,
          baseRef: tree.baseRef,
          baseCommit: tree.baseCommit,
          commit: tree.commit,
          tree: tree.tree,
        }
      : null;
  const subject: ResourceDescriptor[] =
    git !== null
      ? [{ name: git.branch, digest: { gitCommit: git.commit, gitTree: git.tree } }]
      : facts.changes.files
          .filter((file) => file.sha256 !== null)
          .map((file) => ({ name: file.path, digest: { sha256: file.sha256! } }));
  subject.push({
    name: `correx-changes:${facts.session.id}`,
    digest: { sha256: facts.changes.sha256 },
  });
  const { kernel, ...rest } = facts;
  return {
    _type: STATEMENT_TYPE,
    subject,
    predicateType: CORREX_PREDICATE_TYPE,
    predicate: {
      correx: {
        version: options.correxVersion,
        kernelVersion: kernel.version,
        flags: kernel.flags,
      },
      ...rest,
      git,
      log: options.head,
    },
  };
}

/** The predicate's log-decided parts, in the same shape as `buildSessionStatement` writes them. */
export function expectedFromLog(
  facts: ProvenanceFacts,
  head: { readonly headHash: string; readonly events: number },
): Record<string, unknown> {
  const { kernel, ...rest } = facts;
  return { kernelVersion: kernel.version, flags: kernel.flags, ...rest, log: head };
}

/** The same parts read back from a statement's predicate. */
export function statedLogFacts(predicate: Record<string, unknown>): Record<string, unknown> {
  const { correx, git: _git, ...rest } = predicate;
  const stated = (typeof correx === 'object' && correx !== null ? correx : {}) as Record<
    string,
    unknown
  >;
  return { kernelVersion: stated.kernelVersion, flags: stated.flags, ...rest };
}

/**
 * Where two JSON values differ, as `path: stated X, log Y` lines (at most `limit`), so a
 * verifier names the very fact that does not match.
 */
export function jsonDifferences(
  stated: unknown,
  actual: unknown,
  path = 'predicate',
  limit = 20,
  found: string[] = [],
): string[] {
  if (found.length >= limit) return found;
  if (Array.isArray(stated) && Array.isArray(actual)) {
    if (stated.length !== actual.length)
      found.push(`${path}: the statement has ${stated.length} entries, the log ${actual.length}`);
    const length = Math.min(stated.length, actual.length);
    for (let index = 0; index < length; index++)
      jsonDifferences(stated[index], actual[index], `${path}[${index}]`, limit, found);
    return found;
  }
  if (isObject(stated) && isObject(actual)) {
    const keys = [...new Set([...Object.keys(stated), ...Object.keys(actual)])].sort();
    for (const key of keys)
      jsonDifferences(stated[key], actual[key], `${path}.${key}`, limit, found);
    return found;
  }
  if (JSON.stringify(stated) !== JSON.stringify(actual))
    found.push(`${path}: the statement says ${short(stated)}, the log says ${short(actual)}`);
  return found;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function short(value: unknown): string {
  const text = JSON.stringify(value) ?? 'nothing';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
