/*
 * Readers for event payload fields. The wire carries each payload as recorded JSON discriminated
 * by `type` (EventDtoSchema); the page reads the fields it shows and tolerates anything else, so a
 * payload that grows a field, or an event type the page does not know, never breaks it.
 */

import { visibleLines, visibleText } from '../../../src/core/base/visible-text.js';

export type Payload = Readonly<Record<string, unknown>>;

export function text(payload: Payload, key: string): string | undefined {
  const value = payload[key];
  return typeof value === 'string' ? value : undefined;
}

/** A field the page shows as text: hidden characters and escapes visible, lines kept. */
export function shownLines(payload: Payload, key: string): string | undefined {
  const value = text(payload, key);
  return value === undefined ? undefined : visibleLines(value);
}

/** A field the page shows on one line (a path, a name): every hidden character visible. */
export function shownLine(payload: Payload, key: string): string | undefined {
  const value = text(payload, key);
  return value === undefined ? undefined : visibleText(value);
}

export function num(payload: Payload, key: string): number | undefined {
  const value = payload[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

export function bool(payload: Payload, key: string): boolean | undefined {
  const value = payload[key];
  return typeof value === 'boolean' ? value : undefined;
}

export function record(payload: Payload, key: string): Payload | undefined {
  const value = payload[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Payload)
    : undefined;
}

export function records(payload: Payload, key: string): Payload[] {
  const value = payload[key];
  return Array.isArray(value)
    ? value.filter((item): item is Payload => typeof item === 'object' && item !== null)
    : [];
}

/** A tool call's raw argument text as a JSON object, when it is one. */
export function parseArgs(argsRaw: string | undefined): Payload | undefined {
  if (argsRaw === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(argsRaw);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Payload)
      : undefined;
  } catch {
    return undefined;
  }
}
