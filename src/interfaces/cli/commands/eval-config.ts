import { createInferenceRouter } from '../../../core/inference/inference-router.js';
import { createKernelConfig, type KernelConfig } from '../../../core/kernel/index.js';
import type { SandboxKind } from '../../../core/policies/sandbox-profile.js';
import {
  DEFAULT_NEVER_WRITABLE,
  parseWorkspacePolicy,
} from '../../../core/policies/workspace-policy.js';
import {
  createAssessmentPolicy,
  defaultToolCallRules,
} from '../../../core/toolintent/default-rules.js';
import { builtinTools } from '../../../core/tools/builtin-tools.js';
import { createDefaultCodingWorkflow } from '../../../core/transitions/default-coding-workflow.js';
import { createDefaultValidatorRegistry } from '../../../core/validation/default-validators.js';
import { nodeSha256 } from '../../../infrastructure/system/node-sha256.js';

/** The provider name a scripted eval model answers as. */
export const SCRIPTED_PROVIDER = 'scripted';

/**
 * The kernel configuration of one `eval run` of a scripted model: the demo's (the built-in
 * default workflow and tools, the default policy with correx's home never writable, exec at T2
 * without a sandbox so auto mode runs the project's tests), its one profile named for the model.
 */
export function evalKernelConfig(options: {
  readonly model: string;
  readonly homeDirectory: string;
  readonly correxHome: string;
  readonly sandbox: SandboxKind;
}): KernelConfig {
  const policy = parseWorkspacePolicy({
    neverWritable: [...DEFAULT_NEVER_WRITABLE, `${options.correxHome}/**`],
    unsandboxedExecTier: 'T2',
  });
  return createKernelConfig({
    workflow: createDefaultCodingWorkflow(),
    tools: builtinTools,
    policy: createAssessmentPolicy(policy, defaultToolCallRules, { sandbox: options.sandbox }),
    router: createInferenceRouter({
      profiles: [
        {
          id: options.model,
          provider: SCRIPTED_PROVIDER,
          model: `scripted-${options.model}`,
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
