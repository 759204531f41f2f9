import { defineBehaviourFlag, type BehaviourFlag } from '../base/behaviour-flag.js';

/** Packs carry the project's instruction files (AGENTS.md, CLAUDE.md, the user's), pinned. */
export const PROJECT_INSTRUCTIONS = defineBehaviourFlag({
  name: 'project-instructions',
  description:
    "every pack pins the session's recorded instruction files: the user's and the workspace's AGENTS.md (CLAUDE.md as a fallback), and nested ones for directories the stage touched",
});

/** Packs carry the repository knowledge the session recorded at its start, as the L3 layer. */
export const REPOSITORY_KNOWLEDGE = defineBehaviourFlag({
  name: 'repository-knowledge',
  description:
    "every pack offers the session's recorded repository survey (files, languages, package manager, scripts, entry points, exported symbols) as an L3 entry within the budget",
});

/** Tool results the model keeps referring to rank above the ones it no longer uses. */
export const CONTEXT_FEEDBACK = defineBehaviourFlag({
  name: 'context-feedback',
  description:
    "a tool result's relevance follows whether later calls name its file again (rising) or pass it by (falling), so unused results are evicted first under budget pressure",
});

/** The behaviour flags the context pack builders branch on (see core/base/behaviour-flag.ts). */
export const contextFlags: readonly BehaviourFlag[] = [
  PROJECT_INSTRUCTIONS,
  REPOSITORY_KNOWLEDGE,
  CONTEXT_FEEDBACK,
];
