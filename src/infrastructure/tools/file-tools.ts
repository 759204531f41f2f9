import { constants } from 'node:fs';
import { mkdir, open, rename } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { WorldProbe } from '../../core/toolintent/world-probe.js';
import { CorrexError } from '../../core/base/correx-error.js';
import {
  recheckTarget,
  type ToolExecutionContext,
  type ToolExecutor,
  type ToolReceipt,
} from './tool-executor.js';
import { buildReceipt, sha256Of } from './tool-receipt-builder.js';

export type FileToolOptions = {
  readonly probe: WorldProbe;
  readonly maxOutputBytes?: number;
  /** Globs whose files grep never searches (default DEFAULT_NEVER_READABLE). */
  readonly neverReadable?: readonly string[];
};

/** A failure the model should see in its receipt (missing search text, not a file...). */
class ToolFailure extends CorrexError {
  constructor(message: string) {
    super('tool_failed', message);
  }
}

/**
 * Writes `content` to an already re-checked real path. O_NOFOLLOW refuses a symlink swapped in
 * at the final component after the re-check; parent directories are created inside the
 * workspace only (the real path was checked to be there).
 */
async function writeNoFollow(realPath: string, content: string | Buffer): Promise<void> {
  await mkdir(dirname(realPath), { recursive: true });
  const handle = await open(
    realPath,
    constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW,
    0o644,
  );
  try {
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

async function readNoFollow(realPath: string): Promise<Buffer> {
  const handle = await open(realPath, constants.O_RDONLY | constants.O_NOFOLLOW);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** Wraps an executor body: expected failures become receipts (`world_changed`, `failed`, `refused`). */
function guarded(
  name: string,
  cap: number | undefined,
  body: (
    args: Record<string, unknown>,
    context: ToolExecutionContext,
    startedAt: number,
  ) => Promise<ToolReceipt>,
): ToolExecutor {
  return {
    name,
    async execute(args, context) {
      const startedAt = performance.now();
      try {
        return await body(args, context, startedAt);
      } catch (error) {
        const code = CorrexError.isInstance(error) ? error.code : undefined;
        const outcome =
          code === 'world_changed'
            ? 'world_changed'
            : code === 'unassessed_target'
              ? 'refused'
              : 'failed';
        const message = error instanceof Error ? error.message : String(error);
        return buildReceipt({
          callId: context.callId,
          tool: name,
          args,
          outcome,
          text: '',
          error: message,
          startedAt,
          ...(cap === undefined ? {} : { cap }),
        });
      }
    },
  };
}

export function createReadFileExecutor(options: FileToolOptions): ToolExecutor {
  return guarded('read_file', options.maxOutputBytes, async (args, context, startedAt) => {
    const { realPath } = await recheckTarget(options.probe, args.path, context);
    const bytes = await readNoFollow(realPath);
    const sha = sha256Of(bytes);
    const lines = bytes.toString('utf8').split('\n');
    const start = typeof args.startLine === 'number' ? args.startLine : 1;
    const end = typeof args.endLine === 'number' ? args.endLine : lines.length;
    if (end < start) throw new ToolFailure(`endLine ${end} is before startLine ${start}`);
    const text = lines.slice(start - 1, end).join('\n');
    return buildReceipt({
      callId: context.callId,
      tool: 'read_file',
      args,
      outcome: 'succeeded',
      text,
      startedAt,
      files: [{ path: realPath, access: 'read', before: sha, after: sha }],
      ...(options.maxOutputBytes === undefined ? {} : { cap: options.maxOutputBytes }),
    });
  });
}

export function createWriteFileExecutor(options: FileToolOptions): ToolExecutor {
  return guarded('write_file', options.maxOutputBytes, async (args, context, startedAt) => {
    const { realPath, observed } = await recheckTarget(options.probe, args.path, context);
    const content = String(args.content);
    await writeNoFollow(realPath, content);
    return buildReceipt({
      callId: context.callId,
      tool: 'write_file',
      args,
      outcome: 'succeeded',
      text: `wrote ${Buffer.byteLength(content)} bytes`,
      startedAt,
      files: [
        { path: realPath, access: 'write', before: observed.sha256, after: sha256Of(content) },
      ],
    });
  });
}

export function createEditFileExecutor(options: FileToolOptions): ToolExecutor {
  return guarded('edit_file', options.maxOutputBytes, async (args, context, startedAt) => {
    const { realPath, observed } = await recheckTarget(options.probe, args.path, context);
    const before = (await readNoFollow(realPath)).toString('utf8');
    const search = String(args.search);
    const first = before.indexOf(search);
    if (first < 0)
      throw new ToolFailure(
        'the search text does not occur in the file; read the file and copy the text exactly',
      );
    const second = before.indexOf(search, first + 1);
    if (second >= 0)
      throw new ToolFailure(
        'the search text occurs more than once; include more surrounding lines so it is unique',
      );
    const after =
      before.slice(0, first) + String(args.replace) + before.slice(first + search.length);
    await writeNoFollow(realPath, after);
    const line = before.slice(0, first).split('\n').length;
    return buildReceipt({
      callId: context.callId,
      tool: 'edit_file',
      args,
      outcome: 'succeeded',
      text: `replaced 1 occurrence at line ${line}`,
      startedAt,
      files: [{ path: realPath, access: 'write', before: observed.sha256, after: sha256Of(after) }],
    });
  });
}

export function createCopyFileExecutor(options: FileToolOptions): ToolExecutor {
  return guarded('copy_file', options.maxOutputBytes, async (args, context, startedAt) => {
    const source = await recheckTarget(options.probe, args.source, context);
    const destination = await recheckTarget(options.probe, args.destination, context);
    const bytes = await readNoFollow(source.realPath);
    await writeNoFollow(destination.realPath, bytes);
    const sha = sha256Of(bytes);
    return buildReceipt({
      callId: context.callId,
      tool: 'copy_file',
      args,
      outcome: 'succeeded',
      text: `copied ${bytes.length} bytes`,
      startedAt,
      files: [
        { path: source.realPath, access: 'read', before: sha, after: sha },
        {
          path: destination.realPath,
          access: 'write',
          before: destination.observed.sha256,
          after: sha,
        },
      ],
    });
  });
}

export function createMoveFileExecutor(options: FileToolOptions): ToolExecutor {
  return guarded('move_file', options.maxOutputBytes, async (args, context, startedAt) => {
    const source = await recheckTarget(options.probe, args.source, context);
    const destination = await recheckTarget(options.probe, args.destination, context);
    if (source.observed.kind !== 'file') throw new ToolFailure('move_file moves files only');
    await mkdir(dirname(destination.realPath), { recursive: true });
    // rename(2) replaces a destination symlink itself and never follows it.
    await rename(source.realPath, destination.realPath);
    const sha = source.observed.sha256;
    return buildReceipt({
      callId: context.callId,
      tool: 'move_file',
      args,
      outcome: 'succeeded',
      text: 'moved',
      startedAt,
      files: [
        { path: source.realPath, access: 'delete', before: source.observed.sha256, after: null },
        {
          path: destination.realPath,
          access: 'write',
          before: destination.observed.sha256,
          after: sha,
        },
      ],
    });
  });
}

export { guarded as guardedExecutor, ToolFailure };
