// src/infrastructure/sandbox/preimage-store.ts
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
var MAX_PREIMAGE_BYTES = 8 * 1024 * 1024;
function createPreimageStore(directory) {
  const pathOf = (sha256) => join(directory, sha256.slice(0, 2), sha256);
  return {
    directory,
    put(bytes) {
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      const path = pathOf(sha256);
      if (existsSync(path)) return sha256;
      mkdirSync(join(directory, sha256.slice(0, 2)), { recursive: true, mode: 448 });
      const partial = `${path}.${process.pid}.partial`;
      writeFileSync(partial, bytes, { mode: 384 });
      renameSync(partial, path);
      return sha256;
    },
    get(sha256) {
      if (!/^[0-9a-f]{64}$/.test(sha256)) return null;
      let bytes;
      try {
        bytes = readFileSync(pathOf(sha256));
      } catch {
        return null;
      }
      return createHash("sha256").update(bytes).digest("hex") === sha256 ? bytes : null;
    },
    has: (sha256) => /^[0-9a-f]{64}$/.test(sha256) && existsSync(pathOf(sha256))
  };
}
function preimageDirectory(correxHome) {
  return join(correxHome, "preimages");
}

export {
  MAX_PREIMAGE_BYTES,
  createPreimageStore,
  preimageDirectory
};
