import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { nodeSha256 } from '../../infrastructure/system/node-sha256.js';
import { storedText } from '../cli/headless-run.js';
import { readSessionLogs, runSummary } from '../cli/run-summary.js';
import { runSummaryLines } from '../cli/run-summary-lines.js';
import type { McpServerDeps } from './mcp-server-deps.js';
import { answer, jsonResult, knownSession } from './tool-result.js';

/** `session_outcome`: the summary `correx show --summary` prints (outcome, checks, files, cost). */
export function registerSessionOutcomeTool(server: McpServer, deps: McpServerDeps): void {
  server.registerTool(
    'session_outcome',
    {
      title: 'Outcome of a correx session',
      description:
        'The summary correx show --summary prints: outcome and exit code, failure reason, checks, files changed with +/- lines, tokens, cost, and the commands a person runs next.',
      inputSchema: { sessionId: z.string().min(1) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const sessionId = await knownSession(deps.store, args.sessionId);
        const summary = runSummary(
          sessionId,
          await readSessionLogs(deps.store, sessionId),
          storedText(deps.correxHome),
          nodeSha256,
        );
        return {
          ...jsonResult(summary),
          content: [
            { type: 'text', text: runSummaryLines(summary).join('\n') },
            { type: 'text', text: JSON.stringify(summary, null, 2) },
          ],
        };
      }),
  );
}
