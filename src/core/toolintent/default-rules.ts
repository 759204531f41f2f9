import {
  DEFAULT_UNSANDBOXED_EXEC_TIER,
  type WorkspacePolicy,
} from '../policies/workspace-policy.js';
import { hasCapability } from '../tools/tool-contract.js';
import type { SandboxKind } from '../policies/sandbox-profile.js';
import { finding } from './finding.js';
import { execInterpreterRule, networkHostRule } from './rules/command-rules.js';
import { neverReadableRule } from './rules/never-readable-rule.js';
import { pathContainmentRule, referenceExistsRule } from './rules/path-rules.js';
import {
  manifestContainmentRule,
  readBeforeWriteRule,
  staleWriteRule,
  writeBudgetRule,
  writeScopeRule,
} from './rules/write-rules.js';
import { targetKindRule } from './rules/target-kind-rule.js';
import type { ToolCallRule } from './tool-call-rule.js';
import { flagSet, type BehaviourFlags } from '../base/behaviour-flag.js';
import { toolIntentFlags } from './toolintent-flags.js';

/**
 * The built-in plane-2 rules, in the order their findings are reported: the spec's eight, then
 * target-kind and never-readable (each applies only to sessions recorded with its flags).
 */
export const defaultToolCallRules: readonly ToolCallRule[] = [
  pathContainmentRule,
  referenceExistsRule,
  readBeforeWriteRule,
  staleWriteRule,
  manifestContainmentRule,
  writeScopeRule,
  writeBudgetRule,
  networkHostRule,
  execInterpreterRule,
  targetKindRule,
  neverReadableRule,
];

const UNSANDBOXED = 'unsandboxed-exec';

/**
 * Registered only when the machine has no sandbox: every call that starts a process gets an
 * `info` finding at the policy's unsandboxed tier (default T3), so the approval engine asks
 * where it would otherwise have let a sandboxed command run, and the assessment says why.
 */
export const unsandboxedExecRule: ToolCallRule = {
  id: UNSANDBOXED,
  appliesTo: (context) => hasCapability(context.tool, 'EXECUTES'),
  evaluate: (context) => [
    finding(
      UNSANDBOXED,
      'info',
      'no_sandbox',
      'no sandbox confines processes on this machine: the command runs with the full rights of the user',
      context.policy.unsandboxedExecTier ?? DEFAULT_UNSANDBOXED_EXEC_TIER,
    ),
  ],
};

/**
 * A workspace policy with its registered rules (spec: WorkspacePolicy aggregates rules and
 * configuration). New rules are registered here by the caller, never written into the assessor.
 * `sandbox` is the confinement the session's processes run under; undefined means the caller
 * did not say (no tier raise), so every production composition passes it explicitly.
 */
export type AssessmentPolicy = {
  readonly policy: WorkspacePolicy;
  readonly rules: readonly ToolCallRule[];
  readonly sandbox?: SandboxKind;
  /** The behaviour flags rules branch on: the session's recorded ones (see core/kernel/config/behaviour.ts). */
  readonly flags: BehaviourFlags;
};

export type AssessmentPolicyOptions = {
  readonly sandbox?: SandboxKind;
  /** Default: every plane-2 flag this release knows (today's behaviour). */
  readonly flags?: BehaviourFlags;
};

export function createAssessmentPolicy(
  policy: WorkspacePolicy,
  rules: readonly ToolCallRule[] = defaultToolCallRules,
  options: AssessmentPolicyOptions = {},
): AssessmentPolicy {
  const registered =
    options.sandbox === 'none' && !rules.includes(unsandboxedExecRule)
      ? [...rules, unsandboxedExecRule]
      : [...rules];
  const ids = new Set<string>();
  for (const rule of registered) {
    if (ids.has(rule.id)) throw new RangeError(`tool-call rule ${rule.id} registered twice`);
    ids.add(rule.id);
  }
  return {
    policy,
    rules: registered,
    ...(options.sandbox === undefined ? {} : { sandbox: options.sandbox }),
    flags: options.flags ?? flagSet(toolIntentFlags),
  };
}
