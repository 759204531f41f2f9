import type { UndoRefusedResponse, UndoResponse } from '../protocol/session-changes-dto.js';
import { toEventDto } from '../protocol/to-event-dto.js';
import type { UndoOutcome } from '../session-undo.js';
import { ApiError } from './server-errors.js';

const running = (sessionId: string) =>
  new ApiError(409, 'conflict', `session ${sessionId} is running: pause or cancel it first`);

/** A session driven in this process is running whatever its log says: no undo under it. */
export function refuseRunningUndo(sessionId: string): never {
  throw running(sessionId);
}

/**
 * The answer of `POST .../undo` for what the shared undo did: 200 with the restored files and
 * the recorded event, 409 listing the files that stopped it (nothing was changed), or an error.
 */
export function undoResponse(
  sessionId: string,
  result: UndoOutcome,
): { status?: number; body: UndoResponse | UndoRefusedResponse } {
  switch (result.outcome) {
    case 'unknown_session':
      throw new ApiError(404, 'session_not_found', `no session ${sessionId}`);
    case 'running':
      throw running(sessionId);
    case 'invalid':
      throw new ApiError(400, 'invalid_request', result.message);
    case 'refused':
      return {
        status: 409,
        body: {
          error: {
            code: 'conflict',
            message: `refused to undo; nothing was changed: ${[
              ...result.changedSince.map((path) => `${path} changed outside correx since`),
              ...result.missingPreimages.map((path) => `no stored pre-image of ${path}`),
              ...result.outsideWorkspace.map(
                (path) => `${path} no longer resolves inside the workspace`,
              ),
            ].join('; ')}`,
          },
          changedOutside: [...result.changedSince],
          missingPreimages: [...result.missingPreimages],
          outsideWorkspace: [...result.outsideWorkspace],
        },
      };
    case 'nothing':
      return {
        body: { outcome: 'nothing', toSequence: result.toSequence, files: [], event: null },
      };
    case 'restored':
      return {
        body: {
          outcome: 'restored',
          toSequence: result.toSequence,
          files: result.files.map((file) => ({ path: file.path, access: file.access })),
          event: toEventDto(result.event),
        },
      };
  }
}
