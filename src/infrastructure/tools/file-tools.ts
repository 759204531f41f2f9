import {
  copyFileTool,
  editFileTool,
  moveFileTool,
  readFileTool,
  writeFileTool,
} from '../../core/tools/builtin-tools.js';
import type { WorldProbe } from '../../core/toolintent/world-probe.js';
import { CorrexError } from '../../core/base/correx-error.js';
import type { ToolDefinition } from '../../core/tools/tool-contract.js';
import {
  defineToolExecutor,
  recheckTarget,
  type ToolExecution,
  type ToolExecutionContext,
  type ToolExecutor,
} from './tool-executor.js';
import { buildReceipt, sha256Of } from './tool-receipt-builder.js';
import { moveVerifiedFile, readVerifiedFile, writeVerifiedFile } from './verified-directory.js';

export type FileToolOptions = {
  readonly probe: WorldProbe;
  readonly maxOutputBytes?: number;
  /** The most a file or search call may take before its receipt says `timed_out`; default 2 minutes. */
  readonly timeBoundMs?: number;
  /** Globs whose files grep never searches (default DEFAULT_NEVER_READABLE). */
  readonly neverReadable?: readonly string[];
};

/** File and search calls are bounded too: a hung mount or a read that never ends still gets a receipt. */
export const DEFAULT_FILE_TOOL_TIME_BOUND_MS = 120_000;

/** The call ran past its time bound; the receipt says `timed_out`. */
class ToolTimeBoundError extends CorrexError {
  constructor(name: string, boundMs: number) {
    super('tool_time_bound', `${name} did not finish within ${boundMs} ms and was abandoned`);
  }
}

/**
 * Settles with `work`, or rejects with ToolTimeBoundError after `boundMs`. A filesystem call
 * cannot be cancelled, so abandoned work may still finish later; its result is dropped.
 */
async function withinTimeBound<T>(name: string, boundMs: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ToolTimeBoundError(name, boundMs)), boundMs);
  });
  try {
    return await Promise.race([work, bound]);
  } finally {
    clearTimeout(timer);
  }
}

/** A failure the model should see in its receipt (missing search text, not a file...). */
class ToolFailure extends CorrexError {
  constructor(message: string) {
    super('tool_failed', message);
  }
}

/**
 * Wraps an executor body: expected failures become receipts (`world_changed`, `failed`,
 * `refused`, `timed_out`). `timeBoundMs` bounds the whole call; exec and http_fetch leave it out
 * because they bound (and kill) their own work.
 */
function guarded<Args>(
  tool: ToolDefinition<Args>,
  cap: number | undefined,
  body: (args: Args, context: ToolExecutionContext, startedAt: number) => Promise<ToolExecution>,
  timeBoundMs?: number,
): ToolExecutor {
  const { name } = tool;
  return defineToolExecutor(tool, async (args, context) => {
    const startedAt = performance.now();
    try {
      const work = body(args, context, startedAt);
      return await (timeBoundMs === undefined ? work : withinTimeBound(name, timeBoundMs, work));
    } catch (error) {
      const code = CorrexError.isInstance(error) ? error.code : undefined;
      const outcome =
        code === 'world_changed'
          ? 'world_changed'
          : code === 'tool_time_bound'
            ? 'timed_out'
            : code === 'unassessed_target' || code === 'special_file'
              ? 'refused'
              : 'failed';
      const message = error instanceof Error ? error.message : String(error);
      return buildReceipt({
        outcome,
        text: '',
        error: message,
        startedAt,
        ...(cap === undefined ? {} : { cap }),
      });
    }
  });
}

export function createReadFileExecutor(options: FileToolOptions): ToolExecutor {
  return guarded(
    readFileTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const { realPath } = await recheckTarget(options.probe, args.path, context);
      const bytes = await readVerifiedFile(realPath);
      const sha = sha256Of(bytes);
      const lines = bytes.toString('utf8').split('\n');
      const start = args.startLine ?? 1;
      const end = args.endLine ?? lines.length;
      if (end < start) throw new ToolFailure(`endLine ${end} is before startLine ${start}`);
      const text = lines.slice(start - 1, end).join('\n');
      return buildReceipt({
        outcome: 'succeeded',
        text,
        startedAt,
        files: [{ path: realPath, access: 'read', before: sha, after: sha }],
        ...(options.maxOutputBytes === undefined ? {} : { cap: options.maxOutputBytes }),
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS,
  );
}

export function createWriteFileExecutor(options: FileToolOptions): ToolExecutor {
  return guarded(
    writeFileTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const { realPath, observed } = await recheckTarget(options.probe, args.path, context);
      const { content } = args;
      const written = await writeVerifiedFile(realPath, content);
      return buildReceipt({
        outcome: 'succeeded',
        text: `wrote ${Buffer.byteLength(content)} bytes`,
        startedAt,
        files: [
          { path: written, access: 'write', before: observed.sha256, after: sha256Of(content) },
        ],
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS,
  );
}

export function createEditFileExecutor(options: FileToolOptions): ToolExecutor {
  return guarded(
    editFileTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const { realPath, observed } = await recheckTarget(options.probe, args.path, context);
      const before = (await readVerifiedFile(realPath)).toString('utf8');
      const { search } = args;
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
      const after = before.slice(0, first) + args.replace + before.slice(first + search.length);
      const written = await writeVerifiedFile(realPath, after);
      const line = before.slice(0, first).split('\n').length;
      return buildReceipt({
        outcome: 'succeeded',
        text: `replaced 1 occurrence at line ${line}`,
        startedAt,
        files: [
          { path: written, access: 'write', before: observed.sha256, after: sha256Of(after) },
        ],
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS,
  );
}

export function createCopyFileExecutor(options: FileToolOptions): ToolExecutor {
  return guarded(
    copyFileTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const source = await recheckTarget(options.probe, args.source, context);
      const destination = await recheckTarget(options.probe, args.destination, context);
      const bytes = await readVerifiedFile(source.realPath);
      const written = await writeVerifiedFile(destination.realPath, bytes);
      const sha = sha256Of(bytes);
      return buildReceipt({
        outcome: 'succeeded',
        text: `copied ${bytes.length} bytes`,
        startedAt,
        files: [
          { path: source.realPath, access: 'read', before: sha, after: sha },
          { path: written, access: 'write', before: destination.observed.sha256, after: sha },
        ],
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS,
  );
}

export function createMoveFileExecutor(options: FileToolOptions): ToolExecutor {
  return guarded(
    moveFileTool,
    options.maxOutputBytes,
    async (args, context, startedAt) => {
      const source = await recheckTarget(options.probe, args.source, context);
      const destination = await recheckTarget(options.probe, args.destination, context);
      if (source.observed.kind !== 'file') throw new ToolFailure('move_file moves files only');
      // rename(2) replaces a destination symlink itself and never follows it.
      const moved = await moveVerifiedFile(source.realPath, destination.realPath);
      const sha = source.observed.sha256;
      return buildReceipt({
        outcome: 'succeeded',
        text: 'moved',
        startedAt,
        files: [
          { path: source.realPath, access: 'delete', before: source.observed.sha256, after: null },
          { path: moved, access: 'write', before: destination.observed.sha256, after: sha },
        ],
      });
    },
    options.timeBoundMs ?? DEFAULT_FILE_TOOL_TIME_BOUND_MS,
  );
}

export { guarded as guardedExecutor, ToolFailure };
