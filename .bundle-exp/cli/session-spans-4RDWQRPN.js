import {
  sessionSpans
} from "./chunk-CQXC2TVF.js";
export {
  sessionSpans
};
