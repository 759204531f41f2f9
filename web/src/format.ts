import { visibleLines } from '../../src/core/base/visible-text.js';

/** Small display helpers shared by the views. */

export function formatAge(from: string, now: number): string {
  const ms = now - Date.parse(from);
  if (!Number.isFinite(ms)) return '?';
  return formatDuration(Math.max(0, ms));
}

export function formatDuration(ms: number): string {
  if (ms < 1_000) return `${Math.round(ms)} ms`;
  const s = ms / 1_000;
  if (s < 60) return `${s.toFixed(s < 10 ? 1 : 0)} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${Math.round(s % 60)} s`;
  const h = Math.floor(m / 60);
  if (h < 48) return `${h} h ${m % 60} min`;
  return `${Math.floor(h / 24)} d`;
}

export function formatTokens(n: number): string {
  return n < 10_000 ? String(n) : `${(n / 1_000).toFixed(n < 100_000 ? 1 : 0)}k`;
}

/** US dollars as the outcome and `correx sessions` show them; null: no profile has prices. */
export function formatCost(usd: number | null, none = '—'): string {
  return usd === null ? none : `$${usd.toFixed(4)}`;
}

/** A date and time, for records kept longer than a day (eval runs). */
export function formatDateTime(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : date.toLocaleString();
}

export function formatTime(timestamp: string): string {
  const date = new Date(timestamp);
  return Number.isNaN(date.getTime()) ? timestamp : date.toLocaleTimeString();
}

/** A call's arguments for people: indented JSON, hidden characters and escapes made visible. */
export function prettyArgs(argsRaw: string): string {
  try {
    return visibleLines(JSON.stringify(JSON.parse(argsRaw), null, 2));
  } catch {
    return visibleLines(argsRaw);
  }
}

let counter = 0;
/** A request id for a WebSocket message. */
export function nextRequestId(): string {
  counter += 1;
  return `web-${Date.now().toString(36)}-${counter}`;
}
