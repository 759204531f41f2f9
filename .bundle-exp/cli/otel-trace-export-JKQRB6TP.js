import {
  TelemetryExportError,
  exportSessionTrace
} from "./chunk-IT46FQQA.js";
import "./chunk-BDZLLWVY.js";
export {
  TelemetryExportError,
  exportSessionTrace
};
