import type { CorrexEvent } from '../../../event-catalog.js';
import { FORK_PATHS_ONTO_WORKSPACE } from '../../config/kernel-flags.js';
import { recordedFlagsInForce } from '../../config/behaviour.js';
import type { KernelFeature } from '../../decider/kernel-feature.js';

/** Whether a recorded configuration (`session_configured`) rebases its forks' prefix paths. */
export function rebasesForkPaths(configuration: { readonly [key: string]: unknown }): boolean {
  return recordedFlagsInForce(configuration).has(FORK_PATHS_ONTO_WORKSPACE.name);
}

/** Whether the session was recorded with `fork-paths-onto-workspace` (from `session_configured`). */
function evolveForkPaths(recorded: boolean, event: CorrexEvent): boolean {
  return event.payload.type === 'session_configured'
    ? rebasesForkPaths(event.payload.configuration)
    : recorded;
}

/**
 * Fork paths onto the workspace (flag `fork-paths-onto-workspace`): a fork's copied prefix is
 * read in its own workspace. The slice says whether the session recorded the flag; the fold
 * (decider/kernel-state.ts) rebases the whole state once, when it folds `session_forked`, which
 * no slice can do on its own (it sees only itself). No hooks.
 */
export const forkPathsFeature: KernelFeature<'forkPaths', boolean> = {
  name: 'forkPaths',
  flag: FORK_PATHS_ONTO_WORKSPACE,
  events: [],
  state: { initial: false, evolve: evolveForkPaths },
  hooks: {},
};
