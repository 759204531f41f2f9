// src/infrastructure/system/node-sha256.ts
import { hash } from "node:crypto";
var nodeSha256 = (text) => hash("sha256", text, "hex");

export {
  nodeSha256
};
