import {
  parseYamlSource
} from "./chunk-P2JR5UVJ.js";
import {
  parseWorkspacePolicy
} from "./chunk-OYJRPCLU.js";

// src/interfaces/candidate-policy.ts
function parseCandidatePolicy(text, source) {
  const data = parseYamlSource(text, source).data;
  const section = data !== null && typeof data === "object" && "policy" in data ? data.policy : data;
  return parseWorkspacePolicy(section ?? {});
}

export {
  parseCandidatePolicy
};
