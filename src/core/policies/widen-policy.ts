import type { PolicyWidening } from './merge-policy.js';
import type { WorkspacePolicy } from './workspace-policy.js';

/**
 * Applies what a workspace's overlay asked for beyond the user's policy, once the operator has
 * trusted that very content (docs/configuration.md, "Trust"). Each refused widening of
 * `mergePolicy` is granted as asked: a program or host added, a glob made writable in every
 * write-scope list, a tier or a limit set. Pure.
 */
export function widenPolicy(
  policy: WorkspacePolicy,
  widenings: readonly PolicyWidening[],
): WorkspacePolicy {
  let widened: WorkspacePolicy = policy;
  for (const widening of widenings) {
    switch (widening.field) {
      case 'allowedExecutables':
      case 'egressAllowlist':
        widened = {
          ...widened,
          [widening.field]: [...new Set([...widened[widening.field], widening.value])],
        };
        break;
      case 'writeScope':
        widened = {
          ...widened,
          writeScope: widened.writeScope.map((list) => [...new Set([...list, widening.value])]),
        };
        break;
      case 'tierOverrides': {
        const at = widening.value.lastIndexOf('=');
        widened = {
          ...widened,
          tierOverrides: {
            ...widened.tierOverrides,
            [widening.value.slice(0, at)]: widening.value.slice(
              at + 1,
            ) as WorkspacePolicy['tierOverrides'][string],
          },
        };
        break;
      }
      case 'maxCommandLength':
      case 'maxCommands':
        widened = { ...widened, [widening.field]: Number(widening.value) };
        break;
      case 'neverWritable':
        // Adding never-writable paths only narrows: never refused, nothing to widen.
        break;
    }
  }
  return widened;
}
