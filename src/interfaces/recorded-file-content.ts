import type { CorrexEvent } from '../core/event-catalog.js';
import { builtinFileChange } from '../core/tools/builtin-tools.js';
import { contentAfter } from '../core/tools/file-change.js';

/**
 * The content of the file at `realPath` as the session's log knows it, just before sequence
 * `before`: the last whole `read_file` of it, then the changes that succeeded after (as each
 * writing tool's `describeChange` describes them).
 * Undefined when the log never held the whole file (never read, or read in part or truncated).
 * Pure: the same events give the same content.
 */
export function recordedFileContent(
  events: Iterable<CorrexEvent>,
  realPath: string,
  before: number,
): string | undefined {
  let content: string | undefined;
  for (const event of events) {
    if (event.sequence >= before) break;
    const payload = event.payload;
    if (payload.type !== 'tool_receipt' || payload.outcome !== 'succeeded') continue;
    if (!payload.files.some((file) => file.path === realPath)) continue;
    const args = payload.args;
    if (payload.tool === 'read_file') {
      const whole =
        !payload.truncated && args.startLine === undefined && args.endLine === undefined;
      content = whole ? payload.output : undefined;
    } else {
      const change = builtinFileChange(payload.tool, args);
      content = change === undefined ? undefined : contentAfter(change, content);
    }
  }
  return content;
}
