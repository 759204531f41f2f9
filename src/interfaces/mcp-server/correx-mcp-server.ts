import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { McpServerDeps } from './mcp-server-deps.js';
import { registerContinueSessionTool } from './continue-session-tool.js';
import { registerPolicyWhatIfTool } from './policy-what-if-tool.js';
import { registerSessionDiffTool } from './session-diff-tool.js';
import { registerSessionEventsTool } from './session-events-tool.js';
import { registerSessionOutcomeTool } from './session-outcome-tool.js';
import { registerSessionStatusTool } from './session-status-tool.js';
import { registerStartSessionTool } from './start-session-tool.js';
import { registerUndoSessionTool } from './undo-session-tool.js';
import { registerVerifyReplayTool } from './verify-replay-tool.js';

/**
 * correx as an MCP server: tools to start a session or a follow-up turn, read its status, outcome, diff and events,
 * undo it, verify its replay and ask a policy what-if. None approves, denies or grants anything:
 * a host's model must never decide its own requests, so decisions stay with a person
 * (`correx approve`, the web page).
 */
export function createCorrexMcpServer(deps: McpServerDeps): McpServer {
  const server = new McpServer(
    { name: 'correx', version: deps.version },
    {
      instructions:
        'correx runs coding tasks as recorded, replayable sessions. start_session returns an id at once; poll session_status until the phase is completed, failed or cancelled, then read session_outcome and session_diff; continue_session asks a finished session for a follow-up turn. A session that waits for a person (needsPerson) waits for a decision made by a person with correx approve/deny or the web page: no tool here approves anything.',
    },
  );
  registerStartSessionTool(server, deps);
  registerContinueSessionTool(server, deps);
  registerSessionStatusTool(server, deps);
  registerSessionOutcomeTool(server, deps);
  registerSessionDiffTool(server, deps);
  registerSessionEventsTool(server, deps);
  registerUndoSessionTool(server, deps);
  registerVerifyReplayTool(server, deps);
  registerPolicyWhatIfTool(server, deps);
  return server;
}
