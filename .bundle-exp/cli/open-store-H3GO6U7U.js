import {
  StoreLocationError,
  openStores,
  parseStoreLocation
} from "./chunk-ORXSUEWY.js";
import "./chunk-XXOLSKOG.js";
import "./chunk-XESUYX36.js";
import "./chunk-3K2LSKRX.js";
import "./chunk-5UEANXJE.js";
import "./chunk-XFVAXZIU.js";
import "./chunk-CORQQBM5.js";
import "./chunk-IRD534JB.js";
import "./chunk-A7ITNCWT.js";
import "./chunk-W32ANIA4.js";
import "./chunk-AYFXHFZY.js";
import "./chunk-BDZLLWVY.js";
export {
  StoreLocationError,
  openStores,
  parseStoreLocation
};
