import { describe, expect, it } from 'vitest';
import { parseWorkspacePolicy } from '../policies/workspace-policy.js';
import { egressAllowlistSeed } from './egress-allowlist-seed.js';
import { EGRESS_ALLOWLIST_FROM_POLICY } from './toolintent-flags.js';
import { toolSessionProjection } from './tool-session-projection.js';

const flagged = new Set([EGRESS_ALLOWLIST_FROM_POLICY.name]);

describe('egressAllowlistSeed', () => {
  it("adds the policy's hosts once, sorted, by policy; the projection then allows them", () => {
    const policy = parseWorkspacePolicy({ egressAllowlist: ['z.test', '*.pkg.test', 'z.test'] });
    const seed = egressAllowlistSeed(policy, flagged);
    expect(seed).toEqual([
      expect.objectContaining({ added: ['*.pkg.test', 'z.test'], removed: [], by: 'policy' }),
    ]);
    const state = toolSessionProjection.evolve(toolSessionProjection.initial(), {
      payload: seed[0]!,
    } as never);
    expect(state.egressAllowlist).toEqual(['*.pkg.test', 'z.test']);
  });

  it('seeds nothing for an empty allowlist, or for a session recorded without the flag', () => {
    expect(egressAllowlistSeed(parseWorkspacePolicy({}), flagged)).toEqual([]);
    const policy = parseWorkspacePolicy({ egressAllowlist: ['allowed.test'] });
    expect(egressAllowlistSeed(policy, new Set())).toEqual([]);
  });
});
