import { z } from 'zod';
import { SandboxProfileSchema } from '../policies/sandbox-profile.js';
import { defineEvent } from '../events/event-definition.js';
import { ProjectCheckSchema } from './project-check.js';

/**
 * A definition-of-done check of the running stage ran: the command, how it ended, its exit code
 * and bounded output. Appended by the effect runner from the StaticAnalysisRunner port;
 * `decide` parses the diagnostics from the recorded output, so replay never runs a check.
 */
export const dodCheckRan = defineEvent({
  type: 'dod_check_ran',
  description: "A stage's definition-of-done check ran; exit code and bounded output are recorded.",
  origin: 'effect_result',
  fields: () => ({
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
  }),
});

/**
 * The project's checks, detected once at session start by reading the workspace's project files
 * (package.json scripts, pyproject.toml, go.mod, Cargo.toml, a Makefile `test` target). A recorded
 * observation: `decide` reads it, replay never looks at the workspace.
 */
export const projectChecksDetected = defineEvent({
  type: 'project_checks_detected',
  description: "The project's checks found in the workspace at session start.",
  origin: 'effect_result',
  fields: () => ({
    checks: z.array(ProjectCheckSchema),
    /** Project files that were there but could not be read as expected, with why. */
    problems: z.array(z.strictObject({ file: z.string().min(1), message: z.string().min(1) })),
  }),
});

export const LanguageDiagnosticSchema = z.strictObject({
  /** 1-based, as people read them. */
  line: z.number().int().min(1),
  column: z.number().int().min(1),
  severity: z.enum(['error', 'warning', 'information', 'hint']),
  message: z.string(),
  code: z.string().nullable(),
});
export type LanguageDiagnostic = z.infer<typeof LanguageDiagnosticSchema>;

/**
 * A language server's diagnostics for the files the session wrote, before a verifier or reviewer
 * stage completes: which server, how they were obtained (LSP 3.17 pull, or the diagnostics the
 * server published), and per file what it reported. `unavailable` records why none ran.
 * `decide` fails the attempt on an error in a written file; replay never starts a server.
 */
export const languageDiagnosticsRecorded = defineEvent({
  type: 'language_diagnostics_recorded',
  description: "A language server's diagnostics for the files the session wrote.",
  origin: 'effect_result',
  fields: () => ({
    stageId: z.string().min(1),
    attempt: z.number().int().min(1),
    server: z.string().min(1),
    method: z.enum(['pull', 'published', 'unavailable']),
    files: z.array(
      z.strictObject({ path: z.string().min(1), diagnostics: z.array(LanguageDiagnosticSchema) }),
    ),
    error: z.string().nullable(),
    durationMs: z.number().int().min(0),
  }),
});

export const definitionOfDoneEvents = [
  dodCheckRan,
  projectChecksDetected,
  languageDiagnosticsRecorded,
] as const;
