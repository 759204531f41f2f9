import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { McpServerDeps } from './mcp-server-deps.js';
import { answer, jsonResult, knownSession } from './tool-result.js';

/** `verify_replay`: what `correx replay --verify` does: re-decide the log, compare byte for byte. */
export function registerVerifyReplayTool(server: McpServer, deps: McpServerDeps): void {
  server.registerTool(
    'verify_replay',
    {
      title: 'Verify the replay of a correx session',
      description:
        'Rebuild a session from its event log alone (no model, no tools), re-deriving every decision, and compare each derived event with the recorded one byte for byte (correx replay --verify). ok: identical; else the first divergence.',
      inputSchema: { sessionId: z.string().min(1) },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const sessionId = await knownSession(deps.store, args.sessionId);
        const verification = await deps.host.replayVerify(sessionId);
        const result = jsonResult(
          { sessionId, ...verification },
          verification.ok
            ? `replay of ${sessionId}: identical — ${verification.events} events`
            : `replay of ${sessionId}: DIVERGES at #${verification.divergence.sequence}: ${verification.divergence.reason}`,
        );
        return verification.ok ? result : { ...result, isError: true };
      }),
  );
}
