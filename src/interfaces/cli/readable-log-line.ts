import { visibleText } from '../../core/base/visible-text.js';

const LEVELS: Readonly<Record<number, string>> = {
  10: 'trace',
  20: 'debug',
  30: 'info',
  40: 'warning',
  50: 'error',
  60: 'fatal',
};
/** Fields every pino record has; the rest are the record's details. */
const STANDARD = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'err', 'v']);

/**
 * A pino JSON record as one line a person reads: `correx serve: error: session failed
 * (sessionId=s1): the message`. Anything that is not a JSON record is shown as it came.
 */
export function readableLogLine(record: string): string {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(record) as Record<string, unknown>;
  } catch {
    return visibleText(record.trimEnd());
  }
  const level = LEVELS[Number(parsed.level)] ?? 'log';
  const details = Object.entries(parsed)
    .filter(([key]) => !STANDARD.has(key))
    .map(([key, value]) => `${key}=${typeof value === 'string' ? value : JSON.stringify(value)}`);
  const error = parsed.err as { message?: unknown } | undefined;
  const cause = typeof error?.message === 'string' ? `: ${error.message}` : '';
  const message = typeof parsed.msg === 'string' ? parsed.msg : '';
  return visibleText(
    `correx serve: ${level === 'info' ? '' : `${level}: `}${message}${details.length > 0 ? ` (${details.join(' ')})` : ''}${cause}`,
  );
}
