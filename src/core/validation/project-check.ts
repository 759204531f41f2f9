import { z } from 'zod';

/** Where a check came from: a project file correx read, or harness.yaml. */
export const CheckSourceSchema = z.enum([
  'package.json',
  'pyproject.toml',
  'pytest.ini',
  'go.mod',
  'Cargo.toml',
  'Makefile',
  'harness.yaml',
]);
export type CheckSource = z.infer<typeof CheckSourceSchema>;

const CheckNameSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9:._-]*$/, 'check names are lowercase [a-z0-9:._-]');

/** A command that tells whether the project is in a good state (its tests, linter, type checker). */
export const ProjectCheckSchema = z.strictObject({
  name: CheckNameSchema,
  /** A shell command line run in the workspace root, sandboxed like `exec`. */
  command: z.string().min(1),
  source: CheckSourceSchema,
});
export type ProjectCheck = z.infer<typeof ProjectCheckSchema>;

/**
 * harness.yaml `checks:`, in the user's file (every session) and in a repository's own file.
 * `add` adds a check or replaces a detected one of the same name; `advisory` names checks whose
 * failure is reported but does not fail the session; `detect: false` drops the detected ones.
 */
export const ChecksConfigSchema = z.strictObject({
  detect: z.boolean().default(true),
  add: z
    .array(
      z.strictObject({
        name: CheckNameSchema,
        command: z.string().min(1),
        advisory: z.boolean().default(false),
      }),
    )
    .default([]),
  advisory: z.array(CheckNameSchema).default([]),
});
export type ChecksConfig = z.infer<typeof ChecksConfigSchema>;

/** A check as a stage runs it: required ones fail the attempt, advisory ones are only reported. */
export type RequiredCheck = {
  readonly name: string;
  readonly command: string;
  readonly advisory: boolean;
};

/**
 * The session's checks: the detected ones (unless `detect` is off), with harness.yaml's added or
 * replacing them by name, and advisory marks applied. Pure; the order is stable (detected order,
 * then added ones).
 */
export function effectiveProjectChecks(
  detected: readonly ProjectCheck[],
  config: ChecksConfig | undefined,
): RequiredCheck[] {
  const byName = new Map<string, RequiredCheck>();
  if (config?.detect !== false)
    for (const check of detected)
      byName.set(check.name, { name: check.name, command: check.command, advisory: false });
  for (const added of config?.add ?? [])
    byName.set(added.name, { name: added.name, command: added.command, advisory: added.advisory });
  const advisory = new Set(config?.advisory ?? []);
  return [...byName.values()].map((check) =>
    advisory.has(check.name) ? { ...check, advisory: true } : check,
  );
}

/** Merges the user's global `checks:` with a repository's: lists add up, the repository's `detect` wins. */
export function mergeChecksConfig(
  global: ChecksConfig | undefined,
  repository: ChecksConfig | undefined,
): ChecksConfig | undefined {
  if (global === undefined) return repository;
  if (repository === undefined) return global;
  const add = new Map(global.add.map((check) => [check.name, check]));
  for (const check of repository.add) add.set(check.name, check);
  return {
    detect: repository.detect && global.detect,
    add: [...add.values()],
    advisory: [...new Set([...global.advisory, ...repository.advisory])],
  };
}
