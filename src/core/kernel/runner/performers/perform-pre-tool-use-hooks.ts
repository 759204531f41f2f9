import type { EffectPerformer } from './effect-performer.js';

/** Runs the user's `pre_tool_use` hooks on a judged call (each fails closed when no hook runner is wired). */
export const performPreToolUseHooks: EffectPerformer<'run_pre_tool_use_hooks'> = async (
  options,
  state,
  effect,
  signal,
) => {
  const { config, ports } = options;
  const hooks = (config.hooks?.pre_tool_use ?? []).filter((hook) =>
    effect.hooks.includes(hook.name),
  );
  const input = {
    event: 'pre_tool_use',
    sessionId: state.session.sessionId,
    stageId: effect.stageId,
    callId: effect.callId,
    tool: effect.tool,
    args: effect.args,
    tier: effect.tier,
    findings: effect.findings,
    targets: effect.targets,
  };
  const results =
    ports.hooks === undefined
      ? hooks.map((hook) => ({
          hook: hook.name,
          outcome: 'failed_to_start' as const,
          decision: 'block' as const,
          tier: null,
          reason: 'this runner has no hook runner wired',
          durationMs: 0,
        }))
      : await ports.hooks.runPreToolUse(
          { hooks, workspaceRoot: state.session.workspace ?? '/', input },
          signal,
        );
  // Stopped mid-hook: nothing is recorded, the hooks run again on resume.
  if (signal.aborted) return [];
  return [{ type: 'pre_tool_use_hooks_ran', callId: effect.callId, results }];
};
