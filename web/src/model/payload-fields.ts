/*
 * Readers for event payload fields. The wire carries each payload as recorded JSON discriminated
 * by `type` (EventDtoSchema); the page reads the fields it shows and tolerates anything else, so a
 * payload that grows a field, or an event type the page does not know, never breaks it.
 */

export type Payload = Readonly<Record<string, unknown>>;

export function text(payload: Payload, key: string): string | undefined {
  const value = payload[key];
  return typeof value === 'string' ? value : undefined;
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
