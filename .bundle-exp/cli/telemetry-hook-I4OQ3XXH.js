import {
  withTelemetry
} from "./chunk-COF34Z7E.js";
export {
  withTelemetry
};
