import { sha256Hex } from '../../base/sha256.js';
import { canonicalJson, type JsonValue } from '../../events/canonical-json.js';

/**
 * What makes two proposed calls "the same call": the tool and its canonical arguments (or the raw
 * text when it is not a JSON object). Used to stop a model that repeats a failing call.
 */
export function callFingerprint(
  tool: string,
  args: { readonly [key: string]: JsonValue } | null,
  argsRaw: string,
): string {
  return sha256Hex(`${tool}\n${args === null ? `raw:${argsRaw}` : canonicalJson(args)}`);
}
