// src/infrastructure/session-head-cache.ts
var SessionHeadCache = class {
  constructor(limit = 4096) {
    this.limit = limit;
  }
  limit;
  #heads = /* @__PURE__ */ new Map();
  get(sessionId) {
    return this.#heads.get(sessionId);
  }
  set(sessionId, head) {
    this.#heads.delete(sessionId);
    this.#heads.set(sessionId, head);
    if (this.#heads.size > this.limit) this.#heads.delete(this.#heads.keys().next().value);
  }
  forget(sessionId) {
    this.#heads.delete(sessionId);
  }
  clear() {
    this.#heads.clear();
  }
};

export {
  SessionHeadCache
};
