import type { CorrexEvent } from '../../core/event-catalog.js';
import { canonicalJson } from '../../core/events/canonical-json.js';

/** One event as an NDJSON line: its canonical envelope (`correx tail --json`, `run --json`). */
export function formatEventJson(event: CorrexEvent): string {
  return canonicalJson(event);
}
