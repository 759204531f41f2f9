import { ModelCapabilitySchema, type ModelCapability } from '../../inference/model-capability.js';
import type { ModelProfile } from '../../inference/model-profile.js';
import type { ToolDefinition as ToolContract } from '../../tools/tool-contract.js';
import type { WorkflowStage } from '../../transitions/workflow.js';
import type { KernelConfig } from '../config/kernel-config.js';

/** The model profile that serves `stage`, and the stage's tools. */
export function routeStage(
  config: KernelConfig,
  stage: WorkflowStage,
):
  | { readonly ok: true; readonly profile: ModelProfile; readonly tools: readonly ToolContract[] }
  | { readonly ok: false; readonly message: string } {
  const tools = stage.allowedTools.flatMap((name) => {
    const tool = config.tools.get(name);
    return tool === undefined ? [] : [tool];
  });
  const route = config.router.route({
    stageId: stage.id,
    requiredCapabilities: stage.capabilities.filter(isCapability),
    allowedTools: tools.map((tool) => tool.name),
  });
  if (route.ok) return { ok: true, profile: route.profile, tools };
  const why = route.rejections
    .map((r) => `${r.profileId}: missing ${r.missingCapabilities.join(', ') || 'nothing'}`)
    .join('; ');
  return {
    ok: false,
    message: `no model profile can serve stage ${stage.id} (needs ${route.requiredCapabilities.join(', ')}): ${why || 'no profiles configured'}`,
  };
}

function isCapability(value: string): value is ModelCapability {
  return ModelCapabilitySchema.safeParse(value).success;
}
