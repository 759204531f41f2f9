const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/** `90s`, `30m`, `1.5h`, `500ms`, or a bare number of seconds; null when it is none of these. */
export function parseDuration(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h)?\s*$/.exec(text);
  if (match === null) return null;
  const ms = Number(match[1]) * UNITS[match[2] ?? 's']!;
  return Number.isFinite(ms) && ms > 0 ? Math.round(ms) : null;
}
