import { z } from 'zod';
import { SandboxProfileSchema } from '../policies/sandbox-profile.js';
import { defineEvent } from '../events/event-definition.js';

/**
 * A definition-of-done check of the running stage ran: the command, how it ended, its exit code
 * and bounded output. Appended by the effect runner from the StaticAnalysisRunner port;
 * `decide` parses the diagnostics from the recorded output, so replay never runs a check.
 */
export const dodCheckRan = defineEvent({
  type: 'dod_check_ran',
  description: "A stage's definition-of-done check ran; exit code and bounded output are recorded.",
  origin: 'effect_result',
  fields: {
    stageId: z.string().min(1),
    attempt: z.number().int().min(1),
    name: z.string().min(1),
    command: z.string().min(1),
    outcome: z.enum(['completed', 'timed_out', 'aborted', 'failed_to_start']),
    exitCode: z.number().int().nullable(),
    output: z.string(),
    outputBytes: z.number().int().min(0),
    truncated: z.boolean(),
    durationMs: z.number().int().min(0),
    /** The confinement the check ran under (absent in logs older than the sandbox). */
    sandbox: SandboxProfileSchema.optional(),
  },
});

export const definitionOfDoneEvents = [dodCheckRan] as const;
