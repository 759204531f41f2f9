import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpServerDeps } from './mcp-server-deps.js';
import { readSessionStatus } from './session-status.js';
import { answer, jsonResult } from './tool-result.js';

/** `session_status`: phase, stage, what it waits for a person to do, and who drives it. */
export function registerSessionStatusTool(server: McpServer, deps: McpServerDeps): void {
  server.registerTool(
    'session_status',
    {
      title: 'Status of a correx session',
      description:
        'Where a session stands: phase (running, paused, completed, failed, cancelled), stage, whether it waits for a person and for what, and whether a process drives it.',
      inputSchema: { sessionId: z.string().min(1) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) => answer(async () => jsonResult(await readSessionStatus(deps, args.sessionId))),
  );
}
