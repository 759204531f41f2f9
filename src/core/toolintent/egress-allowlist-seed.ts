import type { BehaviourFlags } from '../base/behaviour-flag.js';
import type { PayloadOf } from '../events/event-definition.js';
import type { WorkspacePolicy } from '../policies/workspace-policy.js';
import type { egressAllowlistChanged } from './toolintent-events.js';
import { EGRESS_ALLOWLIST_FROM_POLICY } from './toolintent-flags.js';

/** Who seeds the allowlist from the recorded policy (never a person, never a model). */
export const POLICY_SEED_AUTHOR = 'policy';

/**
 * The events that seed a new session's egress allowlist from its recorded policy: one
 * `egress_allowlist_changed` adding the policy's hosts (sorted, each once), or none when the
 * policy allows no host or the session runs without EGRESS_ALLOWLIST_FROM_POLICY.
 */
export function egressAllowlistSeed(
  policy: WorkspacePolicy,
  flags: BehaviourFlags,
): PayloadOf<typeof egressAllowlistChanged>[] {
  if (!flags.has(EGRESS_ALLOWLIST_FROM_POLICY.name)) return [];
  const hosts = [...new Set(policy.egressAllowlist)].sort();
  if (hosts.length === 0) return [];
  return [
    {
      type: 'egress_allowlist_changed',
      added: hosts,
      removed: [],
      by: POLICY_SEED_AUTHOR,
      reason: 'seeded from the egressAllowlist of the recorded policy at session start',
    },
  ];
}
