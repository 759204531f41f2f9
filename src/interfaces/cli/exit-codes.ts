import type { ErrorCode } from '../../core/base/error-code.js';

/**
 * Stable exit codes, documented in `--help`, the README and docs/headless.md. `waitingForPerson`:
 * a run stopped with its session open for a person (an approval not decided in time, a pause, a
 * budget to raise); the session stays resumable. `cancelled`: the session was cancelled.
 */
export const EXIT_CODES = {
  ok: 0,
  failed: 1,
  usage: 2,
  storeUnavailable: 3,
  waitingForPerson: 4,
  cancelled: 5,
} as const;

export type ExitOutcome = keyof typeof EXIT_CODES;

/**
 * What each error means for a script that called correx: `usage` for what the person must fix in
 * the command or its configuration (exit 2), `storeUnavailable` for a store that cannot be reached
 * or is not migrated (exit 3), `failed` for the rest (exit 1). A `Record` over the closed list of
 * codes, so a new code cannot ship without a decision here.
 */
export const EXIT_OUTCOME_OF: Readonly<
  Record<ErrorCode, Exclude<ExitOutcome, 'ok' | 'waitingForPerson' | 'cancelled'>>
> = {
  non_canonical_value: 'failed',
  invalid_event: 'failed',
  invalid_append: 'failed',
  duplicate_event: 'failed',
  corrupt_event: 'failed',
  concurrency_conflict: 'failed',
  store_closed: 'failed',
  store_location_invalid: 'usage',
  store_copy_failed: 'failed',
  sqlite_open_failed: 'storeUnavailable',
  sqlite_busy: 'storeUnavailable',
  store_not_found: 'storeUnavailable',
  sqlite_storage_failed: 'storeUnavailable',
  postgres_connect_failed: 'storeUnavailable',
  postgres_schema_not_ready: 'storeUnavailable',
  session_busy: 'failed',
  worktree_failed: 'failed',
  merge_conflict: 'failed',
  git_location_changed: 'failed',
  session_not_found: 'failed',
  usage: 'usage',
  config_exists: 'usage',
  config_invalid: 'usage',
  invalid_policy: 'usage',
  invalid_workflow: 'usage',
  workflow_file: 'usage',
  invalid_model_profiles: 'usage',
  invalid_kernel_config: 'usage',
  invalid_tool_path_roots: 'usage',
  invalid_session_configuration: 'failed',
  workspace_not_allowed: 'usage',
  session_setup: 'usage',
  provider_setup: 'usage',
  server_config_invalid: 'usage',
  server_token_insecure: 'usage',
  server_token_invalid: 'usage',
  demo_workspace_invalid: 'usage',
  demo_assets_missing: 'failed',
  grant_not_found: 'failed',
  approval_not_pending: 'failed',
  invalid_command: 'failed',
  session_finished: 'failed',
  kernel_invariant: 'failed',
  kernel_wiring: 'failed',
  unknown_behaviour: 'failed',
  session_configuration_mismatch: 'failed',
  configuration_not_recorded: 'failed',
  replay_missing_recording: 'failed',
  artifact_integrity: 'failed',
  artifact_lineage: 'failed',
  validator_registration: 'failed',
  context_input_invalid: 'failed',
  pinned_context_over_budget: 'failed',
  unknown_tool: 'failed',
  tool_failed: 'failed',
  world_changed: 'failed',
  unassessed_target: 'failed',
  special_file: 'failed',
  restore_path_outside_workspace: 'failed',
  file_too_large: 'usage',
  not_a_regular_file: 'usage',
  probe_redirected: 'failed',
  tool_time_bound: 'failed',
  inference_timeout: 'failed',
  inference_rate_limit: 'failed',
  inference_auth: 'failed',
  inference_malformed_response: 'failed',
  inference_provider_down: 'failed',
  inference_cancelled: 'failed',
  inference_invalid_request: 'failed',
  inference_configuration: 'usage',
  llama_cpp_unavailable: 'failed',
  llama_cpp_model_not_found: 'failed',
  script_invalid: 'failed',
  script_exhausted: 'failed',
  language_server: 'failed',
  telemetry_export_failed: 'failed',
  // A failed MCP call is a receipt; these reach the CLI only from `correx mcp list`.
  mcp_server_failed_to_start: 'failed',
  mcp_server_crashed: 'failed',
  mcp_call_timed_out: 'failed',
  mcp_result_malformed: 'failed',
  mcp_result_oversized: 'failed',
  mcp_error_result: 'failed',
  mcp_tool_schema_changed: 'failed',
  mcp_tool_not_listed: 'failed',
  mcp_secret_missing: 'usage',
  router_input_invalid: 'failed',
  router_session_not_found: 'failed',
  router_session_finished: 'failed',
  router_wiring: 'failed',
  api_unauthorized: 'failed',
  api_forbidden_host: 'failed',
  api_forbidden_origin: 'failed',
  api_invalid_request: 'failed',
  api_payload_too_large: 'failed',
  api_not_found: 'failed',
  api_session_not_found: 'failed',
  api_workspace_not_allowed: 'failed',
  api_conflict: 'failed',
  api_internal: 'failed',
  api_forbidden_decider: 'failed',
  api_too_many_sockets: 'failed',
};

export function exitCodeOf(code: ErrorCode): number {
  return EXIT_CODES[EXIT_OUTCOME_OF[code]];
}
