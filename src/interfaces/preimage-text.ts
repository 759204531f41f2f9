import type { PreimageStore } from '../infrastructure/sandbox/preimage-store.js';
import type { StoredText } from './cli/run-summary.js';

/** Text kept in a pre-image store under a hash; null when absent or not text (a NUL early on). */
export function preimageText(blobs: PreimageStore): StoredText {
  return (sha256) => {
    const bytes = blobs.get(sha256);
    if (bytes === null || bytes.subarray(0, 8000).includes(0)) return null;
    return bytes.toString('utf8');
  };
}
