import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Files larger than this get a hash in the change record but no stored pre-image. */
export const MAX_PREIMAGE_BYTES = 8 * 1024 * 1024;

/**
 * Content-addressed file bytes (`<dir>/<aa>/<sha256>`), written once and never changed: the
 * pre-images of files exec commands change, so a diff (and later an undo) can show and restore
 * what was there. A read is verified against its name, so a tampered blob is never returned.
 */
export type PreimageStore = {
  readonly directory: string;
  /** Stores `bytes` under their SHA-256 (a no-op when already stored); returns the hash. */
  put(bytes: Buffer): string;
  /** The bytes stored under `sha256`, or null when absent or altered. */
  get(sha256: string): Buffer | null;
  has(sha256: string): boolean;
};

export function createPreimageStore(directory: string): PreimageStore {
  const pathOf = (sha256: string) => join(directory, sha256.slice(0, 2), sha256);
  return {
    directory,
    put(bytes) {
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      const path = pathOf(sha256);
      if (existsSync(path)) return sha256;
      mkdirSync(join(directory, sha256.slice(0, 2)), { recursive: true, mode: 0o700 });
      // Written aside and renamed, so a crash never leaves a half blob under the real name.
      const partial = `${path}.${process.pid}.partial`;
      writeFileSync(partial, bytes, { mode: 0o600 });
      renameSync(partial, path);
      return sha256;
    },
    get(sha256) {
      if (!/^[0-9a-f]{64}$/.test(sha256)) return null;
      let bytes: Buffer;
      try {
        bytes = readFileSync(pathOf(sha256));
      } catch {
        return null;
      }
      return createHash('sha256').update(bytes).digest('hex') === sha256 ? bytes : null;
    },
    has: (sha256) => /^[0-9a-f]{64}$/.test(sha256) && existsSync(pathOf(sha256)),
  };
}

/** Where correx keeps pre-images under its home; `correx diff` reads them there. */
export function preimageDirectory(correxHome: string): string {
  return join(correxHome, 'preimages');
}
