import type { WorkspacePolicy } from '../policies/workspace-policy.js';
import { execInterpreterRule, networkHostRule } from './rules/command-rules.js';
import { pathContainmentRule, referenceExistsRule } from './rules/path-rules.js';
import {
  manifestContainmentRule,
  readBeforeWriteRule,
  staleWriteRule,
  writeScopeRule,
} from './rules/write-rules.js';
import type { ToolCallRule } from './tool-call-rule.js';

/** The eight built-in plane-2 rules, in the order their findings are reported. */
export const defaultToolCallRules: readonly ToolCallRule[] = [
  pathContainmentRule,
  referenceExistsRule,
  readBeforeWriteRule,
  staleWriteRule,
  manifestContainmentRule,
  writeScopeRule,
  networkHostRule,
  execInterpreterRule,
];

/**
 * A workspace policy with its registered rules (spec: WorkspacePolicy aggregates rules and
 * configuration). New rules are registered here by the caller, never written into the assessor.
 */
export type AssessmentPolicy = {
  readonly policy: WorkspacePolicy;
  readonly rules: readonly ToolCallRule[];
};

export function createAssessmentPolicy(
  policy: WorkspacePolicy,
  rules: readonly ToolCallRule[] = defaultToolCallRules,
): AssessmentPolicy {
  const ids = new Set<string>();
  for (const rule of rules) {
    if (ids.has(rule.id)) throw new RangeError(`tool-call rule ${rule.id} registered twice`);
    ids.add(rule.id);
  }
  return { policy, rules: [...rules] };
}
