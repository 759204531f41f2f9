import {
  createFileSessionLocker,
  holderAlive
} from "./chunk-RBOQ53MF.js";
import "./chunk-SWJTFAUB.js";
import "./chunk-BDZLLWVY.js";
export {
  createFileSessionLocker,
  holderAlive
};
