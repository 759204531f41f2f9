import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { formatEventJson } from '../cli/event-json.js';
import type { McpServerDeps } from './mcp-server-deps.js';
import { answer, jsonResult, knownSession } from './tool-result.js';

/** The most events one page carries: a long session is read page by page. */
export const MAX_EVENTS_PAGE = 500;

/** `session_events`: a page of a session's events, each as `correx events --json` prints it. */
export function registerSessionEventsTool(server: McpServer, deps: McpServerDeps): void {
  server.registerTool(
    'session_events',
    {
      title: 'Events of a correx session',
      description: `A page of a session's event log in order, each event its canonical envelope as correx events --json prints it (NDJSON in the text). Read on from nextFrom; at most ${MAX_EVENTS_PAGE} per page.`,
      inputSchema: {
        sessionId: z.string().min(1),
        from: z.number().int().min(1).optional().describe('the first sequence (default 1)'),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_EVENTS_PAGE)
          .optional()
          .describe('at most this many events (default 100)'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const sessionId = await knownSession(deps.store, args.sessionId);
        const from = args.from ?? 1;
        const read = await deps.store.read(sessionId, {
          afterSequence: from - 1,
          limit: args.limit ?? 100,
        });
        const lines = read.map(formatEventJson);
        const last = read.at(-1)?.sequence ?? from - 1;
        const lastSequence = await deps.store.lastSequence(sessionId);
        return jsonResult(
          {
            sessionId,
            events: lines.map((line) => JSON.parse(line) as unknown),
            nextFrom: last < lastSequence ? last + 1 : null,
            lastSequence,
          },
          lines.length === 0 ? `no events from #${from} in session ${sessionId}` : lines.join('\n'),
        );
      }),
  );
}
