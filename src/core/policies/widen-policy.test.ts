import { describe, expect, it } from 'vitest';
import { mergePolicy } from './merge-policy.js';
import { widenPolicy } from './widen-policy.js';
import { WorkspacePolicySchema } from './workspace-policy.js';

describe('widenPolicy', () => {
  it('grants exactly what a trusted overlay asked for beyond the user policy', () => {
    const user = WorkspacePolicySchema.parse({
      allowedExecutables: ['git'],
      egressAllowlist: [],
      writeScope: [['src/**']],
      tierOverrides: { exec: 'T2' },
      maxCommands: 8,
    });
    const merged = mergePolicy(user, {
      allowedExecutables: ['git', 'curl'],
      egressAllowlist: ['pkg.example'],
      writeScope: ['src/**', 'docs/**'],
      tierOverrides: { exec: 'T1' },
      maxCommands: 16,
    });
    expect(merged.refused.map((refusal) => refusal.field).sort()).toEqual([
      'allowedExecutables',
      'egressAllowlist',
      'maxCommands',
      'tierOverrides',
      'writeScope',
    ]);
    const widened = widenPolicy(merged.policy, merged.refused);
    expect(widened.allowedExecutables).toEqual(['git', 'curl']);
    expect(widened.egressAllowlist).toEqual(['pkg.example']);
    expect(widened.writeScope.every((list) => list.includes('docs/**'))).toBe(true);
    expect(widened.tierOverrides.exec).toBe('T1');
    expect(widened.maxCommands).toBe(16);
    expect(widenPolicy(merged.policy, [])).toEqual(merged.policy);
  });
});
