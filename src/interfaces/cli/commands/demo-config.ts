import { createInferenceRouter } from '../../../core/inference/inference-router.js';
import { createKernelConfig, type KernelConfig } from '../../../core/kernel/index.js';
import {
  DEFAULT_NEVER_WRITABLE,
  parseWorkspacePolicy,
} from '../../../core/policies/workspace-policy.js';
import {
  createAssessmentPolicy,
  defaultToolCallRules,
} from '../../../core/toolintent/default-rules.js';
import { builtinTools } from '../../../core/tools/builtin-tools.js';
import type { SandboxKind } from '../../../core/policies/sandbox-profile.js';
import { createDefaultCodingWorkflow } from '../../../core/transitions/default-coding-workflow.js';
import { createDefaultValidatorRegistry } from '../../../core/validation/default-validators.js';
import { nodeSha256 } from '../../../infrastructure/system/node-sha256.js';

/** The provider name and model profile the demo's scripted model answers as. */
export const DEMO_PROVIDER = 'scripted';

export const DEMO_WORKFLOW_ID = 'default-coding';

export const DEMO_TASK =
  'The tests of this project fail: median([10, 9, 2]) returns 2 instead of 9. Fix src/median.js so that `node --test` passes.';

/**
 * The kernel configuration of a demo session: the built-in default workflow, the built-in tools,
 * the default policy (which lets `exec` run `node`) with correx's home added to the paths no tool
 * may write. A replay must build it from the same two directories (both real paths) and the
 * same sandbox kind. Unsandboxed, exec stays at its own tier T2 (instead of the default T3) so
 * that `auto` mode runs the bundled, trusted script's `node --test`; the assessment still
 * records that the command ran without a sandbox.
 */
export function demoKernelConfig(options: {
  readonly homeDirectory: string;
  readonly correxHome: string;
  /** The sandbox the session's commands run under; undefined only where no one has said. */
  readonly sandbox?: SandboxKind;
}): KernelConfig {
  const policy = parseWorkspacePolicy({
    neverWritable: [...DEFAULT_NEVER_WRITABLE, `${options.correxHome}/**`],
    unsandboxedExecTier: 'T2',
  });
  return createKernelConfig({
    workflow: createDefaultCodingWorkflow(),
    tools: builtinTools,
    policy: createAssessmentPolicy(
      policy,
      defaultToolCallRules,
      options.sandbox === undefined ? {} : { sandbox: options.sandbox },
    ),
    router: createInferenceRouter({
      profiles: [
        {
          id: 'demo',
          provider: DEMO_PROVIDER,
          model: 'scripted-demo',
          capabilities: ['tool_calling', 'json_output'],
          contextWindow: 64_000,
          maxOutputTokens: 2_000,
        },
      ],
    }),
    validators: createDefaultValidatorRegistry(),
    homeDirectory: options.homeDirectory,
    sha256: nodeSha256,
  });
}
