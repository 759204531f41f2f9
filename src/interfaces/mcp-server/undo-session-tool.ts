import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CorrexError } from '../../core/base/correx-error.js';
import { UnknownSessionError } from '../../core/kernel/index.js';
import {
  createPreimageStore,
  preimageDirectory,
} from '../../infrastructure/sandbox/preimage-store.js';
import { undoSessionChanges } from '../session-undo.js';
import type { McpServerDeps } from './mcp-server-deps.js';
import { answer, jsonResult } from './tool-result.js';

/**
 * `undo_session`: what `correx undo` does: restores the files the session's recorded changes
 * touched from the stored pre-images, all or nothing, and records `workspace_restored`.
 */
export function registerUndoSessionTool(server: McpServer, deps: McpServerDeps): void {
  server.registerTool(
    'undo_session',
    {
      title: "Undo a correx session's changes",
      description:
        'Restore the workspace files a finished or paused session changed, to before it (or to a recorded sequence or the start of a stage), from the stored pre-images; refuses, changing nothing, when a file was changed outside correx since. Recorded as workspace_restored (what correx undo does).',
      inputSchema: {
        sessionId: z.string().min(1),
        toSequence: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe('undo every change recorded after this event'),
        stage: z.string().optional().describe('undo every change since this stage last started'),
      },
      annotations: { readOnlyHint: false, destructiveHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        const { sessionId } = args;
        const result = await undoSessionChanges(
          {
            store: deps.store,
            recording: deps.recording,
            preimages: createPreimageStore(preimageDirectory(deps.correxHome)),
          },
          {
            sessionId,
            by: deps.user,
            ...(args.toSequence === undefined ? {} : { toSequence: args.toSequence }),
            ...(args.stage === undefined ? {} : { stageId: args.stage }),
          },
        );
        switch (result.outcome) {
          case 'unknown_session':
            throw new UnknownSessionError(sessionId);
          case 'running':
            throw new CorrexError(
              'usage',
              `session ${sessionId} is running: it can be undone once it finished or paused`,
            );
          case 'invalid':
            throw new CorrexError('usage', result.message);
          case 'nothing':
            return jsonResult({ sessionId, outcome: 'nothing', toSequence: result.toSequence });
          case 'refused':
            return {
              ...jsonResult({
                sessionId,
                outcome: 'refused',
                changedSince: result.changedSince,
                missingPreimages: result.missingPreimages,
                outsideWorkspace: result.outsideWorkspace,
              }),
              isError: true,
            };
          case 'restored':
            return jsonResult({
              sessionId,
              outcome: 'restored',
              toSequence: result.toSequence,
              files: result.files.map((file) => ({
                path: file.path,
                restored: file.access === 'delete' ? 'deleted' : 'restored',
              })),
              recordedAs: result.event.sequence,
            });
        }
      }),
  );
}
