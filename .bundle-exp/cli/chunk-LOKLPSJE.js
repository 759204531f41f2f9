import {
  CorrexError
} from "./chunk-BDZLLWVY.js";

// src/infrastructure/system/bounded-file-read.ts
import { constants } from "node:fs";
import { open } from "node:fs/promises";
var MAX_CONFIG_FILE_BYTES = 4 * 1024 * 1024;
var FileTooLargeError = class extends CorrexError {
  constructor(what, path, size, maxBytes) {
    super(
      "file_too_large",
      `${what} ${path} is ${size} bytes; correx reads at most ${maxBytes} bytes of it`
    );
  }
};
var NotARegularFileError = class extends CorrexError {
  constructor(what, path, kind) {
    super(
      "not_a_regular_file",
      `${what} ${path} is a ${kind}, not a regular file; correx refuses it`
    );
  }
};
function kindOf(info) {
  if (info.isFile()) return null;
  if (info.isFIFO()) return "FIFO (named pipe)";
  if (info.isSocket()) return "socket";
  if (info.isCharacterDevice() || info.isBlockDevice()) return "device";
  if (info.isDirectory()) return "folder";
  return "special file";
}
async function readBoundedFile(path, options) {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
    const kind = kindOf(info);
    if (kind !== null) throw new NotARegularFileError(options.what, path, kind);
    if (info.size > options.maxBytes)
      throw new FileTooLargeError(options.what, path, info.size, options.maxBytes);
    const chunk = Buffer.alloc(64 * 1024);
    const parts = [];
    let total = 0;
    for (; ; ) {
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null);
      if (bytesRead === 0) return Buffer.concat(parts, total);
      total += bytesRead;
      if (total > options.maxBytes)
        throw new FileTooLargeError(options.what, path, total, options.maxBytes);
      parts.push(Buffer.from(chunk.subarray(0, bytesRead)));
    }
  } finally {
    await handle.close();
  }
}

export {
  MAX_CONFIG_FILE_BYTES,
  readBoundedFile
};
