import {
  canonicalJson
} from "./chunk-W32ANIA4.js";

// src/interfaces/cli/event-json.ts
function formatEventJson(event) {
  return canonicalJson(event);
}

export {
  formatEventJson
};
