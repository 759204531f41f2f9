import type { JsonValue } from '../../../events/canonical-json.js';
import { normalizeAbsolute } from '../../../tools/tool-path.js';
import type { KernelConfig } from '../../config/kernel-config.js';
import { CLAIMS_AGAINST_LOG } from '../../config/kernel-flags.js';
import type { KernelState } from '../../decider/kernel-state.js';
import { layeredHas } from '../../../base/layered-record.js';

/**
 * What is wrong with an artifact's `filesChanged` claim, compared with the recorded writes, or
 * null when nothing is. A path whose write was denied and that nothing else wrote is a false
 * claim; so is a path no write receipt names while no command ran that could have changed it
 * (a command's own changes are not itemized in every log, so then the claim cannot be refuted).
 */
export function filesChangedFailure(
  config: KernelConfig,
  state: KernelState,
  content: JsonValue,
): string | null {
  if (!config.behaviour.flags.has(CLAIMS_AGAINST_LOG.name)) return null;
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return null;
  const claimed = (content as { filesChanged?: unknown }).filesChanged;
  if (!Array.isArray(claimed)) return null;
  const workspace = state.session.workspace ?? '/';
  const problems: string[] = [];
  for (const entry of claimed) {
    if (typeof entry !== 'string') continue;
    const path = normalizeAbsolute(entry.startsWith('/') ? entry : `${workspace}/${entry}`);
    if (layeredHas(state.written, path)) continue;
    const denied = state.deniedWrites.find((write) => write.path === path);
    if (denied !== undefined)
      problems.push(
        `\`${entry}\`: its write was denied (call ${denied.callId}, event #${denied.sequence}) and nothing else wrote it`,
      );
    else if (state.commandsRan === 0)
      problems.push(`\`${entry}\`: no recorded write changed it and no command ran`);
  }
  if (problems.length === 0) return null;
  return `filesChanged does not match the log; list only files that were changed:\n${problems.map((p) => `- ${p}`).join('\n')}`;
}
