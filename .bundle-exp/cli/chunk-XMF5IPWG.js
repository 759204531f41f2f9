import {
  reservedNameReason
} from "./chunk-X5SESA4I.js";

// src/interfaces/cli/person-name-option.ts
import { InvalidArgumentError } from "commander";
function parsePersonName(value) {
  const reason = reservedNameReason(value);
  if (reason !== null) throw new InvalidArgumentError(reason);
  return value;
}

export {
  parsePersonName
};
