import {
  createRunnableSessions,
  openRunnableSessions
} from "./chunk-KZP3BAYL.js";
import "./chunk-GDQPYYGW.js";
import "./chunk-2XSB7GWG.js";
import "./chunk-YCTECULU.js";
import "./chunk-XESUYX36.js";
import "./chunk-BDZLLWVY.js";
export {
  createRunnableSessions,
  openRunnableSessions
};
