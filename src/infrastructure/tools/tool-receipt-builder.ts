import { createHash } from 'node:crypto';
import type { EgressDecision, SandboxProfile } from '../../core/policies/sandbox-profile.js';
import type { ToolOutcome, TouchedFile } from '../../core/tools/tool-events.js';
import type { ToolExecution } from './tool-executor.js';

/** Default cap on the output kept in a receipt; the digest always covers the full output. */
export const DEFAULT_MAX_OUTPUT_BYTES = 64 * 1024;

/** Accumulates output bytes: keeps the first `cap` bytes, counts and hashes all of them. */
export function createOutputBuffer(cap = DEFAULT_MAX_OUTPUT_BYTES) {
  const hash = createHash('sha256');
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let total = 0;
  return {
    push(chunk: Buffer | string) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
      hash.update(bytes);
      total += bytes.length;
      if (keptBytes < cap) {
        const slice = bytes.subarray(0, cap - keptBytes);
        kept.push(slice);
        keptBytes += slice.length;
      }
    },
    finish(): { output: string; outputBytes: number; outputSha256: string; truncated: boolean } {
      const truncated = total > keptBytes;
      // Decoding may split a multi-byte character at the cap; the replacement char is acceptable in a preview.
      let output = Buffer.concat(kept).toString('utf8');
      if (truncated)
        output += `\n[… ${total - keptBytes} of ${total} bytes truncated; sha256 covers the full output …]`;
      return { output, outputBytes: total, outputSha256: hash.digest('hex'), truncated };
    },
  };
}

/** SHA-256 hex of bytes or text. */
export function sha256Of(content: Buffer | string): string {
  return createHash('sha256').update(content).digest('hex');
}

/**
 * Builds what a call's execution found; `text` is bounded by `cap`. The receipt's envelope (its
 * call id, tool and arguments) is not the executor's to write: the runner adds it from the call.
 */
export function buildReceipt(fields: {
  outcome: ToolOutcome;
  text: string;
  exitCode?: number | null;
  error?: string | null;
  files?: TouchedFile[];
  startedAt: number;
  cap?: number;
}): ToolExecution {
  const buffer = createOutputBuffer(fields.cap);
  buffer.push(fields.text);
  return finishReceipt({ ...fields, output: buffer.finish() });
}

export function finishReceipt(fields: {
  outcome: ToolOutcome;
  output: ReturnType<ReturnType<typeof createOutputBuffer>['finish']>;
  exitCode?: number | null;
  error?: string | null;
  files?: TouchedFile[];
  startedAt: number;
  /** For calls that ran a process: the confinement it ran under, and the proxy's decisions. */
  sandbox?: SandboxProfile;
  egress?: EgressDecision[];
  /** For calls that ran a process: the real path of the program. */
  executable?: string;
}): ToolExecution {
  return {
    outcome: fields.outcome,
    exitCode: fields.exitCode ?? null,
    error: fields.error ?? null,
    ...fields.output,
    files: fields.files ?? [],
    durationMs: Math.max(0, Math.round(performance.now() - fields.startedAt)),
    ...(fields.sandbox === undefined ? {} : { sandbox: fields.sandbox }),
    ...(fields.egress === undefined ? {} : { egress: fields.egress }),
    ...(fields.executable === undefined ? {} : { executable: fields.executable }),
  };
}
