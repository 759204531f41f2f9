import { sha256Hex, type Sha256 } from '../base/sha256.js';
import { canonicalJson } from '../events/canonical-json.js';
import type { InferenceMessage } from '../inference/inference-request.js';
import type { ContextPack } from './context-pack.js';

/**
 * Renders a pack as messages: all L0 entries become one system message (separated by blank
 * lines); every other entry becomes one message with its role, in pack order.
 */
export function renderContextPack(pack: ContextPack): InferenceMessage[] {
  const system = pack.entries.filter((entry) => entry.layer === 'L0').map((entry) => entry.content);
  const messages: InferenceMessage[] = [];
  if (system.length > 0) messages.push({ role: 'system', content: system.join('\n\n') });
  for (const entry of pack.entries) {
    if (entry.layer !== 'L0') messages.push({ role: entry.role, content: entry.content });
  }
  return messages;
}

/** SHA-256 of the canonical JSON of the rendered messages: what `inference_requested` records. */
export function contextPackDigest(
  messages: readonly InferenceMessage[],
  hash: Sha256 = sha256Hex,
): string {
  return hash(canonicalJson(messages));
}
