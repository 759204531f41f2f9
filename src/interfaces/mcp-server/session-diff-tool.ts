import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import {
  createPreimageStore,
  preimageDirectory,
} from '../../infrastructure/sandbox/preimage-store.js';
import { describeSessionDiff, sessionDiffLines } from '../session-diff.js';
import type { McpServerDeps } from './mcp-server-deps.js';
import { answer, jsonResult, knownSession } from './tool-result.js';

/** `session_diff`: what `correx diff` prints, call by call, with the structured changes. */
export function registerSessionDiffTool(server: McpServer, deps: McpServerDeps): void {
  server.registerTool(
    'session_diff',
    {
      title: 'Diff of a correx session',
      description:
        'What a session changed in the workspace, call by call with the commands that changed it, as unified diffs (what correx diff prints), from the recorded change records and stored pre-images.',
      inputSchema: {
        sessionId: z.string().min(1),
        stage: z.string().optional().describe('only the calls of this stage'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const sessionId = await knownSession(deps.store, args.sessionId);
        const changes = describeSessionDiff(
          await deps.store.read(sessionId),
          createPreimageStore(preimageDirectory(deps.correxHome)),
          args.stage === undefined ? {} : { stageId: args.stage },
        );
        const text =
          changes.length === 0
            ? `no recorded changes in session ${sessionId}`
            : sessionDiffLines(changes).join('\n');
        return jsonResult({ sessionId, changes }, text);
      }),
  );
}
