import { globStaticPrefix, matchGlob } from './path-glob.js';
import type { PolicyOverlay, WorkspacePolicy } from './workspace-policy.js';

/** One thing a workspace file asked for that would have widened the user's policy; it is dropped. */
export type PolicyWidening = {
  readonly field: keyof PolicyOverlay;
  readonly value: string;
  readonly reason: string;
};

export type MergedPolicy = {
  readonly policy: WorkspacePolicy;
  /** Requests that were refused; a caller may show them and ask the user to confirm by editing their own policy. */
  readonly refused: readonly PolicyWidening[];
};

const TIER_ORDER = ['T0', 'T1', 'T2', 'T3'] as const;

/**
 * Applies a repository's policy file on top of the user's policy. A workspace file may only
 * narrow: fewer programs, fewer hosts, a smaller write scope, more never-writable paths,
 * higher tiers, lower limits. Anything that would widen is dropped and reported, never applied.
 */
export function mergePolicy(user: WorkspacePolicy, workspace: PolicyOverlay): MergedPolicy {
  const refused: PolicyWidening[] = [];

  const intersect = (
    field: 'allowedExecutables' | 'egressAllowlist',
    mine: readonly string[],
    theirs: readonly string[] | undefined,
  ) => {
    if (theirs === undefined) return [...mine];
    const kept = theirs.filter((value) => mine.includes(value));
    for (const value of theirs) {
      if (!mine.includes(value))
        refused.push({ field, value, reason: 'not allowed by the user policy' });
    }
    return [...new Set(kept)];
  };

  let writeScope = user.writeScope.map((list) => [...list]);
  if (workspace.writeScope !== undefined) {
    const accepted = workspace.writeScope.filter((glob) => {
      const covered = user.writeScope.every((list) => list.some((mine) => coversGlob(mine, glob)));
      if (!covered)
        refused.push({
          field: 'writeScope',
          value: glob,
          reason: 'reaches outside the user write scope',
        });
      return covered;
    });
    // A narrowing list whose every glob was refused would widen nothing but still must narrow:
    // an empty acceptance means "nothing writable" rather than "ignore the file" — recorded as
    // an empty list (which matches no path), a form the recorded policy's schema accepts.
    writeScope = [...writeScope, accepted];
  }

  const tierOverrides: Record<string, (typeof TIER_ORDER)[number]> = { ...user.tierOverrides };
  for (const [tool, tier] of Object.entries(workspace.tierOverrides ?? {})) {
    const current = tierOverrides[tool] ?? 'T0';
    if (TIER_ORDER.indexOf(tier) >= TIER_ORDER.indexOf(current)) tierOverrides[tool] = tier;
    else
      refused.push({
        field: 'tierOverrides',
        value: `${tool}=${tier}`,
        reason: `lower than the user tier ${current}`,
      });
  }

  const lower = (
    field: 'maxCommandLength' | 'maxCommands',
    mine: number,
    theirs: number | undefined,
  ) => {
    if (theirs === undefined || theirs <= mine) return theirs ?? mine;
    refused.push({ field, value: String(theirs), reason: `higher than the user limit ${mine}` });
    return mine;
  };

  return {
    policy: {
      allowedExecutables: intersect(
        'allowedExecutables',
        user.allowedExecutables,
        workspace.allowedExecutables,
      ),
      egressAllowlist: intersect(
        'egressAllowlist',
        user.egressAllowlist,
        workspace.egressAllowlist,
      ),
      writeScope,
      neverWritable: [...new Set([...user.neverWritable, ...(workspace.neverWritable ?? [])])],
      tierOverrides,
      maxCommandLength: lower(
        'maxCommandLength',
        user.maxCommandLength,
        workspace.maxCommandLength,
      ),
      maxCommands: lower('maxCommands', user.maxCommands, workspace.maxCommands),
      // Only the user's file may set these; a workspace overlay has no say in them.
      ...(user.unsandboxedExecTier === undefined
        ? {}
        : { unsandboxedExecTier: user.unsandboxedExecTier }),
      ...(user.sandboxReadablePaths === undefined
        ? {}
        : { sandboxReadablePaths: [...user.sandboxReadablePaths] }),
      ...(user.approvalTimeoutMs === undefined
        ? {}
        : { approvalTimeoutMs: user.approvalTimeoutMs }),
      ...(user.writeBudgetBytes === undefined ? {} : { writeBudgetBytes: user.writeBudgetBytes }),
    },
    refused,
  };
}

/**
 * Conservatively decides whether every path `inner` can match is also matched by `outer`:
 * identical globs, `outer` is `prefix/**` and `inner` lies under that prefix, or `inner` has
 * no wildcard and `outer` matches it. Anything else counts as not covered.
 */
function coversGlob(outer: string, inner: string): boolean {
  if (outer === inner) return true;
  if (!/[*?]/.test(inner)) return matchGlob(outer, inner);
  if (outer.endsWith('/**') || outer === '**') {
    const prefix = outer === '**' ? '' : outer.slice(0, -3);
    if (/[*?]/.test(prefix)) return false;
    const innerPrefix = globStaticPrefix(inner);
    return prefix === '' || innerPrefix === prefix || innerPrefix.startsWith(`${prefix}/`);
  }
  return false;
}
