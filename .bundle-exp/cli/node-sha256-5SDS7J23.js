import {
  nodeSha256
} from "./chunk-XFVAXZIU.js";
export {
  nodeSha256
};
