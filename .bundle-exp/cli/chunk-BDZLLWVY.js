// src/core/base/correx-error.ts
var marker = /* @__PURE__ */ Symbol.for("correx.error");
var CorrexError = class extends Error {
  code;
  [marker] = true;
  constructor(code, message, options) {
    super(message, options);
    this.name = new.target.name;
    this.code = code;
  }
  /** True for any CorrexError, even one from another copy of this module. */
  static isInstance(error) {
    return typeof error === "object" && error !== null && marker in error;
  }
};

export {
  CorrexError
};
