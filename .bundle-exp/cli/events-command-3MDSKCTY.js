import {
  eventsCommand,
  parseCount
} from "./chunk-JPE2QVXK.js";
import "./chunk-5MQ6PZFE.js";
import "./chunk-A2ILMMH3.js";
import "./chunk-UBE6EJMR.js";
import "./chunk-OYJRPCLU.js";
import "./chunk-COPIES7C.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-7N5K7NRY.js";
import "./chunk-BDZLLWVY.js";
export {
  eventsCommand,
  parseCount
};
