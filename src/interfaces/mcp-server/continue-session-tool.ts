import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { OperatorModeSchema } from '../../core/approvals/approval-tier.js';
import { CorrexError } from '../../core/base/correx-error.js';
import type { McpServerDeps } from './mcp-server-deps.js';
import { mcpSessionMode } from './mode-ceiling.js';
import { recordedTurn } from '../recorded-turn.js';
import { answer, jsonResult, knownSession } from './tool-result.js';

/**
 * `continue_session`: a follow-up turn of a session whose workflow ended (as `correx continue`),
 * run in the background in this process; answers with the turn's number at once. The mode is
 * held to the operator's configured mode, as `start_session`'s is.
 */
export function registerContinueSessionTool(server: McpServer, deps: McpServerDeps): void {
  server.registerTool(
    'continue_session',
    {
      title: 'Ask a finished correx session for a follow-up turn',
      description:
        'Send a follow-up request to a session whose workflow ended (completed, failed or cancelled); it runs in the background in the same workspace, with what the earlier turns did in its context. Poll session_status until its phase is completed, failed or cancelled again. A session still running is refused (session_not_finished).',
      inputSchema: {
        sessionId: z.string().min(1).describe('the id start_session returned'),
        text: z.string().min(1).describe('what the agent should do next'),
        workflow: z
          .string()
          .optional()
          .describe("a workflow name from harness.yaml, or chat; default: the last turn's"),
        mode: OperatorModeSchema.optional().describe(
          "approval mode from this turn on; default the session's, never above the operator's configured mode",
        ),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    (args) =>
      answer(async () => {
        const sessionId = await knownSession(deps.store, args.sessionId);
        const ceiling = (await deps.host.options()).defaultMode;
        // Only a mode named here is checked: without one the turn keeps the session's own,
        // which start_session already held to the ceiling.
        const mode = args.mode === undefined ? undefined : mcpSessionMode(args.mode, ceiling);
        if (mode === null)
          throw new CorrexError(
            'usage',
            `mode ${args.mode} lets more run without a person than the operator's configured mode ${ceiling} allows (mode: in $CORREX_HOME/harness.yaml)`,
          );
        const before = await deps.store.lastSequence(sessionId);
        const run = await deps.host.continue(sessionId, {
          text: args.text,
          requestedBy: deps.user,
          ...(args.workflow === undefined ? {} : { workflow: args.workflow }),
          ...(mode === undefined ? {} : { mode }),
        });
        run.done.catch((error: unknown) =>
          deps.log(
            `session ${sessionId}: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
        // The host recorded the request before it answered.
        const asked = (await recordedTurn(deps.store, sessionId, before))?.payload;
        return jsonResult({
          sessionId,
          turn: asked?.type === 'turn_requested' ? asked.turn : null,
        });
      }),
  );
}
