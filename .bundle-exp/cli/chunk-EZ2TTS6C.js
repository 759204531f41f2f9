// src/infrastructure/system/system-clock.ts
var systemClock = { now: () => (/* @__PURE__ */ new Date()).toISOString() };

// src/infrastructure/system/uuid-v7-id-source.ts
import { randomBytes } from "node:crypto";
function createUuidV7IdSource(now = Date.now) {
  let lastMs = -1;
  let counter = 0;
  return {
    next() {
      let ms = now();
      if (ms <= lastMs) {
        ms = lastMs;
        counter += 1;
        if (counter > 4095) {
          ms = lastMs + 1;
          counter = 0;
        }
      } else {
        counter = 0;
      }
      lastMs = ms;
      const bytes = randomBytes(16);
      bytes.writeUIntBE(ms, 0, 6);
      bytes[6] = 112 | counter >> 8;
      bytes[7] = counter & 255;
      bytes[8] = 128 | bytes[8] & 63;
      const hex = bytes.toString("hex");
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    }
  };
}

export {
  systemClock,
  createUuidV7IdSource
};
