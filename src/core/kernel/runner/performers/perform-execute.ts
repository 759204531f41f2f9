import { wellFormedDeep } from '../../../base/well-formed.js';
import { MCP_CHANGE_RECORDS } from '../../config/kernel-flags.js';
import { EXEC_BASH } from '../../../toolintent/toolintent-flags.js';
import { KernelWiringError, type EffectPerformer } from './effect-performer.js';

/** Runs an approved tool call through the tool port and records its receipt. */
export const performExecute: EffectPerformer<'execute'> = async (
  options,
  state,
  effect,
  signal,
) => {
  const { config, ports } = options;
  const tool = config.tools.get(effect.tool);
  if (tool === undefined)
    throw new KernelWiringError(`tool ${effect.tool} has no contract in the kernel configuration`);
  const execution = await ports.tools.run(
    {
      callId: effect.callId,
      tool,
      args: effect.args,
      workspaceRoot: state.session.workspace ?? '/',
      homeDirectory: config.homeDirectory,
      targets: effect.targets,
      observations: state.tools.observations,
      // What the call was approved to reach beyond the list, for this call only.
      egressAllowlist:
        effect.egressHosts === undefined
          ? state.tools.egressAllowlist
          : [...new Set([...state.tools.egressAllowlist, ...effect.egressHosts])].sort(),
      commandShell: config.behaviour.flags.has(EXEC_BASH.name) ? 'bash' : 'sh',
      ...(config.behaviour.flags.has(MCP_CHANGE_RECORDS.name) ? { mcpChangeRecords: true } : {}),
    },
    signal,
  );
  return [
    {
      type: 'tool_receipt',
      callId: effect.callId,
      tool: effect.tool,
      args: effect.args as Record<string, never>,
      // What a tool hands back is the world's text: a lone surrogate in it (output parsed
      // from JSON) would make the receipt unrecordable, and the call would run again.
      ...wellFormedDeep(execution),
    },
  ];
};
