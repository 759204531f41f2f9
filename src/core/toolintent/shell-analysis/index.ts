/**
 * The shell analyzer's face: what plane 2 reads of an `exec` call (its programs, the paths it
 * reads and writes, its network reach, the stop classes and interpreters it runs), parsed from
 * the command line as POSIX sh or, under `exec-bash`, as bash. Outside this folder production
 * code imports only this file (dependency-cruiser's `shell-analysis-only-through-its-face`).
 */
export {
  analyzeExecCall,
  EXEC_RULE_ID,
  type ExecAnalysis,
  type ExecAnalysisOptions,
} from './exec-command-analysis.js';
export {
  parseShellCommandLine,
  type ShellCommand,
  type ShellParseOptions,
  type ShellParseResult,
} from './shell-syntax.js';
export { findSedScriptIssues, type SedScriptIssue } from './sed-script.js';
