import { resolve } from 'node:path';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { OperatorModeSchema } from '../../core/approvals/approval-tier.js';
import { CorrexError } from '../../core/base/correx-error.js';
import { allowedWorkspace } from '../allowed-workspace.js';
import type { McpServerDeps } from './mcp-server-deps.js';
import { mcpSessionMode, modeAbove } from './mode-ceiling.js';
import { answer, jsonResult } from './tool-result.js';

/**
 * `start_session`: records a new session and runs it in the background in this process; answers
 * with its id at once. A call that needs a person is never approvable over MCP: the session
 * waits for `correx approve`/`deny` (or the web page) as a headless run with
 * `--wait-for-approval` does.
 */
export function registerStartSessionTool(server: McpServer, deps: McpServerDeps): void {
  server.registerTool(
    'start_session',
    {
      title: 'Start a correx session',
      description:
        "Start a correx session on a task in a workspace folder and return its id at once; it runs in the background. Poll session_status until its phase is completed, failed or cancelled. Calls that need a person's approval wait for one (correx approve, or the web page of correx serve): no tool here approves anything.",
      inputSchema: {
        task: z.string().min(1).describe('what the agent should do'),
        workspace: z
          .string()
          .optional()
          .describe(
            'the folder it works in (absolute, or relative to where correx mcp started; default: that folder)',
          ),
        workflow: z.string().optional().describe('a workflow name from harness.yaml'),
        model: z.string().optional().describe('a model profile id from harness.yaml'),
        mode: OperatorModeSchema.optional().describe(
          "approval mode; default auto, never above the operator's configured mode",
        ),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    (args) =>
      answer(async () => {
        const ceiling = (await deps.host.options()).defaultMode;
        const mode = mcpSessionMode(args.mode, ceiling);
        if (mode === null)
          throw new CorrexError(
            'usage',
            `mode ${args.mode} lets more run without a person than the operator's configured mode ${ceiling} allows (mode: in $CORREX_HOME/harness.yaml)`,
          );
        const workspace = await allowedWorkspace(
          resolve(deps.cwd, args.workspace ?? '.'),
          deps.allowedRoots,
        );
        if (!workspace.ok)
          throw new CorrexError(
            'usage',
            `${workspace.message}${workspace.reason === 'outside' ? ` (correx mcp --allow-root; allowed: ${deps.allowedRoots.join(', ')})` : ''}`,
          );
        const run = await deps.host.start({
          task: args.task,
          workspace: workspace.path,
          mode,
          // The mode a workspace's configuration resolves to is held to the same ceiling.
          checkMode: (resolved) => {
            if (modeAbove(resolved, ceiling))
              throw new CorrexError(
                'usage',
                `the session would run in mode ${resolved}, above the operator's configured mode ${ceiling}`,
              );
          },
          ...(args.workflow === undefined ? {} : { workflow: args.workflow }),
          ...(args.model === undefined ? {} : { modelProfile: args.model }),
        });
        // Runs on in the background; how it ended is in its log (session_status, session_outcome).
        run.done.catch((error: unknown) =>
          deps.log(
            `session ${run.sessionId}: ${error instanceof Error ? error.message : String(error)}`,
          ),
        );
        return jsonResult({ sessionId: run.sessionId, mode, workspace: workspace.path });
      }),
  );
}
