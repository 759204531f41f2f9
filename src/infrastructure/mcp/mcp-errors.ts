import { CorrexError } from '../../core/base/correx-error.js';

/**
 * How an MCP call or listing went wrong, by name. Each becomes a failed receipt whose error
 * starts with the code, so the model (and the operator) read why and the session goes on.
 */
export type McpFailureCode =
  | 'mcp_server_failed_to_start'
  | 'mcp_server_crashed'
  | 'mcp_call_timed_out'
  | 'mcp_result_malformed'
  | 'mcp_result_oversized'
  | 'mcp_error_result'
  | 'mcp_tool_schema_changed'
  | 'mcp_tool_not_listed'
  | 'mcp_tool_name_collision'
  | 'mcp_secret_missing';

export class McpError extends CorrexError {
  constructor(
    readonly failure: McpFailureCode,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(failure, message, options);
  }
}
