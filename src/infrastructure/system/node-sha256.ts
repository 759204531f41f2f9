import { hash } from 'node:crypto';
import type { Sha256 } from '../../core/base/sha256.js';

/**
 * Node's native SHA-256: the same digests as core's pure one (a property test checks it).
 * `crypto.hash` is the one-shot form, about three times faster than `createHash` for the
 * few hundred bytes of an event, which matters because every read re-checks every hash.
 */
export const nodeSha256: Sha256 = (text) => hash('sha256', text, 'hex');
