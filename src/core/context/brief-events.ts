import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';
import { BriefReferenceSchema } from './brief-references.js';

/**
 * The task's references, extracted at session start (pure, so replay derives the same), with
 * every path the workspace does not have: each names the `world_observed` that found it missing,
 * so a brief naming a missing file is flagged, with evidence, before planning starts.
 */
export const briefChecked = defineEvent({
  type: 'brief_checked',
  description: "The task's references were extracted and its paths checked against the workspace.",
  origin: 'decision',
  fields: () => ({
    references: z.array(BriefReferenceSchema),
    missing: z.array(
      z.strictObject({ path: z.string().min(1), observedSequence: z.number().int().min(1) }),
    ),
  }),
});

/**
 * A plan's restatement of the task compared with the brief: the brief's references the plan does
 * not mention (dropped) and the paths and issues the plan names that the brief does not
 * (invented). Shown to the stages after it.
 */
export const briefEchoCompared = defineEvent({
  type: 'brief_echo_compared',
  description: "A plan's restatement of the task was compared with the brief's references.",
  origin: 'decision',
  fields: () => ({
    stageId: z.string().min(1),
    artifactHash: z.string().min(1),
    dropped: z.array(BriefReferenceSchema),
    invented: z.array(BriefReferenceSchema),
  }),
});

export const briefEvents = [briefChecked, briefEchoCompared] as const;
