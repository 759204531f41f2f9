/**
 * Which exec stops a person may lift and which are final (issue #17), as data: the table
 * docs/tools-and-policy.md shows. Applies only to sessions recorded with `sandbox-containment`.
 *
 * - `final`: always a BLOCK. What the sandbox cannot make safe, or what no approval should
 *   wave through: writes outside the workspace and never-writable paths are judged by the path
 *   rules; here, programs that change privileges or the shell itself, raw network and DNS,
 *   git configuration that runs programs, registry changes, an interpreter with no program.
 * - `confined`: the sandbox confines what it can do (no network, read-only host, private home,
 *   protected .git files), so under a sandbox it is recorded as an `info` finding at T2 — the
 *   tier of a script the model wrote; without a sandbox it is asked at T3.
 * - `liftable`: asked at T3 whether or not a sandbox is active: shell text the analysis cannot
 *   judge, or a program the policy does not list.
 *
 * A code missing from the table is final: the analysis fails closed.
 */
export type ExecStopClass = 'final' | 'confined' | 'liftable';

export const EXEC_STOP_CLASSES: Readonly<Record<string, ExecStopClass>> = {
  // final
  forbidden_program: 'final',
  dangerous_variable: 'final',
  env_trick: 'final',
  dns_egress: 'final',
  raw_network: 'final',
  git_config_injection: 'final',
  git_program_option: 'final',
  git_config_write: 'final',
  package_registry_change: 'final',
  install_scripts: 'final',
  http_client_option: 'final',
  interactive_shell: 'final',
  source_outside_workspace: 'final',
  no_command: 'final',
  dynamic_url: 'final',
  unknown_destination: 'final',
  // confined by the sandbox: code the model wrote, or a program the model chose, runs inside it
  inline_code: 'confined',
  python_module: 'confined',
  rg_preprocessor: 'confined',
  sed_script_file: 'confined',
  sed_unparsed: 'confined',
  awk_script_file: 'confined',
  awk_side_effects: 'confined',
  git_runs_commands: 'confined',
  find_exec: 'confined',
  dynamic_write_target: 'confined',
  sed_exec: 'confined',
  sed_file_io: 'confined',
  // asked, with or without a sandbox
  unparseable_command: 'liftable',
  heredoc_expansion: 'liftable',
  program_not_allowed: 'liftable',
  dynamic_program: 'liftable',
  path_qualified_program: 'liftable',
  change_directory: 'liftable',
  command_too_long: 'liftable',
  too_many_commands: 'liftable',
  nesting_too_deep: 'liftable',
};

/** The class of an exec stop code; unknown codes are final. */
export function execStopClass(code: string): ExecStopClass {
  return Object.hasOwn(EXEC_STOP_CLASSES, code) ? EXEC_STOP_CLASSES[code]! : 'final';
}

/**
 * What still stops a command under flag `confinement-by-construction` with a sandbox, where the
 * sandbox is the policy: `final` refusals and `ask`s for what confinement cannot hold. Every
 * other code is recorded as an `info` finding at T2 (the sandbox holds it): a program's name,
 * shell text the parser cannot read, inline code, raw network (no network namespace but the
 * allowlist proxy), privilege tools (no capabilities, no new privileges).
 */
export const CONFINED_EXEC_STOPS: Readonly<Record<string, 'final' | 'ask'>> = {
  no_command: 'final',
  // writes the profile refuses: .git/config is bound read-only
  git_config_write: 'ask',
  // effects that leave the sandbox by design: a registry's or a remote's state
  package_registry_change: 'ask',
  git_push: 'ask',
};

/** How a stop is recorded under `confinement-by-construction` with a sandbox. */
export function confinedExecStop(code: string): 'final' | 'ask' | 'recorded' {
  return Object.hasOwn(CONFINED_EXEC_STOPS, code) ? CONFINED_EXEC_STOPS[code]! : 'recorded';
}
